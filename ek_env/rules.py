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
from ek_env import effects
from ek_env.cards import (
    CATS,
    COMBO_KINDS,
    DEFUSE,
    FAVOR,
    KITTEN,
    NOPE,
    NUM_KINDS,
    SINGLE_PLAYS,
    TAKEABLE,
    composition,
    deck_defuses,
)
from ek_env.state import (
    CHOOSE_FIVE,
    GAME_OVER,
    GIVE,
    INSERT,
    NAME_CARD,
    NOPE_WINDOW,
    PHASE_NAMES,
    PLAY,
    TAKE,
    UNKNOWN,
    ChooseFive,
    Config,
    Draw,
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


# ------------------------------------------------------------------- setup


def new_game(config: Config, rng: np.random.Generator,
             scenario: dict[str, Any] | None = None) -> State:
    """Set up a game (RULES.md §3), or the position a scenario describes."""
    if scenario is not None:
        from ek_env.scenario import from_scenario

        return from_scenario(config, rng, scenario)
    n = config.num_players
    counts = composition(n)
    state = State(config)
    others = [card for card in range(NUM_KINDS) if card not in (KITTEN, DEFUSE)
              for _ in range(counts[card])]
    rng.shuffle(others)
    for seat in range(n):
        hand = state.hands[seat]
        for _ in range(config.hand_size):
            hand[others.pop()] += 1
        hand[DEFUSE] += 1
    extra_defuses = deck_defuses(n, config.deck_defuses)
    deck = others + [KITTEN] * (n - 1) + [DEFUSE] * extra_defuses
    rng.shuffle(deck)
    state.deck = deck
    state.box[KITTEN] = counts[KITTEN] - (n - 1)
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
    """Rewards so far: -1 to each exploded seat, +1 to the winner once the game is over."""
    result = [0.0] * state.num_players
    for seat in state.eliminated:
        result[seat] = -1.0
    if state.phase == GAME_OVER:
        result[state.winner] = 1.0
    return result


def target_offsets(state: State, need_cards: bool) -> int:
    """Seats the turn holder may choose, as a bit mask over offsets 1..n-1 clockwise:
    living others, with cards in hand if ``need_cards``."""
    n = state.num_players
    seat = state.current
    alive, hands = state.alive, state.hands
    mask = 0
    for offset in range(1, n):
        other = (seat + offset) % n
        if alive[other] and (not need_cards or any(hands[other])):
            mask |= 1 << offset
    return mask


def pair_kinds(config: Config) -> tuple[int, ...]:
    """Kinds that may form a pair (or three of a kind): cats only without combos."""
    return COMBO_KINDS if config.combos else CATS


def five_choices(state: State) -> list[int]:
    """Kinds that may come next in five different: held, above the last chosen, and
    leaving enough held kinds to complete the five."""
    hand = state.hands[state.current]
    chosen = state.pending_five
    last = chosen[-1] if chosen else -1
    left = [card for card in COMBO_KINDS if card > last and hand[card]]
    needed = 5 - len(chosen)
    return [card for i, card in enumerate(left) if len(left) - i >= needed]


def legal_moves(state: State) -> list[Move]:
    """The legal moves of the seat to act, in action-table order."""
    phase = state.phase
    if phase == PLAY:
        return _play_moves(state)
    if phase == NOPE_WINDOW:
        if state.hands[state.to_act][NOPE]:
            return [Nope(), Pass()]
        return [Pass()]
    if phase == CHOOSE_FIVE:
        return [ChooseFive(card) for card in five_choices(state)]
    if phase == NAME_CARD:
        return [NameCard(card) for card in range(NUM_KINDS)]
    if phase == GIVE:
        hand = state.hands[state.to_act]
        return [Give(card) for card in range(NUM_KINDS) if hand[card]]
    if phase == INSERT:
        return [Insert(depth) for depth in range(len(state.deck) + 1)]
    if phase == TAKE:
        return [Take(card) for card in TAKEABLE if state.discard[card]]
    return []


def _seats(state: State, offsets: int) -> list[int]:
    n = state.num_players
    return [(state.current + k) % n for k in range(1, n) if offsets >> k & 1]


def _play_moves(state: State) -> list[Move]:
    config = state.config
    hand = state.hands[state.current]
    forbid_empty = config.empty_hand_target == "forbidden"
    targets = _seats(state, target_offsets(state, forbid_empty))
    moves: list[Move] = [Draw()]
    for card in SINGLE_PLAYS:
        if hand[card]:
            if card == FAVOR:
                moves += [PlayCard(card, seat) for seat in targets]
            else:
                moves.append(PlayCard(card))
    for card in pair_kinds(config):
        if hand[card] >= 2:
            moves += [PlayPair(card, seat) for seat in targets]
    if config.combos:
        anyone = _seats(state, target_offsets(state, False))
        for card in COMBO_KINDS:
            if hand[card] >= 3:
                moves += [PlayThree(card, seat) for seat in anyone]
        if sum(1 for card in COMBO_KINDS if hand[card]) >= 5:
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
        effects.give(state, move.card)
    elif isinstance(move, Insert):
        effects.insert(state, move.depth)
    elif isinstance(move, Take):
        effects.take(state, move.card)
    else:  # pragma: no cover - Move is a closed union
        raise IllegalMoveError(f"unknown move {move!r}")


# ------------------------------------------------------------- information


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``.

    Every card whose place ``seat`` does not know (draw pile depths it has not seen
    or placed, other hands beyond its known lower bounds) is dealt anew at random,
    with kittens only in the draw pile and every hand keeping its size. Other seats'
    private knowledge is made consistent with the new deal (known depths show the
    new card; lower bounds are capped by the new hands).
    """
    other = state.clone()
    n = other.num_players
    deck = other.deck
    known = other.known_deck[seat]
    size = len(deck)
    open_slots = [size - 1 - depth for depth in range(size)
                  if depth >= len(known) or known[depth] == UNKNOWN]
    pool = [deck[index] for index in open_slots]
    hand_slots: list[int] = []
    for holder in range(n):
        if holder == seat:
            continue
        hand = other.hands[holder]
        start = (seat * n + holder) * NUM_KINDS
        for card in range(NUM_KINDS):
            free = hand[card] - other.known_hands[start + card]
            if free > 0:
                pool += [card] * free
                hand_slots += [holder] * free
                hand[card] -= free
    kittens = [card for card in pool if card == KITTEN]
    # Sorted before the shuffle: the sample depends on what ``seat`` knows and on the
    # generator alone, not on where the hidden cards really are.
    cards = sorted(card for card in pool if card != KITTEN)
    rng.shuffle(cards)
    for holder in hand_slots:
        other.hands[holder][cards.pop()] += 1
    rest = cards + kittens
    rng.shuffle(rest)
    for index, card in zip(open_slots, rest, strict=True):
        deck[index] = card
    for observer in range(n):
        if observer == seat:
            continue
        observed = other.known_deck[observer]
        for depth, card in enumerate(observed):
            if card != UNKNOWN:
                observed[depth] = deck[size - 1 - depth]
        for holder in range(n):
            start = (observer * n + holder) * NUM_KINDS
            hand = other.hands[holder]
            for card in range(NUM_KINDS):
                if other.known_hands[start + card] > hand[card]:
                    other.known_hands[start + card] = hand[card]
    return other
