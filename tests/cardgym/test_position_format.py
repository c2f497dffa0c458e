"""The position format (cardgym.position_format) on a small declared state: what it
writes, how it reads each codec back with errors naming where, its schema, and the
declarations it refuses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest

from cardgym.errors import ScenarioError
from cardgym.position_format import (
    Cards,
    Counts,
    Flag,
    Group,
    Integer,
    Key,
    Name,
    OneCard,
    OptionalFlag,
    PerSeat,
    PositionFormat,
    Record,
    Seat,
    SeatsWhere,
    ValueBits,
)
from cardgym.record import NONE, Event
from cardgym.state import SlotState, each_seat, slot

NAMES = ("ace", "king", "queen")


def parse(value: object) -> int:
    if isinstance(value, str) and value in NAMES:
        return NAMES.index(value)
    raise ValueError(f"{value!r} is not a card; cards: {', '.join(NAMES)}")


CARD = OneCard(NAMES, parse)


@dataclass(frozen=True)
class Config:
    num_players: int = 2
    extra: bool = False


class State(SlotState):
    config: Config = slot("config")
    deck: list[int] = slot("cards", mutable=True, hidden=True, json="deck", init=[])
    hands: list[list[int]] = slot("counts", per_seat=True, mutable=True, hidden=True,
                                  json="hands", init=each_seat([0, 0, 0]))
    out: list[bool] = slot("flag", per_seat=True, json="out", init=each_seat(False))
    bet_kind: int = slot("phase", json="bet.kind", init=0)
    bet_seat: int = slot("seat", json="bet.seat", init=NONE)
    seen: list[int] = slot("bits", per_seat=True, json="seen", init=each_seat(0))
    choice: list[int] = slot("flag", per_seat=True, json="choice", init=each_seat(NONE))
    log: list[Event] = slot("log", mutable=True, json="log", init=[])
    turn: int = slot("int", init=0)


FORMAT = (
    Key("deck", lambda c: Cards(CARD, top_first=True)),
    Key("deck_top", lambda c: Cards(CARD), read_only=True),
    Key("hands", lambda c: PerSeat(c.num_players, Counts(CARD), "list of cards")),
    Key("out", lambda c: SeatsWhere(c.num_players)),
    Key("bet", lambda c: Group({"kind": Name(("none", "call", "raise")),
                                "seat": Seat(c.num_players, optional=True)}, nullable=True)),
    Key("seen", lambda c: PerSeat(c.num_players, ValueBits(CARD, 3), "list of cards")),
    Key("choice", lambda c: PerSeat(c.num_players, OptionalFlag(), "choice")),
    Key("turn", lambda c: Integer(0, 99), source=lambda state: state.turn),
    Key("extra", lambda c: Flag(), when=lambda c: c.extra, source=lambda state: True),
    Key("log", lambda c: Record(("deal", "bet"))),
)


def _state() -> State:
    state = State(Config())
    state.deck = [2, 0]
    state.hands = [[1, 0, 2], [0, 1, 0]]
    state.out = [False, True]
    state.seen = [0b101, 0]
    state.choice = [NONE, 1]
    state.turn = 7
    return state


def test_a_state_is_written_key_by_key_in_order() -> None:
    position = PositionFormat(FORMAT, State, Config()).write(_state())
    assert position == {
        "deck": ["ace", "queen"],  # top first; the state keeps the top last
        "hands": [["ace", "queen", "queen"], ["king"]],
        "out": [1], "bet": None, "seen": [["ace", "queen"], []], "choice": [None, True],
        "turn": 7, "log": []}
    assert list(position) == ["deck", "hands", "out", "bet", "seen", "choice", "turn", "log"]


def test_a_group_is_null_while_its_fields_hold_their_start_and_a_mapping_after() -> None:
    form = PositionFormat(FORMAT, State, Config())
    state = _state()
    state.bet_kind, state.bet_seat = 2, 1
    assert form.write(state)["bet"] == {"kind": "raise", "seat": 1}
    state.bet_kind = 0
    assert form.write(state)["bet"] == {"kind": "none", "seat": 1}


def test_a_key_exists_under_the_configs_its_condition_names() -> None:
    assert "extra" not in PositionFormat(FORMAT, State, Config()).keys
    form = PositionFormat(FORMAT, State, Config(extra=True))
    assert form.write(_state())["extra"] is True
    assert form.keys[-3:] == ("turn", "extra", "log")


def test_what_is_written_reads_back_and_fits_the_schema() -> None:
    form = PositionFormat(FORMAT, State, Config())
    state = _state()
    state.bet_kind, state.bet_seat = 1, 0
    position = form.write(state)
    jsonschema.Draft202012Validator(form.schema()).validate(position)
    read = {key: form.read(position, key) for key in position}
    assert read["deck"] == [0, 2]  # as the position lists it, top first
    assert read["hands"] == [[0, 2, 2], [1]]
    assert read["out"] == [1]
    assert read["bet"] == {"kind": 1, "seat": 0}
    assert read["seen"] == [0b101, 0]
    assert read["choice"] == [NONE, 1]
    assert read["turn"] == 7
    # A group's member left out holds its field's value in a new state.
    assert form.read({"bet": {"kind": "call"}}, "bet") == {"kind": 1, "seat": NONE}


@pytest.mark.parametrize(("key", "value", "message"), [
    ("hands", [["ace"], ["jack"]], r"hands\[1\]\[0\]: 'jack' is not a card; cards: ace"),
    ("hands", [["ace"]], r"hands must hold one list of cards for each of the 2 seats"),
    ("out", [0, 0], r"out names a seat twice"),
    ("out", [2], r"out\[0\] must be a seat 0..1, got 2"),
    ("bet", {"kind": "fold"}, r"bet.kind must be one of none, call, raise, got 'fold'"),
    ("bet", {"size": 3}, r"bet: unknown keys \['size'\]; allowed: kind, seat"),
    ("bet", {"seat": True}, r"bet.seat must be a seat 0..1 or null, got True"),
    ("choice", [None, "yes"], r"choice\[1\] must be true or false, got 'yes'"),
    ("turn", 100, r"turn must be an integer 0..99, got 100"),
    ("deck", "ace", r"deck must be a list of cards, got 'ace'"),
    ("log", [{"actor": 0, "what": "fold"}], r"log\[0\]"),
])
def test_a_bad_value_is_a_scenario_error_naming_where_and_what_is_allowed(
        key: str, value: Any, message: str) -> None:
    form = PositionFormat(FORMAT, State, Config())
    with pytest.raises(ScenarioError, match=message):
        form.read({key: value}, key)


def test_the_keys_of_a_scenario_are_checked_first() -> None:
    form = PositionFormat(FORMAT, State, Config())
    assert form.check_keys({"deck": []}) == {"deck": []}
    with pytest.raises(ScenarioError, match=r"unknown scenario keys \['extra'\]; allowed: "
                                            r"deck, deck_top, hands.*needs extra=True"):
        form.check_keys({"extra": True}, hint=lambda keys: " (extra needs extra=True)")
    with pytest.raises(ScenarioError, match="a scenario must be a mapping"):
        form.check_keys([("deck", [])])
    assert form.read({}, "turn", default=0) == 0


def test_a_field_written_under_a_key_the_format_lacks_is_refused() -> None:
    with pytest.raises(TypeError, match=r"under position keys \['seen'\] that the format"):
        PositionFormat([key for key in FORMAT if key.name != "seen"], State, Config())


def test_a_group_whose_members_differ_from_its_fields_is_refused() -> None:
    keys = [Key("bet", lambda c: Group({"kind": Name(("a",))})) if key.name == "bet" else key
            for key in FORMAT]
    with pytest.raises(TypeError, match=r"position key 'bet': the fields declared under it"):
        PositionFormat(keys, State, Config())


def test_a_key_with_two_fields_needs_a_source() -> None:
    class Twice(SlotState):
        config: Config = slot("config")
        alive: list[bool] = slot("flag", per_seat=True, json="out", init=each_seat(True))
        order: list[int] = slot("seats", mutable=True, json="out", init=[])

    with pytest.raises(TypeError, match=r"position key 'out' needs one state field"):
        PositionFormat([Key("out", lambda c: SeatsWhere(c.num_players))], Twice, Config())


def test_a_card_limited_to_some_cards_refuses_the_others_by_its_rule_and_in_its_schema() -> None:
    faces = CARD.among((1, 2), "only faces go there")
    assert faces.read("queen", "pile[0]") == 2
    with pytest.raises(ScenarioError, match=r"^pile\[1\] is ace; only faces go there$"):
        Cards(faces).read(["king", "ace"], "pile")
    assert faces.schema() == {"enum": ["king", "queen"]}
    bid = faces.optional()
    assert bid.read(None, "bid") == NONE and bid.only == faces.only
    with pytest.raises(ScenarioError, match="bid is ace; only faces go there"):
        bid.read("ace", "bid")
    validator = jsonschema.Draft202012Validator(Cards(faces).schema())
    assert validator.is_valid(["queen"]) and not validator.is_valid(["ace"])


def test_a_card_list_that_takes_null_for_empty_reads_it_so_and_says_so_in_its_schema() -> None:
    picks = Cards(CARD, null_empty=True)
    assert picks.read(None, "picks[1]") == [] and picks.read(["ace"], "picks[0]") == [0]
    with pytest.raises(ScenarioError, match=r"picks\[0\] must be a list of cards, got 'ace'"):
        picks.read("ace", "picks[0]")
    with pytest.raises(ScenarioError, match="must be a list of cards, got None"):
        Cards(CARD).read(None, "deck")
    validator = jsonschema.Draft202012Validator(picks.schema())
    assert validator.is_valid(None) and validator.is_valid(["king"])
    assert not validator.is_valid("king")
