"""Pictures of a table view (cardgym.picture): the layout's geometry without drawing,
then the drawing: for 2 to 9 seats, synthetic views at the limits of the format (large
hands, 50-card piles, long labels, many notes and events) and real Power Hungry Pets
views of a seat, the spectator and the full table."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np
import pytest

from cardgym.picture import Box, Rect, Scene, Text, layout, table_image
from cardgym.picture.scene import fit_text, text_width, wrap_text
from cardgym.table import CardFace, TableSpec
from phpets_env.env import env as phpets_env

# -------------------------------------------------------------- views

#: Card kinds of a made-up game: long names, cards without a value.
FACES = (
    CardFace("ace", "Ace", 1, "#f4d35e"), CardFace("knight", "Knight", 7, "#a9d6e5"),
    CardFace("long", "Extraordinarily Long-Named Wandering Minstrel", 12, "#efa98a"),
    CardFace("blank", "Blank", None, "#d8d0c0"), CardFace("wild", "Wild Card", None, "#cfa0d9"),
    CardFace("zero", "Zero", 0, "#b8c99f"), CardFace("big", "Big", 100, "#e79aa8"),
)
SPEC = TableSpec(view=lambda state, viewer: {}, cards=FACES, phases=("play",),
                 piles=("draw", "discard", "row", "exploded"))


def _card(index: int) -> dict[str, Any]:
    return FACES[index % len(FACES)].json()


def synthetic_view(num_players: int, viewer: int | str | None = 0, *, big: bool = True,
                   to_act: int = 1) -> dict[str, Any]:
    """A table view at the limits of the format: with ``big``, a viewer's hand of 14,
    a hidden hand of 12, a 50-card pile, long labels, many notes, moves and events."""
    seat = viewer if isinstance(viewer, int) else None
    full = viewer == "full"
    seats = []
    for index in range(num_players):
        size = (14 if index == seat or (full and index == 0) else 12 if index == 2 else
                index % 5 + 1) if big else 2
        known = index == seat or full
        cards = [_card(index + k) if known or k == 0 and index == 3 else None
                 for k in range(size)]
        areas = [{"name": "row", "label": "played", "count": index % 4 + 1,
                  "cards": [_card(index * 3 + k) for k in range(index % 4 + 1)]}]
        if big and index % 3 == 1:
            areas.append({"name": "exploded", "label": "exploded kittens in a long row",
                          "count": 6, "cards": [_card(k) for k in range(6)]})
        label = f"player_{index}" + (" (you)" if index == seat else "")
        if big and index == 4:
            label += " the magnificent, with a very long label"
        seats.append({
            "agent": f"player_{index}", "seat": index, "label": label, "you": index == seat,
            "to_act": index == to_act, "status": "in the round" if index % 2 else
            "out of the round, waiting for the next one",
            "score": {"label": "worms", "value": index * 7},
            "hand": {"count": size, "cards": cards},
            "areas": areas,
            "marks": (["protected", "attacked twice", "a very long mark to cut"]
                      if big and index % 2 else []),
        })
    piles = [{"name": "draw", "label": "draw pile", "count": 50 if big else 9,
              "cards": [None] * (50 if big else 9)},
             {"name": "discard", "label": "discard pile, face up", "count": 50 if big else 3,
              "cards": [_card(k) for k in range(50 if big else 3)]}]
    if big:
        piles += [{"name": "row", "label": "an empty pile", "count": 0, "cards": []},
                  {"name": "exploded", "label": "three face up", "count": 3,
                   "cards": [_card(k) for k in range(3)]}]
    moves = [{"action": k, "name": f"play:{FACES[k % len(FACES)].id}:+{k}",
              "label": f"play {FACES[k % len(FACES)].name} at player_{k % num_players}, move {k}"}
             for k in range(30 if big else 2)] if seat == to_act or full else []
    events = [{"index": 80 + k, "text": f"player_{k % num_players} did thing number {k} "
               + ("with a long tail of words to wrap over the panel's lines " * (k % 3))}
              for k in range(20 if big else 3)]
    return {
        "format": 1, "game": "synthetic", "title": "A Synthetic Game With a Long Title",
        "viewer": "spectator" if viewer is None else "full" if full else f"player_{seat}",
        "seat": seat, "num_players": num_players, "phase": "play",
        "status": "Round 3 of a long match, in which many things are still to happen",
        "to_act": f"player_{to_act}", "over": False, "seats": seats, "piles": piles,
        "notes": [f"player_{k} holds no Knight, Ace or Extraordinarily Long-Named "
                  "Wandering Minstrel" for k in range(8 if big else 1)],
        "legal_moves": moves, "events": events, "event_count": 100, "result": None,
    }


@cache
def _phpets_views(num_players: int, steps: int, seed: int) -> dict[str | None, dict[str, Any]]:
    game = phpets_env(num_players=num_players)
    game.reset(seed=seed)
    raw = game.unwrapped
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = raw.legal_actions()
        if not legal or all(raw.terminations.values()):
            break
        raw.step(int(rng.choice(legal)))
    return {viewer: raw.table_view(viewer)
            for viewer in (*raw.possible_agents, None, "full")}


def phpets_view(num_players: int, viewer: str | None, steps: int = 6,
                seed: int = 3) -> dict[str, Any]:
    """A Power Hungry Pets view after ``steps`` random legal moves."""
    return _phpets_views(num_players, steps, seed)[viewer]


def phpets_spec() -> TableSpec:
    spec: TableSpec = phpets_env(num_players=2).unwrapped.game.table
    return spec


def _views() -> Iterator[tuple[str, dict[str, Any]]]:
    for n in range(2, 10):
        yield f"synthetic-{n}", synthetic_view(n, n // 2)
        yield f"synthetic-{n}-spectator", synthetic_view(n, None)
        yield f"synthetic-{n}-small", synthetic_view(n, 1, big=False)
    for n in range(2, 7):
        for viewer in (f"player_{n - 1}", None, "full"):
            yield f"phpets-{n}-{viewer}", phpets_view(n, viewer)


VIEWS = dict(_views())
SIZES = [(1280, 800), (640, 400), (1920, 1080), (800, 800)]


def _scene(name: str, size: tuple[int, int] = (1280, 800)) -> Scene:
    return _layout(name, size)


@cache
def _layout(name: str, size: tuple[int, int]) -> Scene:
    return layout(VIEWS[name], size)


def _viewer_seat(view: dict[str, Any]) -> int:
    return view["seat"] if view["seat"] is not None else 0


def _card_key(card: Any) -> tuple[Any, ...] | None:
    return None if card is None else (card["id"], card["name"], card["value"])


# -------------------------------------------------------------- the layout


#: Every view at the default size; views at the limits at the other sizes.
CASES = [(name, SIZES[0]) for name in sorted(VIEWS)] + [
    (name, size) for size in SIZES[1:] for name in sorted(VIEWS)
    if name.startswith(("synthetic-2", "synthetic-5", "synthetic-7", "synthetic-9",
                        "phpets-6-full", "phpets-3-None"))]


@pytest.mark.parametrize(("name", "size"), CASES, ids=[f"{n}-{s[0]}x{s[1]}" for n, s in CASES])
def test_everything_lies_inside_the_canvas_and_no_two_seats_overlap(
        name: str, size: tuple[int, int]) -> None:
    scene = _scene(name, size)
    whole = Rect(0, 0, *size)
    outside = [p for p in scene.primitives if not whole.contains(p.bounds)]
    assert not outside, outside[:3]
    seats = [scene.regions[f"seat:{i}"] for i in range(len(VIEWS[name]["seats"]))]
    for index, rect in enumerate(seats):
        assert scene.regions["table"].contains(rect)
        assert not rect.intersects(scene.regions["panel"])
        assert not rect.intersects(scene.regions["middle"])
        for other in seats[index + 1:]:
            assert not rect.intersects(other), (rect, other)
    # What a seat shows stays in its box; the panel's texts stay in the panel.
    for primitive in scene.primitives:
        tag = primitive.tag
        if tag.startswith("seat:"):
            assert scene.regions[":".join(tag.split(":")[:2])].contains(primitive.bounds), tag
        elif tag.startswith("panel"):
            assert scene.regions["panel"].contains(primitive.bounds), tag
        elif tag.startswith("pile:"):
            assert scene.regions["middle"].contains(primitive.bounds), tag


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_viewer_sits_at_the_bottom_and_the_others_clockwise(name: str) -> None:
    view = VIEWS[name]
    scene = _scene(name)
    n = len(view["seats"])
    table = scene.regions["table"]
    me = scene.regions[f"seat:{_viewer_seat(view)}"]
    assert me.bottom == table.bottom and abs(me.cx - table.cx) <= 1
    assert all(scene.regions[f"seat:{i}"].cy < me.cy for i in range(n) if i != _viewer_seat(view))
    if n >= 3:  # clockwise on screen: the next seat on the left, the last on the right
        assert scene.regions[f"seat:{(_viewer_seat(view) + 1) % n}"].cx < table.cx
        assert scene.regions[f"seat:{(_viewer_seat(view) - 1) % n}"].cx > table.cx


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_every_hand_card_is_a_card_shape_with_its_face(name: str) -> None:
    view = VIEWS[name]
    scene = _scene(name)
    for seat in view["seats"]:
        shapes = [c for c in scene.cards if c.tag == f"seat:{seat['seat']}:hand"]
        cards = seat["hand"]["cards"]
        faces = [_card_key(c) for c in cards if c is not None]
        assert [_card_key(s.face) for s in shapes if s.face is not None] == faces
        backs = sum(card is None for card in cards)
        shown_backs = sum(s.face is None for s in shapes)
        if backs > 3:  # a long run of backs is a stack with its count
            counts = [t.text for t in scene.of_type(Text, f"seat:{seat['seat']}:hand:count")]
            assert shown_backs >= 1 and str(backs) in counts
        else:
            assert shown_backs == backs
        if seat["hand"]["count"] == 0:
            assert list(scene.of_type(Box, f"seat:{seat['seat']}:hand:empty"))


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_face_up_cards_of_areas_and_piles_show_their_faces(name: str) -> None:
    view = VIEWS[name]
    scene = _scene(name)
    for seat in view["seats"]:
        for area in seat["areas"]:
            tag = f"seat:{seat['seat']}:area:{area['name']}"
            shapes = [c for c in scene.cards if c.tag == tag]
            # The top card (first) is shown rightmost, drawn last.
            assert [_card_key(s.face) for s in reversed(shapes)] == [
                _card_key(c) for c in area["cards"]]
    for pile in view["piles"]:
        shapes = [c for c in scene.cards if c.tag == f"pile:{pile['name']}"]
        if pile["count"] == 0:
            assert not shapes and list(scene.of_type(Box, f"pile:{pile['name']}:empty"))
            continue
        # The top card, face up or a back, is drawn last.
        assert _card_key(shapes[-1].face) == _card_key(pile["cards"][0])
        count = f"{pile['count']} card{'s' if pile['count'] > 1 else ''}"
        assert count in [t.text for t in scene.of_type(Text, f"pile:{pile['name']}")]


def test_a_few_face_up_cards_of_a_pile_are_spread() -> None:
    scene = _scene("synthetic-5")
    spread = [c for c in scene.cards if c.tag == "pile:exploded"]
    assert [_card_key(c.face) for c in reversed(spread)] == [
        _card_key(_card(k)) for k in range(3)]


def test_a_full_area_shows_its_newest_cards_and_how_many_more() -> None:
    view = synthetic_view(3, 0)
    view["seats"][1]["areas"][0] = {"name": "row", "label": "played", "count": 60,
                                    "cards": [_card(k) for k in range(60)]}
    scene = layout(view, (640, 400))
    shapes = [c for c in scene.cards if c.tag == "seat:1:area:row"]
    assert 1 <= len(shapes) < 60
    assert [_card_key(s.face) for s in reversed(shapes)] == [
        _card_key(_card(k)) for k in range(len(shapes))]
    more = [t.text for t in scene.of_type(Text, "seat:1:area:row:more")]
    assert more == [f"+{60 - len(shapes)}"]


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_seat_to_act_is_highlighted(name: str) -> None:
    view = VIEWS[name]
    scene = _scene(name)
    marked = {int(b.tag.split(":")[1]) for b in scene.of_type(Box, "seat:")
              if b.tag.endswith(":to_act")}
    acting = {s["seat"] for s in view["seats"] if s["to_act"]}
    assert marked == acting
    for seat in acting:
        frame = next(b for b in scene.of_type(Box, f"seat:{seat}") if b.tag == f"seat:{seat}")
        assert frame.outline == "#f5c542" and frame.width >= 3


def test_cards_the_moves_name_are_highlighted_in_the_hand_to_act() -> None:
    view = phpets_view(2, "player_0", steps=0, seed=1)
    scene = layout(view)
    seat = next(s for s in view["seats"] if s["to_act"])
    named = {m["name"].split(":")[1] for m in view["legal_moves"]}
    assert named
    for shape in (c for c in scene.cards if c.tag == f"seat:{seat['seat']}:hand"):
        assert shape.highlighted == (shape.face is not None and shape.face["id"] in named)


def _panel_text(scene: Scene) -> str:
    return " ".join(t.text for t in scene.of_type(Text, "panel"))


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_panel_shows_the_title_moves_and_newest_event(name: str) -> None:
    view = VIEWS[name]
    scene = _scene(name)
    text = _panel_text(scene)
    assert view["title"].split()[0] in text
    moves = view["legal_moves"]
    labels = [t.text for t in scene.of_type(Text, "panel:") if ":item" in t.tag]
    if moves:
        texts = [t for t in scene.of_type(Text, "panel:") if "moves" in t.tag]
        joined = " ".join(t.text for t in texts if t.tag.endswith(":item"))
        shown = [m for m in moves if " ".join(m["label"].split()) in joined]
        assert shown == moves[:len(shown)] and shown
        more = [t.text for t in texts if t.tag.endswith(":more")]
        assert more == ([f"+{len(moves) - len(shown)} more"] if len(shown) < len(moves) else [])
    newest = " ".join(view["events"][-1]["text"].split())
    assert newest in " ".join(labels)


def test_the_panel_cuts_the_oldest_events_and_keeps_the_newest_last() -> None:
    view = synthetic_view(4, 1)
    scene = layout(view, (640, 400))
    texts = [t for t in scene.of_type(Text, "panel:last events:item")]
    assert texts and texts[-1].y == max(t.y for t in texts)
    joined = " ".join(t.text for t in texts)
    assert view["events"][-1]["text"].split()[0] in joined
    assert "did thing number 0 " not in joined + " "


def test_a_too_small_canvas_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        layout(synthetic_view(2, 0), (100, 100))


def test_text_measures_wrap_and_cut() -> None:
    assert text_width("", 12) == 0 < text_width("a", 12) < text_width("ab", 12)
    lines = wrap_text("one two three four five six seven", 12, 60)
    assert len(lines) > 1 and all(text_width(line, 12) <= 60 for line in lines)
    assert " ".join(lines) == "one two three four five six seven"
    cut = wrap_text("one two three four five six seven", 12, 60, max_lines=2)
    assert len(cut) == 2 and cut[-1].endswith("\u2026")
    assert fit_text("a long label to cut", 12, 50).endswith("\u2026")
    assert text_width(fit_text("a long label to cut", 12, 50), 12) <= 50
    assert all(text_width(line, 12) <= 40 for line in wrap_text("Averyveryverylongword", 12, 40))


def test_importing_the_pictures_does_not_import_pillow() -> None:
    code = ("import sys, cardgym, cardgym.picture, cardgym.picture.draw; "
            "from cardgym.picture import layout; "
            "assert not [m for m in sys.modules if m == 'PIL' or m.startswith('PIL.')]")
    subprocess.run([sys.executable, "-c", code], check=True)


# -------------------------------------------------------------- the drawing


def test_the_text_measures_match_the_font() -> None:
    from PIL import ImageFont

    sample = "player_3 played Crystal Bowl (1) at you, naming King Cat (10): missed"
    for size in (8, 11, 14, 20, 33):
        font = ImageFont.load_default(size=size)
        assert 0 <= text_width(sample, size) - font.getlength(sample) <= len(sample) * 0.8


def test_a_picture_is_an_rgb_array_of_the_canvas() -> None:
    image = table_image(VIEWS["phpets-4-player_3"], phpets_spec())
    assert image.shape == (800, 1280, 3) and image.dtype == np.uint8
    packed = (image[..., 0].astype(np.uint32) << 16) | (image[..., 1].astype(np.uint32) << 8)
    assert len(np.unique(packed | image[..., 2])) > 50  # more than a blank canvas


def test_the_same_view_gives_the_same_pixels_and_other_views_others() -> None:
    spec = phpets_spec()
    seat = table_image(VIEWS["phpets-3-player_2"], spec)
    assert np.array_equal(seat, table_image(VIEWS["phpets-3-player_2"], spec))
    full = table_image(VIEWS["phpets-3-full"], spec)
    spectator = table_image(VIEWS["phpets-3-None"], spec)
    assert not np.array_equal(seat, full)
    assert not np.array_equal(seat, spectator) and not np.array_equal(full, spectator)


@pytest.mark.parametrize("size", [(640, 400), (1920, 1080), (800, 800)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_other_sizes_draw(size: tuple[int, int]) -> None:
    image = table_image(VIEWS["synthetic-9"], SPEC, size)
    assert image.shape == (size[1], size[0], 3) and image.dtype == np.uint8


def test_a_card_is_drawn_in_its_kinds_colour() -> None:
    view = synthetic_view(2, 0, big=False)
    scene = layout(view)
    image = table_image(view, SPEC)
    shape = [c for c in scene.cards if c.tag == "seat:0:hand"][-1]  # drawn whole
    colour = next(f.color for f in FACES if f.id == shape.face["id"])  # type: ignore[index]
    x, y = shape.rect.x + shape.rect.w // 4, shape.rect.y + shape.rect.h * 3 // 4
    assert "#{:02x}{:02x}{:02x}".format(*image[y, x]) == colour


def test_an_unknown_card_and_odd_characters_still_draw() -> None:
    view = synthetic_view(2, 0, big=False)
    view["seats"][0]["hand"]["cards"][0] = {"id": "nope", "name": "Caf\u00e9 \u2022 \u2603",
                                            "value": -3}
    view["events"][-1]["text"] = "r\u00e9sum\u00e9 \u2014 \u2192 done"
    image = table_image(view, SPEC, (640, 400))
    assert image.shape == (400, 640, 3)
