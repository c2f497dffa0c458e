"""The Exploding Kittens engine (RULES.md §3): new game, legal moves, apply, results.

No gymnasium or pettingzoo here. The engine speaks seats (ints); moves are the
frozen dataclasses of :mod:`ek_env.state`. :func:`apply` checks legality and raises
:class:`~cardgym.errors.IllegalMoveError` without changing anything; the functions
of :mod:`ek_env.effects` apply moves already known to be legal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardgym.errors import IllegalMoveError
from ek_env import effects, hidden, streaking
from ek_env.cards import (
    CATS,
    COMBO_KINDS,
    COMBO_KINDS_STREAKING,
    CURSE,
    DEFUSE,
    FAVOR,
    KITTEN,
    MARK,
    NOPE,
    SINGLE_PLAYS,
    STREAKING_PLAYS,
    TAKEABLE,
    TAKEABLE_STREAKING,
    composition,
    deck_defuses,
    deck_kittens,
)
from ek_env.state import (
    ALTER,
    CHOOSE_FIVE,
    GAME_OVER,
    GARBAGE,
    GIVE,
    INSERT,
    NAME_CARD,
    NOPE_WINDOW,
    PHASE_NAMES,
    PLAY,
    TAKE,
    TARGET,
    Alter,
    BlindNope,
    BlindPlay,
    ChooseFive,
    ChooseTarget,
    Config,
    Draw,
    Garbage,
    Give,
    Insert,
    Move,
    NameCard,
    Nope,
    Pass,
    PlayCard,
    PlayFive,
    PlayPair,
    PlayThree,
    State,
    Take,
)

next_alive = effects.next_alive
target_offsets = effects.target_offsets


# ------------------------------------------------------------------- setup


def new_game(config: Config, rng: np.random.Generator,
             scenario: dict[str, Any] | None = None) -> State:
    """Set up a game (RULES.md §3), or the position a scenario describes."""
    if scenario is not None:
        from ek_env.scenario import from_scenario

        return from_scenario(config, rng, scenario)
    n = config.num_players
    streaking = config.streaking
    counts = composition(n, streaking)
    state = State(config)
    others = [card for card in range(config.num_kinds) if card not in (KITTEN, DEFUSE)
              for _ in range(counts[card])]
    rng.shuffle(others)
    for seat in range(n):
        hand = state.hands[seat]
        for _ in range(config.hand_size):
            hand[others.pop()] += 1
        hand[DEFUSE] += 1
    state.count_sizes()
    if config.fast:  # a third of the undealt cards go back to the box unseen
        for _ in range(len(others) // 3):
            state.box[others.pop()] += 1
    kittens = deck_kittens(n, streaking)
    extra_defuses = deck_defuses(n, config.deck_defuses, streaking)
    deck = others + [KITTEN] * kittens + [DEFUSE] * extra_defuses
    rng.shuffle(deck)
    state.deck = deck
    state.box[KITTEN] = counts[KITTEN] - kittens
    state.box[DEFUSE] = counts[DEFUSE] - n - extra_defuses
    first = int(rng.integers(n))
    state.current = state.to_act = first
    return state


# ------------------------------------------------------------------ queries


def to_act(state: State) -> int:
    """The seat deciding now."""
    return state.to_act


def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


def returns(state: State) -> list[float]:
    """Rewards so far: -1 to each exploded seat, +1 to the winner once the game is over
    (none when the draw pile ran dry: the players left share a draw at 0)."""
    result = [0.0] * state.num_players
    for seat in state.eliminated:
        result[seat] = -1.0
    if state.phase == GAME_OVER and state.winner >= 0:
        result[state.winner] = 1.0
    return result


def combo_kinds(config: Config) -> tuple[int, ...]:
    """Kinds that may join a combo (never a kitten, a Defuse or a Streaking Kitten)."""
    return COMBO_KINDS_STREAKING if config.streaking else COMBO_KINDS


def takeable(config: Config) -> tuple[int, ...]:
    """Kinds five different may take from the discard pile."""
    return TAKEABLE_STREAKING if config.streaking else TAKEABLE


def pair_kinds(config: Config) -> tuple[int, ...]:
    """Kinds that may form a pair (or three of a kind): cats only without combos."""
    return combo_kinds(config) if config.combos else CATS


def single_plays(config: Config) -> tuple[int, ...]:
    """Action cards played alone by choice."""
    return SINGLE_PLAYS + STREAKING_PLAYS if config.streaking else SINGLE_PLAYS


def five_choices(state: State) -> list[int]:
    """Kinds that may come next in five different: held, above the last chosen, and
    leaving enough held kinds to complete the five."""
    hand = state.hands[state.current]
    chosen = state.pending_five
    last = chosen[-1] if chosen else -1
    left = [card for card in combo_kinds(state.config) if card > last and hand[card]]
    needed = 5 - len(chosen)
    return [card for i, card in enumerate(left) if len(left) - i >= needed]


def legal_moves(state: State) -> list[Move]:
    """The legal moves of the seat to act, in action-table order."""
    phase = state.phase
    seat = state.to_act
    if phase == PLAY:
        if state.blind[seat]:
            return [Draw(), BlindPlay()] if state.sizes[seat] else [Draw()]
        return _play_moves(state)
    if phase == NOPE_WINDOW:
        if state.blind[seat]:
            return [BlindNope(), Pass()] if state.sizes[seat] else [Pass()]
        if state.hands[seat][NOPE]:
            return [Nope(), Pass()]
        return [Pass()]
    if phase == CHOOSE_FIVE:
        return [ChooseFive(card) for card in five_choices(state)]
    if phase == NAME_CARD:
        return [NameCard(card) for card in range(state.kinds)]
    if phase == GIVE:
        return [Give(card, marked) for card, marked in copies(state, seat)]
    if phase == INSERT:
        return [Insert(depth) for depth in range(len(state.deck) + 1)]
    if phase == TAKE:
        return [Take(card) for card in takeable(state.config) if state.discard[card]]
    if phase == ALTER:
        return [Alter(card) for card in sorted(set(state.alter_left))]
    if phase == GARBAGE:
        return [Garbage(card, marked) for card, marked in copies(state, seat)]
    if phase == TARGET:
        return [ChooseTarget(target)
                for target in streaking.valid_targets(state, state.pending_card)]
    return []


def copies(state: State, seat: int) -> list[tuple[int, bool]]:
    """The distinct cards ``seat`` may choose to hand over (Favor) or put in (Garbage
    Collection), in action-table order: (kind, False) for an unmarked copy of each
    kind held, then (kind, True) for a marked copy of each kind with one."""
    hand, marks = state.hands[seat], state.marked[seat]
    kinds = range(state.kinds)
    plain = [(card, False) for card in kinds if hand[card] > marks[card]]
    return plain + [(card, True) for card in kinds if marks[card]]


def _seats(state: State, offsets: int) -> list[int]:
    n = state.num_players
    return [(state.current + k) % n for k in range(1, n) if offsets >> k & 1]


def _play_moves(state: State) -> list[Move]:
    config = state.config
    hand = state.hands[state.current]
    forbid_empty = config.empty_hand_target == "forbidden"
    targets = _seats(state, target_offsets(state, forbid_empty))
    anyone = _seats(state, target_offsets(state, False))
    moves: list[Move] = [Draw()]
    for card in single_plays(config):
        if hand[card]:
            if card in (FAVOR, MARK):
                moves += [PlayCard(card, seat) for seat in targets]
            elif card == CURSE:
                moves += [PlayCard(card, seat) for seat in anyone]
            else:
                moves.append(PlayCard(card))
    for card in pair_kinds(config):
        if hand[card] >= 2:
            moves += [PlayPair(card, seat) for seat in targets]
    if config.combos:
        kinds = combo_kinds(config)
        for card in kinds:
            if hand[card] >= 3:
                moves += [PlayThree(card, seat) for seat in anyone]
        if sum(1 for card in kinds if hand[card]) >= 5:
            moves.append(PlayFive())
    return moves


# -------------------------------------------------------------------- apply


def apply(state: State, move: Move, rng: np.random.Generator) -> None:
    """Apply a move of the seat to act.

    Raises:
        IllegalMoveError: if the move is not legal now; the state is unchanged.
    """
    if move not in legal_moves(state):
        raise IllegalMoveError(
            f"{move!r} is not legal for seat {state.to_act} in phase "
            f"{PHASE_NAMES[state.phase]!r}"
        )
    apply_unchecked(state, move, rng)


def apply_unchecked(state: State, move: Move, rng: np.random.Generator) -> None:
    """Apply a move known to be legal."""
    if isinstance(move, Draw):
        effects.draw(state, rng)
    elif isinstance(move, PlayCard):
        effects.play_card(state, move.card, move.target)
    elif isinstance(move, (Nope, Pass)):
        effects.respond(state, isinstance(move, Nope), rng)
    elif isinstance(move, PlayPair):
        effects.play_pair(state, move.card, move.target)
    elif isinstance(move, PlayThree):
        effects.play_three(state, move.card, move.target)
    elif isinstance(move, NameCard):
        effects.name_card(state, move.card)
    elif isinstance(move, PlayFive):
        effects.play_five(state)
    elif isinstance(move, ChooseFive):
        effects.choose_five(state, move.card)
    elif isinstance(move, Give):
        effects.give(state, move.card, rng, move.marked)
    elif isinstance(move, Insert):
        effects.insert(state, move.depth, rng)
    elif isinstance(move, Take):
        effects.take(state, move.card)
    elif isinstance(move, BlindPlay):
        streaking.blind_play(state, rng)
    elif isinstance(move, BlindNope):
        streaking.blind_nope(state, rng)
    elif isinstance(move, ChooseTarget):
        streaking.choose_target(state, move.target)
    elif isinstance(move, Alter):
        streaking.alter(state, move.card)
    elif isinstance(move, Garbage):
        streaking.garbage(state, move.card, rng, move.marked)
    else:  # pragma: no cover - Move is a closed union
        raise IllegalMoveError(f"unknown move {move!r}")


# ------------------------------------------------------------- information

resample_hidden = hidden.resample_hidden
