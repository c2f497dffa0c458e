"""Karel Kakelaar observation layout and encoder: the one source of truth.

Observations are seat-relative: index 0 of every per-seat field is the observer,
then the other seats clockwise; seats not at the table are zero. The action table
(:mod:`kakelaar_env.engine.actions`) and the masks and dispatch over it
(:mod:`kakelaar_env.engine.legality`) are re-exported here: the env's layout in one place.
"""

from __future__ import annotations

from operator import mul
from typing import Final, cast

import numpy as np
from numpy.typing import NDArray

from cardgym.observation import Field, ObservationSpec
from kakelaar_env.engine.actions import (
    ACTION_SPECS,
    ACTION_TABLE,
    BID_BASE,
    BID_CARD,
    HEN_NONE,
    HEN_NONE_INDEX,
    HEN_PLAY,
    HEN_PLAY_INDEX,
    NUM_ACTIONS,
    PASS,
    PASS_INDEX,
    TAKE_BASE,
    TAKE_CARD,
    action_to_move,
    move_to_action,
)
from kakelaar_env.engine.cards import (
    HEN,
    MAX_COPIES,
    MAX_DRAW_PILE,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_SCORE,
    NUM_BIDDABLE,
    NUM_ROW_TYPES,
    NUM_TYPES,
    NUM_WORM_VALUES,
    NUM_WORMS,
    ROUNDS,
    ROW_SLOT,
    WORM_VALUE,
)
from kakelaar_env.engine.digest import DIGEST_WIDTH
from kakelaar_env.engine.legality import (
    apply_action,
    legal_action_mask,
    legal_mask_for,
    parallel_mask,
)
from kakelaar_env.engine.state import NONE, PHASE_NAMES
from kakelaar_env.info.view import PlayerView

__all__ = [
    "ACTION_SPECS", "ACTION_TABLE", "BID_BASE", "BID_CARD", "HEN_NONE", "HEN_NONE_INDEX",
    "HEN_PLAY", "HEN_PLAY_INDEX", "NUM_ACTIONS", "OBSERVATION_SPEC", "OBS_SIZE", "PASS",
    "PASS_INDEX", "TAKE_BASE", "TAKE_CARD", "action_to_move", "apply_action", "encode",
    "legal_action_mask", "legal_mask_for", "move_to_action", "parallel_mask",
]

# ------------------------------------------------------------- observation

_P = MAX_PLAYERS
# Fields in three groups: the same for every observer, the observer's own, then one
# entry per seat (relative: me first, then clockwise).
OBSERVATION_SPEC: Final = ObservationSpec(
    [
        Field("phase", (len(PHASE_NAMES),), 0, 1,
              "one-hot stage: bid, hen (play a mother hen or not), take_first, take_second "
              "(cards taken back after a mother hen), game_over"),
        Field("round", (1,), 1, ROUNDS, "the round, 1..9"),
        Field("seat_present", (_P,), 0, 1, "1 for seats at this table"),
        Field("row", (_P, NUM_ROW_TYPES), 0, 1,
              "one-hot card at each row position 1..5 (worm_1..worm_8, hen); empty "
              "positions and the stages after the bids are all zero"),
        Field("robot_remaining", (5,), 0, 3,
              "count of chicken_3..chicken_7 left in the robot deck (two players)"),
        Field("unseen", (NUM_ROW_TYPES,), 0, NUM_WORMS,
              "count of worm_1..worm_8 and hens nobody has seen (in the draw pile or "
              "removed unseen)"),
        Field("draw_pile", (1,), 0, MAX_DRAW_PILE, "cards left in the draw pile"),
        Field("to_act", (_P,), 0, 1,
              "one-hot: the seat whose commit is next (the AEC env's agent to act; in the "
              "parallel env the first deciding seat)"),
        Field("deciding", (_P,), 0, 1,
              "1 for each seat with a decision in this stage (public: who holds a biddable "
              "card, a mother hen, or more than two cards in the discard pile after a hen)"),
        Field("tractor", (_P + 1,), 0, 1,
              "one-hot: the tractor holder; index 5 is the robot chicken (two players)"),
        Field("tie_rank", (_P + 1,), 0, _P,
              "rank of each participant among equal bids this round: 1 for the tractor "
              "holder, then 2, 3, ... clockwise (with two players the circle is first "
              "holder, other player, robot); index 5 is the robot; 0 = not at the table"),
        Field("my_hand", (NUM_TYPES,), 0, MAX_COPIES,
              "count of each type in my hand: worm_1..worm_8, chicken_3..chicken_7, hen "
              "(a bid I committed stays in it until the bids are revealed)"),
        Field("my_bid", (NUM_BIDDABLE,), 0, 1, "one-hot: the card I bid, before the reveal"),
        Field("my_hen", (1,), 0, 1, "1 if I chose to play a mother hen, before the reveal"),
        Field("my_picks", (NUM_BIDDABLE,), 0, 2,
              "count of each type I chose to take back, before the reveal"),
        Field("opponent_hands", (_P - 1, NUM_TYPES), 0, MAX_COPIES,
              "count of each type in each opponent's hand (public: every card enters and "
              "leaves a hand face up)"),
        Field("discards", (_P, NUM_BIDDABLE), 0, MAX_COPIES,
              "count of each type (worm_1..worm_8, chicken_3..chicken_7) in each seat's "
              "discard pile"),
        Field("hand_sizes", (_P,), 0, MAX_HAND, "cards in each seat's hand"),
        Field("scores", (_P,), 0, MAX_SCORE, "worm total in each seat's hand"),
        Field("hen_played", (_P,), 0, 1,
              "1 for seats that played a mother hen in this mother-hen step (revealed)"),
        Field("last_bids", (_P + 1, NUM_BIDDABLE), 0, 1,
              "one-hot bid of each seat in the last resolved round (row 5: the robot "
              "chicken); all zero before round 1 resolves and for a seat that bid nothing"),
        Field("recent_moves", (_P + 1, DIGEST_WIDTH), 0, 2,
              "the public record of the newest round whose bids are revealed (the round "
              "of last_bids; the current round from its reveal on, the previous one "
              "during the bids), one row per participant (row 5: the robot chicken); "
              "columns: 0..4 one-hot row position taken (1..5), 5..13 one-hot row card "
              "taken (worm_1..worm_8, hen), 14 bid nothing (no card to bid), 15 played a "
              "mother hen, 16 had to (only hens in hand), 17..29 count of each type "
              "(worm_1..worm_8, chicken_3..chicken_7) taken back from the discard pile; "
              "all zero before round 1's reveal"),
    ]
)
OBS_SIZE: Final = OBSERVATION_SPEC.size
_O = OBSERVATION_SPEC.offsets

_ONE_HOT: Final = {size: tuple(bytes(1 if i == k else 0 for i in range(size))
                               for k in range(size)) for size in (_P, _P + 1, NUM_BIDDABLE)}
_NO_BID: Final = bytes(NUM_BIDDABLE)
_NO_PICKS: Final = bytes(NUM_BIDDABLE)
_ZERO_SEATS: Final = bytes(_P)
_PAD: Final = {n: {width: bytes(width * (_P - n))
                    for width in (1, NUM_TYPES, NUM_BIDDABLE, DIGEST_WIDTH)}
               for n in range(2, MAX_PLAYERS + 1)}
_PRESENT_BYTES: Final = {n: bytes([1] * n + [0] * (_P - n)) for n in range(2, MAX_PLAYERS + 1)}
_PHASES: Final = tuple(bytes(1 if i == k else 0 for i in range(len(PHASE_NAMES)))
                       for k in range(len(PHASE_NAMES)))
#: The conversion of the finished vector, its dtypes bound once (cheaper than
#: ``dtype=np.uint8`` on every call).
_FROM_BUFFER: Final = np.frombuffer
_UINT8: Final = np.dtype(np.uint8)
_FLOAT32: Final = np.dtype(np.float32)
_ROW_BYTES: Final = tuple(bytes(1 if i == ROW_SLOT[t] else 0 for i in range(NUM_ROW_TYPES))
                          for t in range(NUM_TYPES))


class _Public:
    """The public facts of one state version, laid out once for every observer: the
    observer-independent prefix, and each per-seat field by absolute seat, written
    twice in a row so that the rotation to an observer is one slice."""

    __slots__ = ("prefix", "hands", "discards", "sizes", "scores", "hen_played",
                 "last_bids", "robot_bid", "deciding", "holder", "tie_ranks", "robot_rank",
                 "record", "robot_record")

    def __init__(self, view: PlayerView) -> None:
        n = view.num_players
        row = view.row
        unseen = view.unseen
        self.prefix = b"".join([
            _PHASES[view.phase], bytes((view.round,)), _PRESENT_BYTES[n],
            b"".join([_ROW_BYTES[card] for card in row]),
            bytes(NUM_ROW_TYPES * (_P - len(row))),
            bytes(view.robot_remaining()) if n == 2 else bytes(5),
            bytes(unseen[:NUM_WORM_VALUES]), bytes((unseen[HEN], view.draw_pile_size)),
        ])
        hands = view.hands
        last_bids = view.last_bids
        self.holder = view.tractor_holder
        twice = hands + hands
        self.hands = b"".join(twice)
        self.discards = b"".join(view.discards) * 2
        self.sizes = bytes(map(sum, twice))
        self.scores = bytes([sum(map(mul, hand, WORM_VALUE)) for hand in hands]) * 2
        self.hen_played = bytes(view.hen_played) * 2
        bids = [_NO_BID if last_bids[s] == NONE else _ONE_HOT[NUM_BIDDABLE][last_bids[s]]
                for s in range(n)]
        self.last_bids = b"".join(bids) * 2
        robot_bid = last_bids[2] if n == 2 else NONE
        self.robot_bid = _NO_BID if robot_bid == NONE else _ONE_HOT[NUM_BIDDABLE][robot_bid]
        deciding = bytearray(n)
        for seat in view.asked:
            deciding[seat] = 1
        self.deciding = bytes(deciding) * 2
        circle, tractor = view.circle, view.tractor_index
        ranks = bytearray(len(circle))
        for k in range(len(circle)):
            ranks[circle[(tractor + k) % len(circle)]] = k + 1
        self.tie_ranks = bytes(ranks[:n]) * 2
        self.robot_rank = bytes((ranks[2] if n == 2 else 0,))
        digest = view.round_digest
        seats = digest[: n * DIGEST_WIDTH]
        self.record = seats + seats
        self.robot_record = digest[n * DIGEST_WIDTH :]


def encode(view: PlayerView) -> NDArray[np.float32]:
    """The observation vector of ``view``'s seat (see :data:`OBSERVATION_SPEC`).

    Every field is a small count, so the vector is joined from ``bytes`` pieces and
    converted once. The public facts are laid out once per state version (cached
    through the view) and rotated to the observer; only the view's public facts and
    the seat's own choices are read.
    """
    public = cast(_Public, view.public_memo())
    if public is None:
        public = _Public(view)
        view.store_public_memo(public)
    o = view.seat
    n = view.num_players
    pad = _PAD[n]
    holder = public.holder
    hands = public.hands
    h = o * NUM_TYPES
    d = o * NUM_BIDDABLE
    r = o * DIGEST_WIDTH
    bid = view.my_bid
    picks = view.my_picks
    if picks:
        counts = bytearray(NUM_BIDDABLE)
        for card in picks:
            counts[card] += 1
        pick_bytes = bytes(counts)
    else:
        pick_bytes = _NO_PICKS
    out = b"".join([
        public.prefix,
        _ONE_HOT[_P][(view.current - o) % n] if view.asked else _ZERO_SEATS,
        public.deciding[o : o + n], pad[1],
        _ONE_HOT[_P + 1][_P if holder >= n else (holder - o) % n],
        public.tie_ranks[o : o + n], pad[1], public.robot_rank,
        hands[h : h + NUM_TYPES],
        _NO_BID if bid == NONE else _ONE_HOT[NUM_BIDDABLE][bid],
        b"\x01" if view.my_hen_choice == 1 else b"\x00",
        pick_bytes,
        hands[h + NUM_TYPES : h + n * NUM_TYPES], pad[NUM_TYPES],
        public.discards[d : d + n * NUM_BIDDABLE], pad[NUM_BIDDABLE],
        public.sizes[o : o + n], pad[1],
        public.scores[o : o + n], pad[1],
        public.hen_played[o : o + n], pad[1],
        public.last_bids[d : d + n * NUM_BIDDABLE], pad[NUM_BIDDABLE], public.robot_bid,
        public.record[r : r + n * DIGEST_WIDTH], pad[DIGEST_WIDTH], public.robot_record,
    ])
    return _FROM_BUFFER(out, _UINT8).astype(_FLOAT32)
