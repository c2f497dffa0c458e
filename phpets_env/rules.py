"""Power Hungry Pets engine: a whole match of rounds (RULES.md §2).

Pure game logic over :class:`~phpets_env.state.State`; no gymnasium or pettingzoo
here. Randomness comes only from the ``np.random.Generator`` passed in.

Public functions: :func:`new_game`, :func:`to_act`, :func:`legal_moves`,
:func:`apply`, :func:`is_over`, :func:`returns`, :func:`player_view`,
:func:`resample_hidden`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardgym.errors import IllegalMoveError
from cardgym.record import NONE, TABLE, Event, blank_unseen
from phpets_env import effects
from phpets_env.cards import BOWL_GUESSES, CARD_VALUES, NUM_CARDS, NUM_VALUES, Card, face_up_aside
from phpets_env.effects import TURN_DRAW_EVENTS as _TURN_DRAWS
from phpets_env.record import (
    DRAW,
    ELIMINATED,
    FROM_ASIDE,
    GRAVE_CHOICE,
    KEPT,
    MATCH_WON,
    NEW_ROUND,
    NO_EFFECT,
    PLACE,
    REVEAL,
    ROUND_WON,
    SWAPPED,
    TURN_DRAW,
    make_event,
)
from phpets_env.record import PLAY as PLAYED
from phpets_env.scenario import apply_scenario
from phpets_env.state import (
    GRAVE_DIGGER,
    MATCH_OVER,
    MOUSE_TRAPPER,
    NO_CARD,
    PHASE_NAMES,
    PLAY,
    Config,
    GraveSwap,
    Move,
    PlaceCard,
    Play,
    State,
)
from phpets_env.view import PlayerView

# How each card picks its target.
NO_TARGET = 0
OTHER_PLAYER = 1  # another player in the round, unprotected (or none: no effect)
ANY_PLAYER = 2  # Snake Sorcerer: yourself, or another unprotected player in the round
TARGET_KIND: tuple[int, ...] = tuple(
    OTHER_PLAYER
    if card in (Card.HERMIT_SWAP, Card.BATTLE_BUNNY, Card.CRYSTAL_BOWL)
    else ANY_PLAYER
    if card == Card.SNAKE_SORCERER
    else NO_TARGET
    for card in Card
)


# ------------------------------------------------------------------ setup


def new_game(
    config: Config, rng: np.random.Generator, scenario: Mapping[str, Any] | None = None
) -> State:
    """A new match: tokens at zero, a random first player, round 1 dealt and started.

    Args:
        config: rule options.
        rng: the only source of randomness.
        scenario: optional fixed setup of round 1 (see :mod:`phpets_env.scenario`).
    """
    state = State(config)
    if scenario is not None:
        apply_scenario(state, scenario, rng)
        state.log.append(make_event(TABLE, NEW_ROUND, state.round_start))
        _begin_turn(state, state.round_start, rng)
    else:
        _start_round(state, int(rng.integers(config.num_players)), rng)
    return state


def _start_round(state: State, start: int, rng: np.random.Generator) -> None:
    n = state.num_players
    deck = rng.permutation(NUM_CARDS).tolist()
    state.aside = deck.pop()
    state.face_up = [deck.pop() for _ in range(face_up_aside(n))]
    state.hands = [[deck.pop()] for _ in range(n)]
    state.deck = deck
    state.rows = [[] for _ in range(n)]
    state.in_round = [True] * n
    state.protected = [False] * n
    state.pending = NO_CARD
    state.known = [1 << hand[0] for hand in state.hands]
    state.trapped = [0] * n
    state.ruled_out = [0] * n
    state.deck_watchers = 0
    state.round_start = start
    state.round_number += 1
    state.log.append(make_event(TABLE, NEW_ROUND, start))
    _begin_turn(state, start, rng)


def _begin_turn(state: State, seat: int, rng: np.random.Generator) -> None:
    """Start ``seat``'s turn: protection ends, then draw, or the showdown if the deck is empty."""
    state.current = seat
    state.protected[seat] = False
    state.phase = PLAY
    if not state.deck:
        _end_round(state, _showdown(state), rng)
        return
    # effects.draw_into, inlined (every turn starts here), but logged as a TURN_DRAW.
    card = state.deck.pop()
    state.hands[seat].append(card)
    bit = 1 << card
    state.known[seat] |= bit
    state.trapped[seat] &= ~bit
    state.ruled_out[seat] = 0
    state.log.append(_TURN_DRAWS[seat * NUM_VALUES + CARD_VALUES[card]])


# ------------------------------------------------------------ whose move


def to_act(state: State) -> int:
    """The seat to act (the last actor once the match is over)."""
    return state.current


def is_over(state: State) -> bool:
    """Whether the match is over."""
    return state.phase == MATCH_OVER


def returns(state: State) -> list[float]:
    """+1 to each match winner and -1 to the others once the match is over; else zeros."""
    if state.phase != MATCH_OVER:
        return [0.0] * state.num_players
    winners = state.match_winners
    return [1.0 if seat in winners else -1.0 for seat in range(state.num_players)]


def open_offsets(state: State) -> int:
    """Seats another player may choose, as a bit mask of offsets 1..n-1 clockwise from
    the seat to act: those still in the round and not protected by Shell Shield."""
    actor = state.current
    n = state.num_players
    in_round, protected = state.in_round, state.protected
    offsets = 0
    for offset in range(1, n):
        seat = (actor + offset) % n
        if in_round[seat] and not protected[seat]:
            offsets |= 1 << offset
    return offsets


def choosable_targets(state: State, card: int) -> list[int]:
    """Seats the seat to act may choose with ``card``, clockwise from itself (empty: the
    card has no effect). Snake Sorcerer may always choose its own player (offset 0)."""
    kind = TARGET_KIND[card]
    if kind == NO_TARGET:
        return []
    offsets = open_offsets(state) | (1 if kind == ANY_PLAYER else 0)
    actor, n = state.current, state.num_players
    return [(actor + k) % n for k in range(n) if offsets >> k & 1]


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act, in action-table order."""
    phase = state.phase
    if phase == PLAY:
        moves: list[Move] = []
        for card in sorted({CARD_VALUES[c] for c in state.hands[state.current]}):
            kind = TARGET_KIND[card]
            if kind == NO_TARGET:
                moves.append(Play(card))
                continue
            targets = choosable_targets(state, card)
            if not targets:
                moves.append(Play(card))
            elif card == Card.CRYSTAL_BOWL:
                moves.extend(Play(card, t, g) for t in targets for g in BOWL_GUESSES)
            else:
                moves.extend(Play(card, t) for t in targets)
        return moves
    if phase == GRAVE_DIGGER:
        return [GraveSwap(False), GraveSwap(True)]
    if phase == MOUSE_TRAPPER:
        return [PlaceCard(depth) for depth in range(len(state.deck) + 1)]
    return []


def apply(state: State, move: Move, rng: np.random.Generator) -> None:
    """Apply a legal move of the seat to act, in place.

    Raises:
        IllegalMoveError: naming the move and the phase; the state is unchanged.
    """
    if move not in legal_moves(state):
        raise IllegalMoveError(
            f"{move!r} is not legal for seat {state.current} in phase "
            f"{PHASE_NAMES[state.phase]!r}"
        )
    if isinstance(move, Play):
        play(state, move.card, move.target, move.guess, rng)
    elif isinstance(move, GraveSwap):
        resolve_grave_digger(state, move.swap, rng)
    else:
        resolve_mouse_trapper(state, move.depth, rng)


# ------------------------------------------------------ unchecked moves
# The env validates against its cached legal actions and calls these directly.


def play(
    state: State, card: int, target: int | None, guess: int | None, rng: np.random.Generator
) -> None:
    """Play a card of value ``card`` from the hand of the seat to act (unchecked)."""
    actor = state.current
    hand = state.hands[actor]
    played = hand[0] if CARD_VALUES[hand[0]] == card else hand[1]
    hand.remove(played)
    _forget_ambiguous_play(state, actor, played)
    state.rows[actor].append(played)
    log = state.log
    index = len(log)
    log.append(_PLACEHOLDER)  # the play comes before what follows from it
    if target is not None or TARGET_KIND[card] == NO_TARGET:
        log[index] = _resolve(state, card, actor, target, guess, rng)
    else:
        log[index] = make_event(actor, PLAYED + card, NONE, NONE, NO_EFFECT)
    if state.phase == PLAY:
        _end_turn(state, rng)


def _forget_ambiguous_play(state: State, actor: int, played: int) -> None:
    """An observer who knew a card of the same value in the actor's hand cannot tell
    which copy was played, so the copy left in hand becomes unknown to them."""
    value = CARD_VALUES[played]
    bit = 1 << played
    known = state.known
    for kept in state.hands[actor]:
        if CARD_VALUES[kept] == value:
            kept_bit = 1 << kept
            for observer in range(state.num_players):
                if observer != actor and known[observer] & kept_bit and not known[observer] & bit:
                    known[observer] &= ~kept_bit
                    state.trapped[observer] &= ~kept_bit


#: Stands in the log for a play being resolved (the events it causes come after it).
_PLACEHOLDER: Event = make_event(TABLE, NONE)


def _resolve(
    state: State,
    card: int,
    actor: int,
    target: int | None,
    guess: int | None,
    rng: np.random.Generator,
) -> Event:
    """Resolve the card's effect; return the event of the play."""
    result = card_shown = NONE
    if card == Card.KING_CAT:
        effects.eliminate(state, actor)
    elif card == Card.NOT_A_PET:
        holder = effects.not_a_pet(state, actor)
        if holder == NONE:
            result = NO_EFFECT
        else:
            target, result = holder, SWAPPED
    elif card == Card.HERMIT_SWAP:
        effects.swap_hands(state, actor, target)  # type: ignore[arg-type]
        result = SWAPPED
    elif card == Card.JITTERY_JUGGLER:
        effects.jittery_juggler(state, actor, rng)
    elif card == Card.GRAVE_DIGGER:
        seen = effects.grave_digger(state, actor)
        if seen == NONE:
            return make_event(actor, PLAYED + card, NONE, NONE, NO_EFFECT)
        return make_event(actor, PLAYED + card, NONE, NONE, NONE, seen, 1 << actor)
    elif card == Card.SNAKE_SORCERER:
        card_shown = effects.snake_sorcerer(state, target)  # type: ignore[arg-type]
    elif card == Card.SHELL_SHIELD:
        state.protected[actor] = True
    elif card == Card.BATTLE_BUNNY:
        result = effects.battle_bunny(state, actor, target)  # type: ignore[arg-type]
    elif card == Card.MOUSE_TRAPPER:
        seen = effects.mouse_trapper(state, actor)
        if seen == NONE:
            return make_event(actor, PLAYED + card, NONE, NONE, NO_EFFECT)
        return make_event(actor, PLAYED + card, NONE, NONE, NONE, seen, 1 << actor)
    elif card == Card.CRYSTAL_BOWL:
        result = effects.crystal_bowl(state, target, guess)  # type: ignore[arg-type]
        card_shown = guess  # type: ignore[assignment]
    return make_event(actor, PLAYED + card, NONE if target is None else target, card_shown,
                      result)


def resolve_grave_digger(state: State, swap: bool, rng: np.random.Generator) -> None:
    """Finish a Grave Digger play: keep or swap with the set-aside card (unchecked)."""
    actor = state.current
    if swap:
        effects.grave_swap(state, actor)
    state.log.append(make_event(actor, GRAVE_CHOICE, NONE, NONE, SWAPPED if swap else KEPT,
                                CARD_VALUES[state.aside], 1 << actor))
    state.phase = PLAY
    _end_turn(state, rng)


def resolve_mouse_trapper(state: State, depth: int, rng: np.random.Generator) -> None:
    """Finish a Mouse Trapper play: put the card back at ``depth`` (unchecked)."""
    effects.place_card(state, depth)
    state.log.append(make_event(state.current, PLACE, NONE, NONE, NONE, depth, 1 << state.current))
    state.phase = PLAY
    _end_turn(state, rng)


# ------------------------------------------------------- turns and rounds


def _end_turn(state: State, rng: np.random.Generator) -> None:
    n = state.num_players
    in_round = state.in_round
    alive = [seat for seat in range(n) if in_round[seat]]
    if len(alive) == 1:
        _end_round(state, alive, rng)
        return
    seat = state.current
    for _ in range(n):
        seat = (seat + 1) % n
        if in_round[seat]:
            break
    _begin_turn(state, seat, rng)


def _showdown(state: State) -> list[int]:
    """Round winners when the deck is empty: hands revealed, highest wins, then tie-breaks."""
    contenders = [seat for seat in range(state.num_players) if state.in_round[seat]]
    value = {seat: CARD_VALUES[state.hands[seat][0]] for seat in contenders}
    log = state.log
    for seat in contenders:
        log.append(make_event(TABLE, REVEAL, seat, value[seat]))
    held = set(value.values())
    if Card.KING_CAT in held and Card.ROYAL_ROBOVAC in held:
        duel = len(contenders) == 2
        if state.config.robovac == "dethrone" or duel:
            contenders = [seat for seat in contenders if value[seat] != Card.KING_CAT]
    best = max(value[seat] for seat in contenders)
    tied = [seat for seat in contenders if value[seat] == best]
    if len(tied) > 1:
        rows = {seat: sorted((CARD_VALUES[c] for c in state.rows[seat]), reverse=True)
                for seat in tied}
        best_row = max(rows.values())
        tied = [seat for seat in tied if rows[seat] == best_row]
        if len(tied) > 1 and state.config.final_tie == "nobody":
            return []
    return tied


def _end_round(state: State, winners: list[int], rng: np.random.Generator) -> None:
    """Award tokens; end the match or deal the next round."""
    n = state.num_players
    start = state.round_start
    ordered = [seat for seat in ((start + k) % n for k in range(n)) if seat in winners]
    short = []
    for seat in ordered:
        if state.token_supply > 0:
            state.tokens[seat] += 1
            state.token_supply -= 1
        else:
            short.append(seat)
    state.round_winners = tuple(ordered)
    log = state.log
    for seat in ordered:
        log.append(make_event(TABLE, ROUND_WON, seat))
    if not ordered:
        log.append(make_event(TABLE, ROUND_WON))
    target = state.config.tokens_to_win
    champions = tuple(
        seat for seat in range(n) if state.tokens[seat] + (seat in short) >= target
    )
    if champions:
        state.match_winners = champions
        state.phase = MATCH_OVER
        for seat in champions:
            log.append(make_event(TABLE, MATCH_WON, seat))
        return
    rule = state.config.start_player
    if rule == "winner" and ordered:
        next_start = ordered[0]
    elif rule == "random":
        next_start = int(rng.integers(n))
    else:
        next_start = (start + 1) % n
    _start_round(state, next_start, rng)


# ------------------------------------------------------------ information


def player_view(state: State, seat: int) -> PlayerView:
    """What ``seat`` may know of the state (RULES.md §1)."""
    return PlayerView(state, seat)


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state``, a function of ``seat``'s
    information and ``rng`` alone: every card whose place ``seat`` does not know is
    dealt anew at random among those places.

    What another seat knows by means the table saw (its hand, a swap, a comparison,
    the set-aside card it looked at) moves with the places it is about. What it knows
    through its own Mouse Trapper depth, which ``seat`` did not see, is sampled: a
    depth is drawn for its latest placement and the card put there is followed
    through the public record to where it is now (see :func:`_sample_trapped`).
    Event secrets ``seat`` did not see are blanked in the sample's log. What the table
    has ruled out of a hand (``state.ruled_out``) holds in the sample too.
    """
    clone = state.clone()
    clone.log = blank_unseen(state.log, seat, _blanked)
    mine = state.known[seat]
    slots: list[tuple[list[int], int]] = []  # (container, index) of each hidden card
    for other in range(state.num_players):
        if other != seat:
            hand = clone.hands[other]
            slots.extend((hand, i) for i, c in enumerate(hand) if not mine >> c & 1)
    slots.extend((clone.deck, i) for i, c in enumerate(clone.deck) if not mine >> c & 1)
    holders = [[clone.aside], [clone.pending]]
    for holder in holders:
        if holder[0] != NO_CARD and not mine >> holder[0] & 1:
            slots.append((holder, 0))
    old = [container[i] for container, i in slots]
    # Deal from the sorted pool: the sample depends on what ``seat`` knows and on the
    # generator alone, not on where the hidden cards really are.
    pool = sorted(old)
    forbidden = [state.ruled_out[other] if other != seat else 0
                 for other in range(state.num_players)]
    if any(forbidden):
        limits = [forbidden[owner] for owner in _slot_owners(clone, seat, mine)]
        new = _constrained_deal(pool, limits, rng)
    else:
        new = [pool[i] for i in rng.permutation(len(pool))]
    relabel = dict(zip(old, new, strict=True))
    for (container, i), card in zip(slots, new, strict=True):
        container[i] = card
    clone.aside, clone.pending = holders[0][0], holders[1][0]
    for other in range(state.num_players):
        if other == seat:
            continue
        mask = state.known[other] & ~state.trapped[other]
        remapped = 0
        while mask:
            low = mask & -mask
            card = low.bit_length() - 1
            remapped |= 1 << relabel.get(card, card)
            mask ^= low
        clone.known[other] = remapped
        clone.trapped[other] = 0
        card = _sample_trapped(clone, other, rng)
        if card != NO_CARD:
            clone.known[other] |= 1 << card
            clone.trapped[other] = 1 << card
    return clone


def _slot_owners(state: State, seat: int, mine: int) -> list[int]:
    """The seat holding each hidden slot of :func:`resample_hidden`, in its order
    (``seat`` itself for the pile, the set-aside and the held-out card: no limit)."""
    owners: list[int] = []
    for other in range(state.num_players):
        if other != seat:
            owners.extend(other for c in state.hands[other] if not mine >> c & 1)
    owners.extend(seat for c in state.deck if not mine >> c & 1)
    for card in (state.aside, state.pending):
        if card != NO_CARD and not mine >> card & 1:
            owners.append(seat)
    return owners


#: Random deals tried before dealing slot by slot (each allowed card equally likely).
_DEAL_ATTEMPTS = 64


def _constrained_deal(pool: list[int], limits: list[int], rng: np.random.Generator) -> list[int]:
    """``pool`` dealt to the slots so that no slot gets a value its limit (bit mask of
    values) rules out: uniformly among such deals by rejection, else slot by slot,
    most limited first (a deal fits, the true one; should the slot-by-slot deal
    still miss it, the cards are dealt at random)."""
    values = CARD_VALUES
    limited = [k for k, limit in enumerate(limits) if limit]
    for _ in range(_DEAL_ATTEMPTS):
        new = [pool[i] for i in rng.permutation(len(pool))]
        if not any(limits[k] >> values[new[k]] & 1 for k in limited):
            return new
    left = pool[:]
    new = [NO_CARD] * len(pool)
    for k in sorted(limited, key=lambda k: -bin(limits[k]).count("1")):
        allowed = [c for c in left if not limits[k] >> values[c] & 1]
        if not allowed:  # an earlier slot took what this one needed: deal at random
            return [pool[i] for i in rng.permutation(len(pool))]
        card = allowed[int(rng.integers(len(allowed)))]
        left.remove(card)
        new[k] = card
    rest = [left[i] for i in rng.permutation(len(left))]
    for k in range(len(new)):
        if new[k] == NO_CARD:
            new[k] = rest.pop()
    return new


def _blanked(event: Event) -> Event:
    """``event`` with its secret blanked: the engine's shared object."""
    return make_event(event.actor, event.what, event.target, event.card, event.result)


def _sample_trapped(sample: State, other: int, rng: np.random.Generator) -> int:
    """The card ``other`` knows through its latest Mouse Trapper placement this round,
    in ``sample`` (whose log is public to the resampling seat), or ``NO_CARD``.

    A depth is drawn uniformly among those ``other`` could choose; the card put there
    is followed through the public events since: draws from the pile (the draw that
    starts a turn, a ``TURN_DRAW``, and Snake Sorcerer's ``DRAW``) take it into a
    hand, swaps move it, each play of its holder may have been it (a fair coin), a
    reveal, an elimination, a shuffle or another seat's Mouse Trapper while it was in
    the pile end the knowledge. Earlier placements of the same seat are not followed.
    """
    log = sample.log
    placed = NO_CARD
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.what == NEW_ROUND:
            return NO_CARD
        if event.what == PLACE and event.actor == other:
            placed = index
            break
    if placed == NO_CARD:
        return NO_CARD
    later = log[placed + 1:]
    taken = sum(1 for e in later if _from_pile(e))
    positions = len(sample.deck) + (sample.pending != NO_CARD) + taken
    depth = int(rng.integers(positions))
    holder = NO_CARD  # the seat holding the card once drawn; -2: set aside
    drawn_last = False  # whether the card is the holder's newest (its hand's last)
    juggler, snake = PLAYED + Card.JITTERY_JUGGLER, PLAYED + Card.SNAKE_SORCERER
    swaps = (PLAYED + Card.HERMIT_SWAP, PLAYED + Card.NOT_A_PET)
    for event in later:
        what = event.what
        if what == juggler:
            return NO_CARD
        if holder == NO_CARD:  # still in the pile, ``depth`` cards from the top
            if _from_pile(event):
                if depth == 0:
                    holder, drawn_last = event.target, True
                else:
                    depth -= 1
            elif what == PLAYED + Card.MOUSE_TRAPPER and event.result != NO_EFFECT:
                return NO_CARD
            continue
        if holder == _ASIDE:
            if what == DRAW and event.result == FROM_ASIDE:
                holder, drawn_last = event.target, True
            elif what == GRAVE_CHOICE and event.result == SWAPPED:
                holder, drawn_last = event.actor, False
            continue
        if what == ELIMINATED and event.target == holder:
            return NO_CARD
        if what == snake and event.target == holder:
            return NO_CARD
        if what == TURN_DRAW and event.target == holder:
            drawn_last = False  # the card is now the older of two
            continue
        if PLAYED <= what < PLAYED + NUM_VALUES and event.actor == holder:
            # The holder played one of its two cards: it may have been this one.
            drawn_last = False
            if rng.random() < 0.5:
                return NO_CARD
        if what == GRAVE_CHOICE and event.actor == holder and event.result == SWAPPED:
            holder = _ASIDE
        elif what in swaps and event.result == SWAPPED:
            if holder in (event.actor, event.target):
                holder = event.target if holder == event.actor else event.actor
    if holder == NO_CARD:
        return sample.deck[len(sample.deck) - 1 - depth]
    if holder == _ASIDE:
        return sample.aside
    hand = sample.hands[holder]
    if not hand:
        return NO_CARD
    return hand[-1] if drawn_last else hand[0]


_ASIDE = -2


def _from_pile(event: Event) -> bool:
    """Whether ``event`` is a draw of the pile's top card: the draw that starts a
    turn, or any other draw but that of the set-aside card."""
    what = event.what
    return what == TURN_DRAW or (what == DRAW and event.result != FROM_ASIDE)


def phase_name(state: State) -> str:
    """Readable name of the current phase."""
    return PHASE_NAMES[state.phase]


__all__ = [
    "Config",
    "GraveSwap",
    "Move",
    "PlaceCard",
    "Play",
    "State",
    "apply",
    "choosable_targets",
    "open_offsets",
    "is_over",
    "legal_moves",
    "new_game",
    "player_view",
    "resample_hidden",
    "returns",
    "to_act",
    "MATCH_OVER",
    "MOUSE_TRAPPER",
    "GRAVE_DIGGER",
    "PLAY",
]
