"""The batched row format (cardgym.vector.rows): a toy declared state laid out in two
row arrays, packed and read back, and the declarations and states it refuses."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
import pytest

from cardgym.state import SlotState, each_seat, slot
from cardgym.vector.rows import Count, Items, Own, RowFormat, SeatBits, Value

SEATS = 4


class Stage(IntEnum):
    BID = 0
    PLAY = 1


@dataclass(frozen=True)
class Config:
    num_players: int = 3


class Toy(SlotState):
    config: Config = slot("config")
    num_players: int = slot("int", init=lambda config: config.num_players)
    deck: list[int] = slot("cards", mutable=True, init=[])
    hands: list[list[int]] = slot("cards", per_seat=True, mutable=True, init=each_seat([]))
    counts: list[bytearray] = slot("counts", per_seat=True, mutable=True,
                                   init=each_seat(bytearray(3)))
    out: list[bool] = slot("flag", per_seat=True, init=each_seat(False))
    stage: Stage = slot("phase", init=Stage.BID)
    winners: tuple[int, ...] = slot("seats", init=())
    score: int = slot("int", init=0)
    digest: bytes = slot("bytes", init=lambda config: bytes(config.num_players))
    log: list[int] = slot("log", mutable=True, init=[])
    memo: object = slot("cache", cache="drop")


def toy_format(**changes: Any) -> RowFormat:
    arrays: dict[str, Any] = {
        "small": (np.int8, (
            Items("deck", 6), Count("deck"),
            Count("hands"), Items("hands", 2),
            Items("counts", 3, into=bytearray),
            Value("out", into=bool), Value("stage", into=Stage), SeatBits("winners"),
            Items("digest", SEATS, into=bytes, length=lambda config: config.num_players),
            Own("log", 3))),
        "wide": (np.int32, (Value("score"), Own("seen"))),
    }
    settings: dict[str, Any] = {"seats": SEATS, "arrays": arrays, "unkept": ("num_players",)}
    settings.update(changes)
    return RowFormat(Toy, **settings)


def a_state() -> Toy:
    state = Toy(Config())
    state.deck = [5, 4, 3]
    state.hands = [[1, 2], [], [0]]
    state.counts = [bytearray(b"\x01\x00\x02"), bytearray(3), bytearray(b"\x00\x07\x00")]
    state.out = [False, True, False]
    state.stage = Stage.PLAY
    state.winners = (0, 2)
    state.score = 100_000
    state.digest = b"\x03\x00\x09"
    state.log = [7, 8]
    return state


def rows_of(row_format: RowFormat) -> dict[str, Any]:
    return {name: array[0] for name, array in row_format.allocate(1).items()}


# ------------------------------------------------------------ columns


def test_each_entry_takes_its_columns_in_order_per_seat_fields_one_run_per_seat() -> None:
    row = toy_format()
    # deck 6 + its count 1; hands' counts 4 seats, hands 4 x 2; counts 4 x 3;
    # out 4; stage 1; winners 1; digest 4; the engine's own log 3.
    assert [row.start(name) for name in ("deck", "hands", "counts", "out", "stage",
                                         "winners", "digest", "log")] == \
        [0, 11, 19, 31, 35, 36, 37, 41]
    assert (row.count("deck"), row.count("hands")) == (6, 7)
    assert row.widths == {"small": 44, "wide": 2}
    assert (row.start("score"), row.start("seen")) == (0, 1)
    arrays = row.allocate(5)
    assert arrays["small"].shape == (5, 44) and arrays["small"].dtype == np.int8
    assert arrays["wide"].shape == (5, 2) and arrays["wide"].dtype == np.int32


def test_an_entry_the_format_lacks_is_a_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="no entry for 'pile'"):
        toy_format().start("pile")
    with pytest.raises(KeyError, match="no count of 'counts'"):
        toy_format().count("counts")


# ------------------------------------------------------------ packing


def test_a_state_loaded_into_a_row_exports_the_same_fields_in_their_types() -> None:
    row = toy_format()
    rows = rows_of(row)
    state = a_state()
    row.load(rows, state)
    back = row.export(rows, state.config)
    for name in ("deck", "hands", "counts", "out", "stage", "winners", "score", "digest"):
        assert getattr(back, name) == getattr(state, name), name
    assert type(back.stage) is Stage and back.out == [False, True, False]
    assert all(type(flag) is bool for flag in back.out)
    assert type(back.winners) is tuple and type(back.digest) is bytes
    assert all(type(counts) is bytearray for counts in back.counts)
    # What the format leaves to the engine keeps its new-state value in an export
    # and zero columns in a load.
    assert back.log == [] and back.num_players == 3
    assert rows["small"][row.start("log"):].tolist() == [0, 0, 0]


def test_the_row_holds_the_values_where_the_columns_say() -> None:
    row = toy_format()
    rows = rows_of(row)
    row.load(rows, a_state())
    small = rows["small"].tolist()
    assert small[0:7] == [5, 4, 3, 0, 0, 0, 3]
    assert small[7:11] == [2, 0, 1, 0] and small[11:19] == [1, 2, 0, 0, 0, 0, 0, 0]
    assert small[31:35] == [0, 1, 0, 0]  # out, one column per seat
    assert small[36] == 0b101  # winners 0 and 2
    assert rows["wide"].tolist() == [100_000, 0]


def test_a_load_clears_what_an_earlier_state_left() -> None:
    row = toy_format()
    rows = rows_of(row)
    row.load(rows, a_state())
    empty = Toy(Config())
    row.load(rows, empty)
    assert rows["small"][:row.start("counts")].tolist() == [0] * row.start("counts")
    assert row.export(rows, empty.config).deck == []


def test_a_list_longer_than_its_room_is_refused_and_the_row_is_left_as_it_was() -> None:
    row = toy_format()
    rows = rows_of(row)
    row.load(rows, a_state())
    before = {name: array.copy() for name, array in rows.items()}
    state = a_state()
    state.deck = list(range(7))
    with pytest.raises(ValueError, match=r"deck holds 7 entries; a row has room for 6"):
        row.load(rows, state)
    state = a_state()
    state.hands[2] = [1, 2, 3]
    with pytest.raises(ValueError, match=r"hands\[2\] holds 3 entries; a row has room for 2"):
        row.load(rows, state)
    for name, array in rows.items():
        assert np.array_equal(array, before[name])


def test_a_value_its_column_cannot_hold_is_refused_naming_the_field_and_the_range() -> None:
    row = toy_format()
    rows = rows_of(row)
    state = a_state()
    state.deck = [5, 300]
    with pytest.raises(ValueError, match=r"deck holds 300, which its int8 column cannot: "
                                         r"-128\.\.127"):
        row.load(rows, state)
    assert not rows["small"].any()


# ------------------------------------------------------------ declarations refused


@pytest.mark.parametrize(("arrays", "unkept", "message"), [
    ({"small": (np.int8, (Items("deck", 6),))}, ("num_players",),
     r"holds no entry for hands, counts, out, stage, winners, score, digest, log: add one"),
    ({"small": (np.int8, (Value("pile"),))}, (), r"Value\('pile'\) names no field of Toy"),
    ({"small": (np.int8, (Value("score"),)), "wide": (np.int32, (Value("score"),))}, (),
     r"an entry for 'score' twice"),
    ({"small": (np.int8, (Count("score"), Value("score")))}, (),
     r"counts 'score', which it packs as Value, not Items"),
    ({"small": (np.int8, (Count("deck"),))}, (), r"counts 'deck' but holds no Items of it"),
    ({"small": (np.int8, (Value("hands"),))}, (), r"'hands' is a list per seat: pack it as Items"),
    ({"small": (np.int8, ())}, ("scores",), r"unkept names no field of Toy: \['scores'\]"),
    ({"small": (np.float32, ())}, (), r"row arrays hold integers \(int8 to uint64\); \['small'\]"),
])
def test_a_declaration_that_does_not_fit_the_state_is_refused(
        arrays: dict[str, Any], unkept: tuple[str, ...], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        RowFormat(Toy, seats=SEATS, arrays=arrays, unkept=unkept)


def test_a_state_class_without_declared_fields_has_no_row_format() -> None:
    class Plain(SlotState):
        __slots__ = ("deck",)

    with pytest.raises(TypeError, match="Plain declares no fields with slot"):
        RowFormat(Plain, seats=SEATS, arrays={"small": (np.int8, ())})
