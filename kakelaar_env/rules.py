"""Karel Kakelaar engine: nine rounds of row, bids, distribution and mother hens (RULES.md §5).

Pure game logic over :class:`~kakelaar_env.state.State`; no gymnasium or pettingzoo
here. Randomness comes only from the ``np.random.Generator`` passed in.

Public functions: :func:`new_game`, :func:`to_act`, :func:`legal_moves`,
:func:`legal_moves_for`, :func:`apply`, :func:`is_over`, :func:`returns`,
:func:`scores`, :func:`player_view`, :func:`resample_hidden`. The ``commit_*``
functions apply a move without checking it (the env checks its cached mask first).

Each stage is sequential commits plus one pure resolution: :func:`commit_bid`
stores a bid and moves the cursor; the last bid of the stage calls
:func:`_resolve_bids`, which reveals them all at once.

Every commit and every public outcome is appended to ``state.log`` as it happens
(see :mod:`kakelaar_env.record` for the events): a commit as a face-down event whose
choice only the committing seat saw, a resolution as public events from the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardgym.errors import IllegalMoveError
from kakelaar_env.cards import (
    BID_VALUE,
    CHICKEN_TYPES,
    HEN,
    NUM_BIDDABLE,
    NUM_COLOURS,
    NUM_HENS,
    NUM_TYPES,
    ROUNDS,
    WORM_VALUE,
    removed_unseen,
    row_size,
)
from kakelaar_env.record import (
    BID_EVENTS,
    BID_FACE_DOWN_EVENTS,
    CHOSEN,
    DIGEST_EMPTY_ROW,
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_TAKEN,
    DIGEST_TOOK_ROWS,
    DIGEST_WIDTH,
    HEN_EVENTS,
    HEN_FACE_DOWN_EVENTS,
    HEN_FORCED,
    HEN_PLAYED,
    NO_HEN,
    PICK_FACE_DOWN_EVENTS,
    ROUND_EVENTS,
    SCORE_EVENTS,
    TAKE_EVENTS,
    TOOK_EVENTS,
    WHOLE_PILE,
    WINNER_EVENTS,
)
from kakelaar_env.scenario import apply_scenario
from kakelaar_env.state import (
    BID,
    GAME_OVER,
    HEN_STAGE,
    NONE,
    PHASE_NAMES,
    TAKE_FIRST,
    TAKE_SECOND,
    Bid,
    Config,
    HenChoice,
    Move,
    State,
    TakeBack,
)
from kakelaar_env.view import PlayerView

# ------------------------------------------------------------------ setup


_PILES: dict[tuple[int, ...], NDArray[np.int64]] = {}
_ROBOT_DECK: Final = np.array([t for t in CHICKEN_TYPES for _ in range(NUM_COLOURS - 2)])
_CHICKENS: Final = bytes(1 if t in CHICKEN_TYPES else 0 for t in range(NUM_TYPES))


def shuffled_pile(config: Config, rng: np.random.Generator) -> list[int]:
    """The 36 worms and 9 mother hens, shuffled (top last)."""
    pile = _PILES.get(config.worm_counts)
    if pile is None:
        pile = np.array([t for t, count in enumerate(config.worm_counts) for _ in range(count)]
                        + [HEN] * NUM_HENS)
        _PILES[config.worm_counts] = pile
    return rng.permutation(pile).tolist()  # type: ignore[no-any-return]


def count_types(cards: list[int]) -> list[int]:
    """Count of each card type in a list of cards."""
    counts = [0] * NUM_TYPES
    for card in cards:
        counts[card] += 1
    return counts


def new_game(
    config: Config, rng: np.random.Generator, scenario: Mapping[str, Any] | None = None
) -> State:
    """A new game: chickens dealt, pile shuffled and trimmed, a random tractor holder,
    round 1's row turned up.

    Args:
        config: rule options.
        rng: the only source of randomness.
        scenario: optional fixed setup (see :mod:`kakelaar_env.scenario`).
    """
    state = State(config)
    n = config.num_players
    if scenario is not None:
        apply_scenario(state, scenario, rng)
    else:
        state.hands = [bytearray(_CHICKENS) for _ in range(n)]
        state.discards = [bytearray(NUM_BIDDABLE) for _ in range(n)]
        pile = shuffled_pile(config, rng)
        cut = len(pile) - removed_unseen(n)
        state.removed = pile[cut:]
        state.deck = pile[:cut]
        state.unseen = count_types(pile)
        first = int(rng.random() * n)  # uniform seat; cheaper than rng.integers
        if config.robot:
            state.robot_deck = rng.permutation(_ROBOT_DECK).tolist()
            state.circle = (first, 1 - first, 2)
            state.tractor = 0
        else:
            state.tractor = first
    _start_round(state)
    return state


_ORDERS: dict[tuple[int, tuple[int, ...], int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _orders(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(participants, seats) clockwise from the tractor holder; seats leave the robot out."""
    key = (state.num_players, state.circle, state.tractor)
    orders = _ORDERS.get(key)
    if orders is None:
        _, circle, start = key
        k = len(circle)
        participants = tuple(circle[(start + i) % k] for i in range(k))
        seats = tuple(p for p in participants if p != state.robot)
        orders = _ORDERS[key] = (participants, seats)
    return orders


def _order_from_tractor(state: State) -> tuple[int, ...]:
    """Seats clockwise from the tractor holder (the robot left out)."""
    return _orders(state)[1]


def _open_stage(state: State, phase: int, asked: list[int]) -> bool:
    """Begin a stage asking ``asked`` in order; False (nothing begun) if nobody is asked."""
    if not asked:
        return False
    state.phase = phase
    state.asked = asked
    state.cursor = 0
    state.current = asked[0]
    state.touch()
    return True


def _start_round(state: State) -> None:
    """Turn up the row and open the bids (seats with no card to bid are not asked)."""
    deck = state.deck
    size = row_size(state.num_players)
    row = state.row = [deck.pop() for _ in range(size)]
    unseen = state.unseen
    for card in row:
        unseen[card] -= 1
    # The row's cards are logged when they are taken (TOOK events name them).
    state.log.append(ROUND_EVENTS[state.round][state.circle[state.tractor]])
    hands = state.hands
    asked = [s for s in _order_from_tractor(state) if can_bid(hands[s])]
    state.touch()
    if not _open_stage(state, BID, asked):
        _resolve_bids(state)


# ------------------------------------------------------------ whose move


def to_act(state: State) -> int:
    """The seat to act (the last actor once the game is over)."""
    return state.current


def is_over(state: State) -> bool:
    """Whether the game is over."""
    return state.phase == GAME_OVER


def scores(state: State) -> list[int]:
    """Worm total in each seat's hand."""
    return [sum(c * v for c, v in zip(hand, WORM_VALUE, strict=True)) for hand in state.hands]


def returns(state: State) -> list[float]:
    """Final rewards per seat once the game is over (RULES.md §5); zeros before.

    ``win_loss``: +1 to each winner, -1 to every other player (with
    ``final_tie="draw"`` and several winners, 0 to each of them). ``score_difference``:
    own worm total minus the mean of the other players' totals.
    """
    n = state.num_players
    if state.phase != GAME_OVER:
        return [0.0] * n
    if state.config.reward == "score_difference":
        totals = scores(state)
        whole = sum(totals)
        return [totals[s] - (whole - totals[s]) / (n - 1) for s in range(n)]
    winners = state.winners
    best = 0.0 if len(winners) > 1 and state.config.final_tie == "draw" else 1.0
    return [best if s in winners else -1.0 for s in range(n)]


def can_bid(hand: bytearray) -> bool:
    """Whether a hand holds a card that can be bid (a worm or a chicken)."""
    return hand.count(0, 0, NUM_BIDDABLE) != NUM_BIDDABLE


def must_play_hen(state: State, seat: int) -> bool:
    """Whether ``seat`` must play a mother hen now: only hens in hand, a round to come."""
    hand = state.hands[seat]
    return state.round < ROUNDS and hand[HEN] > 0 and not can_bid(hand)


def legal_moves_for(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may commit in the current stage, in action-table order;
    empty when ``seat`` has nothing to decide in this stage."""
    phase = state.phase
    if phase == GAME_OVER or seat not in state.asked[state.cursor:]:
        return []
    if phase == BID:
        hand = state.hands[seat]
        return [Bid(t) for t in range(NUM_BIDDABLE) if hand[t]]
    if phase == HEN_STAGE:
        if must_play_hen(state, seat):
            return [HenChoice(True)]
        return [HenChoice(False), HenChoice(True)]
    pile = state.discards[seat]
    left = pile[:]
    for card in state.picks[seat]:
        left[card] -= 1
    return [TakeBack(t) for t in range(NUM_BIDDABLE) if left[t]]


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act, in action-table order."""
    return legal_moves_for(state, state.current)


def apply(state: State, move: Move, rng: np.random.Generator | None = None) -> None:
    """Commit a legal move of the seat to act, in place (``rng`` is unused: the game
    draws no randomness after setup; it is accepted for a uniform engine interface).

    Raises:
        IllegalMoveError: naming the move and the stage; the state is unchanged.
    """
    if move not in legal_moves(state):
        raise IllegalMoveError(
            f"{move!r} is not legal for seat {state.current} in stage "
            f"{PHASE_NAMES[state.phase]!r} (round {state.round})"
        )
    if isinstance(move, Bid):
        commit_bid(state, move.card)
    elif isinstance(move, HenChoice):
        commit_hen(state, move.play)
    else:
        commit_take(state, move.card)


# ------------------------------------------------------ unchecked commits


def _advance(state: State) -> bool:
    """Move the cursor on; True when every asked seat has committed."""
    state.cursor += 1
    if state.cursor < len(state.asked):
        state.current = state.asked[state.cursor]
        return False
    return True


def commit_bid(state: State, card: int) -> None:
    """The seat to act bids a card of type ``card`` face down (unchecked)."""
    seat = state.current
    state.bids[seat] = card
    state.log.append(BID_FACE_DOWN_EVENTS[seat][card])
    if _advance(state):
        _resolve_bids(state)


def commit_hen(state: State, play: bool) -> None:
    """The seat to act plays a mother hen or not, face down until all are in (unchecked)."""
    seat = state.current
    state.hen_choices[seat] = 1 if play else 0
    state.log.append(HEN_FACE_DOWN_EVENTS[seat][1 if play else 0])
    if _advance(state):
        _resolve_hens(state)


def commit_take(state: State, card: int) -> None:
    """The seat to act picks a card of its discard pile to take back (unchecked)."""
    picks = state.picks[state.current]
    picks.append(card)
    state.log.append(PICK_FACE_DOWN_EVENTS[state.current][len(picks) - 1][card])
    if _advance(state):
        if state.phase == TAKE_FIRST:
            _open_stage(state, TAKE_SECOND, state.asked)
        else:
            _resolve_picks(state)


# ------------------------------------------------------------- resolution


def ranking(state: State, bids: list[int]) -> list[int]:
    """Participants from the highest bid down: equal bids rank by closeness to the
    tractor clockwise (the holder first); a participant without a bid (``NONE``)
    ranks below every bid. ``bids`` is indexed by participant (the robot last)."""
    order = _orders(state)[0]  # tractor distance 0, 1, ...
    return sorted(order, key=lambda p: -BID_VALUE[bids[p]] if bids[p] != NONE else 1)


def _resolve_bids(state: State) -> None:
    """Reveal the bids (and the robot's), hand out the row, discard the bids."""
    n = state.num_players
    bids = state.bids + ([state.robot_deck.pop()] if state.robot >= 0 else [])
    row = state.row
    hands, discards = state.hands, state.discards
    log = state.log
    state.record_start = len(log)
    # The round digest (what record.round_digest reads from these events), built here
    # directly: parsing the events back would cost the engine more than logging them.
    digest = [DIGEST_EMPTY_ROW] * (n + 1)  # the robot last
    for position, participant in enumerate(ranking(state, bids)):
        card = row[position]
        bid = bids[participant]
        # Every bid is turned up at once; the log tells them in rank order, each
        # with the row card it won.
        log += (BID_EVENTS[participant][bid + 1], TOOK_EVENTS[participant][position][card])
        if participant == state.robot:
            digest[n] = DIGEST_TOOK_ROWS[position][card][0]
            state.robot_discard.append(bid)
            state.robot_won.append(card)
            continue
        digest[participant] = DIGEST_TOOK_ROWS[position][card][bid == NONE]
        hands[participant][card] += 1
        if bid != NONE:
            hands[participant][bid] -= 1
            discards[participant][bid] += 1
    state.round_digest = b"".join(digest)
    state.last_bids = bids
    state.bids = [NONE] * n
    state.row = []
    state.touch()
    asked = [s for s in _order_from_tractor(state) if hands[s][HEN]]
    if not _open_stage(state, HEN_STAGE, asked):
        _end_round(state)


def _resolve_hens(state: State) -> None:
    """Reveal the mother hens played; take back whole discard piles of two cards or
    fewer at once and ask the others which two cards they take."""
    choosers = []
    log = state.log
    digest: bytearray | None = None
    for seat in state.asked:
        played = state.hen_choices[seat] == 1
        state.hen_choices[seat] = NONE
        if not played:
            log.append(HEN_EVENTS[seat][NO_HEN])
            continue
        forced = state.round < ROUNDS and not can_bid(state.hands[seat])  # must_play_hen
        log.append(HEN_EVENTS[seat][HEN_FORCED if forced else HEN_PLAYED])
        if digest is None:
            digest = bytearray(state.round_digest)
        at = seat * DIGEST_WIDTH
        digest[at + DIGEST_HEN] = 1
        digest[at + DIGEST_FORCED] = forced
        state.hen_played[seat] = True
        state.hands[seat][HEN] -= 1
        state.hens_out += 1
        pile = state.discards[seat]
        if sum(pile) <= 2:
            hand = state.hands[seat]
            taken = TAKE_EVENTS[seat][WHOLE_PILE]
            for t in range(NUM_BIDDABLE):
                if pile[t]:
                    hand[t] += pile[t]
                    log.extend([taken[t]] * pile[t])
                    digest[at + DIGEST_TAKEN + t] += pile[t]
                    pile[t] = 0
        else:
            choosers.append(seat)
    if digest is not None:
        state.round_digest = bytes(digest)
    state.touch()
    if not _open_stage(state, TAKE_FIRST, choosers):
        _end_round(state)


def _resolve_picks(state: State) -> None:
    """Reveal the cards taken back and move them into hand."""
    log = state.log
    digest = bytearray(state.round_digest)
    for seat in state.asked:
        hand, pile = state.hands[seat], state.discards[seat]
        taken = TAKE_EVENTS[seat][CHOSEN]
        at = seat * DIGEST_WIDTH + DIGEST_TAKEN
        for card in state.picks[seat]:
            pile[card] -= 1
            hand[card] += 1
            log.append(taken[card])
            digest[at + card] += 1
        state.picks[seat] = []
    state.round_digest = bytes(digest)
    state.touch()
    _end_round(state)


def _end_round(state: State) -> None:
    """The tractor moves on and the next round starts, or the game is scored."""
    state.hen_played = [False] * state.num_players
    state.asked = []
    state.cursor = 0
    if state.round >= ROUNDS:
        state.phase = GAME_OVER
        state.winners = final_winners(state)
        state.log.extend([SCORE_EVENTS[seat][total] for seat, total in enumerate(scores(state))])
        state.log.extend([WINNER_EVENTS[seat] for seat in state.winners])
        state.touch()
        return
    state.tractor = (state.tractor + 1) % len(state.circle)
    state.round += 1
    _start_round(state)


def final_winners(state: State) -> tuple[int, ...]:
    """Seats with the most worms in hand; tie: fewest hand cards; still tied: all of them."""
    totals = scores(state)
    sizes = [sum(hand) for hand in state.hands]
    best = max((totals[s], -sizes[s]) for s in range(state.num_players))
    return tuple(s for s in range(state.num_players) if (totals[s], -sizes[s]) == best)


# ------------------------------------------------------------ information


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """A state ``seat`` cannot tell apart from ``state`` (see :mod:`kakelaar_env.hidden`)."""
    from kakelaar_env.hidden import resample

    return resample(state, seat, rng)


def player_view(state: State, seat: int) -> PlayerView:
    """What ``seat`` may know of the state (RULES.md §1)."""
    return PlayerView(state, seat)


def phase_name(state: State) -> str:
    """Readable name of the current stage."""
    return PHASE_NAMES[state.phase]


__all__ = [
    "BID", "GAME_OVER", "HEN_STAGE", "TAKE_FIRST", "TAKE_SECOND", "Bid", "Config", "HenChoice",
    "Move", "State", "TakeBack", "apply", "can_bid", "commit_bid", "commit_hen", "commit_take",
    "final_winners", "is_over", "legal_moves", "legal_moves_for", "must_play_hen", "new_game",
    "phase_name", "player_view", "ranking", "resample_hidden", "returns", "scores", "to_act",
]
