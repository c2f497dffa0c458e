"""Power Hungry Pets action table and observation layout: the one source of truth.

Actions name seats as offsets clockwise from the actor (``+0`` is the actor), so one
network can play every seat. Observations are seat-relative: index 0 of every
per-seat field is the observer, then the other seats clockwise.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from cardgym.actions import ActionTable
from cardgym.observation import Field, ObservationSpec
from phpets_env.cards import (
    BOWL_GUESSES,
    CARD_NAMES,
    CARD_VALUES,
    MAX_DECK,
    MAX_PLAYERS,
    NUM_VALUES,
    Card,
)
from phpets_env.record import NUM_RECENT_KINDS, NUM_RESULTS, PublicPart
from phpets_env.rules import (
    ANY_PLAYER,
    NO_TARGET,
    TARGET_KIND,
    open_offsets,
    play,
    resolve_grave_digger,
    resolve_mouse_trapper,
)
from phpets_env.state import (
    GRAVE_DIGGER,
    MOUSE_TRAPPER,
    PHASE_NAMES,
    PLAY,
    GraveSwap,
    Move,
    PlaceCard,
    Play,
    State,
)
from phpets_env.view import PlayerView

# ------------------------------------------------------------------ actions
# Action kinds, as stored in ACTION_SPECS: (kind, card, seat offset or -1, guess or depth).
PLAY_CARD: Final = 0
KEEP: Final = 1
SWAP: Final = 2
PLACE: Final = 3


def _build_actions() -> list[tuple[str, tuple[int, int, int, int], str]]:
    rows: list[tuple[str, tuple[int, int, int, int], str]] = []
    for card in Card:
        name = CARD_NAMES[card]
        kind = TARGET_KIND[card]
        if kind == NO_TARGET:
            rows.append((f"play:{name}", (PLAY_CARD, card, -1, -1), f"play {name}"))
            continue
        if kind != ANY_PLAYER:
            rows.append(
                (f"play:{name}:none", (PLAY_CARD, card, -1, -1),
                 f"play {name} without effect (no player can be chosen)")
            )
        first = 0 if kind == ANY_PLAYER else 1
        for offset in range(first, MAX_PLAYERS):
            if card == Card.CRYSTAL_BOWL:
                for guess in BOWL_GUESSES:
                    rows.append(
                        (f"play:{name}:+{offset}:{CARD_NAMES[guess]}",
                         (PLAY_CARD, card, offset, guess),
                         f"play {name} on seat +{offset} clockwise, naming {CARD_NAMES[guess]} ({guess})")
                    )
            else:
                rows.append(
                    (f"play:{name}:+{offset}", (PLAY_CARD, card, offset, -1),
                     f"play {name} on seat +{offset} clockwise" + (" (myself)" if offset == 0 else ""))
                )
    rows.append(("grave_digger:keep", (KEEP, -1, -1, -1), "keep the hand card"))
    rows.append(("grave_digger:swap", (SWAP, -1, -1, -1), "swap the hand card with the set-aside card"))
    for depth in range(MAX_DECK):
        rows.append(
            (f"mouse_trapper:depth={depth}", (PLACE, -1, -1, depth),
             f"put the card back with {depth} cards above it")
        )
    return rows


ACTION_TABLE: Final = ActionTable(_build_actions())
ACTION_SPECS: Final[tuple[tuple[int, int, int, int], ...]] = ACTION_TABLE.moves
NUM_ACTIONS: Final = len(ACTION_TABLE)

_PLAY_INDEX: dict[int, int] = {}  # card -> index of its untargeted play
_TARGET_BASE: dict[int, int] = {}  # card -> index of its first targeted play
for _index, (_kind, _card, _offset, _extra) in enumerate(ACTION_SPECS):
    if _kind == PLAY_CARD:
        if _offset == -1:
            _PLAY_INDEX[_card] = _index
        else:
            _TARGET_BASE.setdefault(_card, _index)
_KEEP_INDEX: Final = ACTION_TABLE.index("grave_digger:keep")
_DEPTH_BASE: Final = ACTION_TABLE.index("mouse_trapper:depth=0")
_GUESSES: Final = len(BOWL_GUESSES)


def _target_masks(card: int) -> tuple[int, ...]:
    """Action bit mask of ``card``'s plays for every bit set of choosable seat offsets."""
    masks = []
    base = _TARGET_BASE[card]
    first = 0 if TARGET_KIND[card] == ANY_PLAYER else 1
    for offsets in range(1 << MAX_PLAYERS):
        mask = 0
        for offset in range(first, MAX_PLAYERS):
            if offsets >> offset & 1:
                if card == Card.CRYSTAL_BOWL:
                    start = base + (offset - 1) * _GUESSES
                    mask |= ((1 << _GUESSES) - 1) << start
                else:
                    mask |= 1 << (base + offset - first)
        if not mask and card in _PLAY_INDEX:  # nobody to choose: play without effect
            mask = 1 << _PLAY_INDEX[card]
        masks.append(mask)
    return tuple(masks)


_PLAY_MASK: Final = tuple(
    _target_masks(card) if TARGET_KIND[card] != NO_TARGET
    else (1 << _PLAY_INDEX[card],) * (1 << MAX_PLAYERS)
    for card in Card
)
# Snake Sorcerer may always choose its own player: offset 0.
_SELF_OFFSET: Final = tuple(1 if TARGET_KIND[card] == ANY_PLAYER else 0 for card in Card)
_GRAVE_MASK: Final = 0b11 << _KEEP_INDEX


def legal_action_mask(state: State) -> int:
    """Legal actions of the seat to act as a bit mask over action indices (bit i = action i)."""
    phase = state.phase
    if phase == PLAY:
        offsets = open_offsets(state)
        hand = state.hands[state.current]
        first, second = CARD_VALUES[hand[0]], CARD_VALUES[hand[1]]
        return (_PLAY_MASK[first][offsets | _SELF_OFFSET[first]]
                | _PLAY_MASK[second][offsets | _SELF_OFFSET[second]])
    if phase == GRAVE_DIGGER:
        return _GRAVE_MASK
    if phase == MOUSE_TRAPPER:
        return ((1 << (len(state.deck) + 1)) - 1) << _DEPTH_BASE
    return 0


def apply_action(state: State, action: int, rng: np.random.Generator) -> None:
    """Apply a legal action index of the seat to act (the env's and the search's fast
    path: no legality check)."""
    kind, card, offset, extra = ACTION_SPECS[action]
    if kind == PLAY_CARD:
        target = None if offset < 0 else (state.current + offset) % state.num_players
        play(state, card, target, extra, rng)
    elif kind == KEEP or kind == SWAP:
        resolve_grave_digger(state, kind == SWAP, rng)
    else:
        resolve_mouse_trapper(state, extra, rng)


def legal_action_indices(state: State) -> list[int]:
    """Legal action indices of the seat to act, ascending."""
    mask = legal_action_mask(state)
    return [i for i in range(NUM_ACTIONS) if mask >> i & 1]


def action_to_move(state: State, action: int) -> Move:
    """The engine move an action index stands for, for the seat to act."""
    kind, card, offset, extra = ACTION_SPECS[action]
    if kind == PLAY_CARD:
        target = None if offset < 0 else (state.current + offset) % state.num_players
        return Play(card, target, extra if card == Card.CRYSTAL_BOWL and offset >= 0 else None)
    if kind in (KEEP, SWAP):
        return GraveSwap(kind == SWAP)
    return PlaceCard(extra)


def move_to_action(state: State, move: Move) -> int:
    """The action index of an engine move of the seat to act."""
    if isinstance(move, Play):
        kind = TARGET_KIND[move.card]
        if move.target is None or kind == NO_TARGET:
            return _PLAY_INDEX[move.card]
        offset = (move.target - state.current) % state.num_players
        first = 0 if kind == ANY_PLAYER else 1
        if move.card == Card.CRYSTAL_BOWL:
            return (_TARGET_BASE[move.card] + (offset - 1) * _GUESSES
                    + BOWL_GUESSES.index(move.guess))  # type: ignore[arg-type]
        return _TARGET_BASE[move.card] + offset - first
    if isinstance(move, GraveSwap):
        return _KEEP_INDEX + int(move.swap)
    return _DEPTH_BASE + move.depth


# ------------------------------------------------------------- observation

_OPPONENTS = MAX_PLAYERS - 1
#: Events in ``recent_moves`` (the draws that start turns left out, see
#: :data:`~phpets_env.record.TURN_DRAW`): at six players a seat usually sees everything
#: since its own previous play (a play per turn, plus the odd follow-up, draw or
#: elimination). Measured under random play at six players (3,000 matches, 143,807
#: turns): of the turns whose seat has played earlier in the same round (56%), the gap
#: back to that play, counted in ``recent_moves`` events and the play included, has
#: median 7, 90th percentile 11 and 95th 13; 10 events hold it in 89% of them (8: 73%,
#: 9: 84%, 11: 92%, 12: 95%). The earlier window, 16 events with every turn's draw,
#: held it in 91% (median gap 12, 90th percentile 16).
RECENT_EVENTS: Final = 10
# One event: actor (relative seat) | what | target (relative seat) | card value | result.
_EVENT_ACTOR: Final = 0
_EVENT_WHAT: Final = _EVENT_ACTOR + MAX_PLAYERS
_EVENT_TARGET: Final = _EVENT_WHAT + NUM_RECENT_KINDS
_EVENT_CARD: Final = _EVENT_TARGET + MAX_PLAYERS
_EVENT_RESULT: Final = _EVENT_CARD + NUM_VALUES
EVENT_WIDTH: Final = _EVENT_RESULT + NUM_RESULTS
OBSERVATION_SPEC: Final = ObservationSpec(
    [
        Field("my_hand", (NUM_VALUES,), 0, 2, "count of each value 0..10 in my hand"),
        Field("phase", (len(PHASE_NAMES),), 0, 1,
              "one-hot: play, grave_digger (keep or swap), mouse_trapper (place), match_over"),
        Field("to_act", (MAX_PLAYERS,), 0, 1, "one-hot: the seat to act (relative)"),
        Field("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats at this table (relative)"),
        Field("in_round", (MAX_PLAYERS,), 0, 1, "1 if the seat is still in the round"),
        Field("protected", (MAX_PLAYERS,), 0, 1, "1 if the seat is protected by Shell Shield"),
        Field("tokens", (MAX_PLAYERS,), 0, 3, "tokens won by each seat"),
        Field("round_start", (MAX_PLAYERS,), 0, 1, "one-hot: the seat that started this round"),
        Field("rows", (MAX_PLAYERS, NUM_VALUES), 0, 5,
              "count of each value in each seat's row of played and revealed cards"),
        Field("known_hands", (_OPPONENTS, NUM_VALUES), 0, 2,
              "count of each value I know to be in each opponent's hand (seen, given, "
              "compared, or watched moving)"),
        Field("face_up_aside", (NUM_VALUES,), 0, 2,
              "count of each value set aside face up (two players)"),
        Field("known_aside", (NUM_VALUES,), 0, 1,
              "one-hot value of the face-down set-aside card if I have seen it (Grave Digger)"),
        Field("aside_present", (1,), 0, 1, "1 while the face-down set-aside card is set aside"),
        Field("known_deck", (MAX_DECK, NUM_VALUES), 0, 1,
              "one-hot value at each depth of the draw pile (0 = top) that I know "
              "(Mouse Trapper), until a shuffle or another Mouse Trapper makes it stale"),
        Field("pending_card", (NUM_VALUES,), 0, 1,
              "one-hot value of the card I am putting back with Mouse Trapper"),
        Field("deck_size", (1,), 0, MAX_DECK, "cards in the draw pile"),
        Field("tokens_to_win", (1,), 2, 3, "tokens that win the match"),
        Field("recent_moves", (RECENT_EVENTS, EVENT_WIDTH), 0, 1,
              f"the public part of the last {RECENT_EVENTS} events of the record, newest "
              f"first, leaving out the draw that starts every turn (implied: each turn's "
              f"player draws first); each is {EVENT_WIDTH} one-hot columns: actor (6, "
              f"relative seat; none for the table), what ({NUM_RECENT_KINDS}: a play of "
              f"value 0..10, grave_digger, mouse_trapper, draw (after Snake Sorcerer or "
              f"Jittery Juggler), eliminated, reveal, round_won, match_won, new_round), "
              f"target (6, relative seat), card value (11: named "
              f"by Crystal Bowl, shown by Snake Sorcerer, put face up, revealed), result "
              f"({NUM_RESULTS}: no_effect, hit, miss, tie, actor_lost, target_lost, "
              f"swapped, kept, from_aside); all zero where there is no event"),
        Field("ruled_out", (_OPPONENTS, NUM_VALUES), 0, 1,
              "1 for each value the table knows an opponent does not hold (a missed "
              "Crystal Bowl, the winner of a Battle Bunny holds more than the revealed "
              "card, a tie rules out values with fewer than two copies left, Not A Pet! "
              "without a swap rules out King Cat), until that opponent gets a new card"),
    ]
)
OBS_SIZE: Final = OBSERVATION_SPEC.size
_O = OBSERVATION_SPEC.offsets
_MY_HAND, _PHASE, _TO_ACT = _O["my_hand"], _O["phase"], _O["to_act"]
_PRESENT, _IN_ROUND, _PROTECTED = _O["seat_present"], _O["in_round"], _O["protected"]
_TOKENS, _START, _ROWS = _O["tokens"], _O["round_start"], _O["rows"]
_KNOWN_HANDS, _FACE_UP, _KNOWN_ASIDE = _O["known_hands"], _O["face_up_aside"], _O["known_aside"]
_ASIDE_PRESENT, _KNOWN_DECK, _PENDING = _O["aside_present"], _O["known_deck"], _O["pending_card"]
_DECK_SIZE, _TO_WIN = _O["deck_size"], _O["tokens_to_win"]
_RECENT, _RULED_OUT = _O["recent_moves"], _O["ruled_out"]
_RECENT_END: Final = _RECENT + RECENT_EVENTS * EVENT_WIDTH


def _event_rows(public: PublicPart) -> list[bytes]:
    """The encoded event for every (players, observer): index ``n * MAX_PLAYERS + seat``."""
    actor, what, target, card, result = (public.actor, public.what, public.target,
                                         public.card, public.result)
    rows = [b""] * ((MAX_PLAYERS + 1) * MAX_PLAYERS)
    for n in range(2, MAX_PLAYERS + 1):
        for seat in range(n):
            row = bytearray(EVENT_WIDTH)
            if actor >= 0:
                row[_EVENT_ACTOR + (actor - seat) % n] = 1
            if what >= 0:
                row[_EVENT_WHAT + what] = 1
            if target >= 0:
                row[_EVENT_TARGET + (target - seat) % n] = 1
            if card >= 0:
                row[_EVENT_CARD + card] = 1
            if result >= 0:
                row[_EVENT_RESULT + result] = 1
            rows[n * MAX_PLAYERS + seat] = bytes(row)
    return rows


#: Bit masks of values 0..10 as one-hot byte strings.
_VALUE_BYTES: Final = tuple(
    bytes(mask >> value & 1 for value in range(NUM_VALUES)) for mask in range(1 << NUM_VALUES)
)


# Per-card observation offsets: the value of each card id.
_ROTATIONS: Final = {
    n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
    for n in range(2, MAX_PLAYERS + 1)
}
_PRESENT_BYTES: Final = {n: bytes([1] * n) for n in _ROTATIONS}
_VALUE: Final = CARD_VALUES


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (see :data:`OBSERVATION_SPEC`).

    Every field is a small count, so the vector is built in a ``bytearray`` and
    converted once; only the view's public facts and the seat's own knowledge are read.
    """
    seat = view.seat
    n = view.num_players
    values = _VALUE
    out = bytearray(OBS_SIZE)
    out[_PHASE + view.phase] = 1
    out[_TO_ACT + (view.current - seat) % n] = 1
    out[_START + (view.round_start - seat) % n] = 1
    out[_PRESENT : _PRESENT + n] = _PRESENT_BYTES[n]
    in_round, protected, tokens = view.in_round_flags, view.protected_flags, view.token_counts
    out[_IN_ROUND : _IN_ROUND + n] = bytes(in_round[seat:] + in_round[:seat])
    out[_PROTECTED : _PROTECTED + n] = bytes(protected[seat:] + protected[:seat])
    out[_TOKENS : _TOKENS + n] = bytes(tokens[seat:] + tokens[:seat])
    for card in view.my_hand_ids:
        out[_MY_HAND + values[card]] += 1
    rows = view.row_ids
    rotation = _ROTATIONS[n][seat]
    for rel in range(n):
        other = rotation[rel]
        base = _ROWS + rel * NUM_VALUES
        for card in rows[other]:
            out[base + values[card]] += 1
        if rel:
            known = view.known_hand_ids(other)
            if known:
                base = _KNOWN_HANDS + (rel - 1) * NUM_VALUES
                for card in known:
                    out[base + values[card]] += 1
    for card in view.face_up_ids:
        out[_FACE_UP + values[card]] += 1
    if view.aside_present:
        out[_ASIDE_PRESENT] = 1
        aside = view.known_aside()
        if aside is not None:
            out[_KNOWN_ASIDE + aside] = 1
    if view.watches_deck:
        for depth, value in view.known_deck():
            out[_KNOWN_DECK + depth * NUM_VALUES + value] = 1
        pending = view.pending_card()
        if pending is not None:
            out[_PENDING + pending] = 1
    out[_DECK_SIZE] = view.deck_size
    out[_TO_WIN] = view.config.tokens_to_win
    ruled_out = view.ruled_out_masks
    if any(ruled_out):
        for rel in range(1, n):
            mask = ruled_out[rotation[rel]]
            if mask:
                base = _RULED_OUT + (rel - 1) * NUM_VALUES
                out[base : base + NUM_VALUES] = _VALUE_BYTES[mask]
    column = n * MAX_PLAYERS + seat
    events = view.recent_public(RECENT_EVENTS)
    try:  # each event encoded once, kept with its public part, for every observer
        block = b"".join([public.memo[column] for public in events])
    except TypeError:
        for public in events:
            if public.memo is None:
                public.memo = _event_rows(public)
        block = b"".join([public.memo[column] for public in events])
    out[_RECENT : _RECENT + len(block)] = block
    return np.frombuffer(out, dtype=np.uint8).astype(np.float32)
