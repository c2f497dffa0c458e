"""Shared builders for the Power Hungry Pets rule tests.

Cards are written by value (0 Royal Robovac .. 10 King Cat, see ``Card``); decks are
written top first, as in scenarios. Two ways to build a position:

- :func:`new` deals round 1 through ``rules.new_game`` with a scenario (the first
  player has already drawn the top card of the given deck);
- :func:`make_state` writes a mid-round position directly (e.g. an empty draw pile,
  given rows, protected seats), allocating physical card ids so that no card is
  used more often than the deck holds it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardgym import testing
from phpets_env import rules
from phpets_env.engine.cards import CARD_VALUES, NUM_VALUES, TOTAL_TOKENS, Card, face_up_aside
from phpets_env.engine.state import NO_CARD, Config, Move, Play, State
from phpets_env.env import raw_env

# Short names for the card values, so that tables read like the rule text.
ROBOVAC = int(Card.ROYAL_ROBOVAC)
BOWL = int(Card.CRYSTAL_BOWL)
TRAPPER = int(Card.MOUSE_TRAPPER)
BUNNY = int(Card.BATTLE_BUNNY)
SHIELD = int(Card.SHELL_SHIELD)
SNAKE = int(Card.SNAKE_SORCERER)
DIGGER = int(Card.GRAVE_DIGGER)
JUGGLER = int(Card.JITTERY_JUGGLER)
HERMIT = int(Card.HERMIT_SWAP)
NOT_A_PET = int(Card.NOT_A_PET)
KING = int(Card.KING_CAT)


def new(
    num_players: int, scenario: dict[str, Any], seed: int = 0, **options: str
) -> tuple[State, np.random.Generator]:
    """Round 1 dealt from ``scenario``; returns the state and the generator to go on with."""
    rng = np.random.default_rng(seed)
    config = Config(num_players=num_players, **options)
    return rules.new_game(config, rng, scenario=scenario), rng


def make_state(
    hands: Sequence[Sequence[int]],
    *,
    deck: Sequence[int] = (),
    rows: Sequence[Sequence[int]] | None = None,
    aside: int | None = None,
    face_up: Sequence[int] | None = None,
    to_act: int = 0,
    round_start: int | None = None,
    protected: Iterable[int] = (),
    tokens: Sequence[int] | None = None,
    **options: str,
) -> State:
    """A mid-round position in the play phase of seat ``to_act``.

    A seat with an empty hand is out of the round. ``deck`` is top first and is
    exactly the draw pile (it may be empty). The set-aside card (and, with two
    players, the face-up pair) default to unused cards; other unused cards are
    out of this test. Each seat knows only its own hand.
    """
    num_players = len(hands)
    state = State(Config(num_players=num_players, **options))
    pools: dict[int, list[int]] = {}
    for card_id, value in enumerate(CARD_VALUES):
        pools.setdefault(value, []).append(card_id)

    def take(value: int) -> int:
        if not pools[value]:
            raise AssertionError(f"test set-up uses card {value} too often")
        return pools[value].pop(0)

    def take_any() -> int:
        return take(next(v for v, ids in pools.items() if ids))

    state.hands = [[take(v) for v in hand] for hand in hands]
    state.rows = [[take(v) for v in row] for row in (rows or [[] for _ in hands])]
    state.deck = [take(v) for v in deck][::-1]
    state.face_up = (
        [take(v) for v in face_up]
        if face_up is not None
        else [take_any() for _ in range(face_up_aside(num_players))]
    )
    state.aside = take(aside) if aside is not None else take_any()
    state.in_round = [bool(hand) for hand in hands]
    shielded = set(protected)
    state.protected = [seat in shielded for seat in range(num_players)]
    state.tokens = list(tokens) if tokens is not None else [0] * num_players
    state.token_supply = TOTAL_TOKENS - sum(state.tokens)
    state.to_act = to_act
    state.round_start = to_act if round_start is None else round_start
    state.round_number = 1
    state.known = [0] * num_players
    for seat, hand in enumerate(state.hands):
        for card_id in hand:
            state.known[seat] |= 1 << card_id
    return state


def values(card_ids: Iterable[int]) -> list[int]:
    """Card values of physical card ids, in the given order."""
    return [CARD_VALUES[c] for c in card_ids]


def hand(state: State, seat: int) -> list[int]:
    """Values in a seat's hand, sorted."""
    return sorted(values(state.hands[seat]))


def row(state: State, seat: int) -> list[int]:
    """Values in a seat's row, in the order they went there."""
    return values(state.rows[seat])


def deck_top_first(state: State) -> list[int]:
    """Values of the draw pile, top first."""
    return values(reversed(state.deck))


def aside_value(state: State) -> int | None:
    return None if state.aside == NO_CARD else CARD_VALUES[state.aside]


def apply_all(state: State, moves: Iterable[Move], rng: np.random.Generator) -> None:
    """Apply engine moves in order (each must be legal)."""
    for move in moves:
        rules.apply(state, move, rng)


def legal_targets(state: State, card: int) -> set[int | None]:
    """Targets the seat to act may choose for ``card`` (None: played without effect)."""
    return {m.target for m in rules.legal_moves(state) if isinstance(m, Play) and m.card == card}


def showdown_state(
    held: Sequence[int | None], rows: Sequence[Sequence[int]], **kwargs: Any
) -> tuple[State, np.random.Generator]:
    """The last turn of a round: seat 0 plays a Mouse Trapper on an empty pile.

    ``held[s]`` is the card seat ``s`` keeps to the showdown (None: out of the round);
    ``rows[s]`` is its row *at the showdown*, so ``rows[0]`` must end with the Mouse
    Trapper seat 0 plays. Apply ``Play(TRAPPER)`` to reach the showdown.
    """
    assert rows[0][-1] == TRAPPER, "seat 0's row ends with the Mouse Trapper it plays"
    first = held[0]
    assert first is not None
    hands_now = [[first, TRAPPER]] + [[] if h is None else [h] for h in held[1:]]
    rows_now = [list(rows[0][:-1])] + [list(r) for r in rows[1:]]
    return make_state(hands_now, rows=rows_now, deck=(), **kwargs), np.random.default_rng(0)


# ----------------------------------------------------------------- the env


def make_env(num_players: int, scenario: dict[str, Any], seed: int = 0, **options: Any) -> raw_env:
    """A reset env dealing round 1 from ``scenario``."""
    from phpets_env import env as make

    return testing.scenario_env(make, num_players, scenario, seed, **options)


def step_name(game: raw_env, name: str) -> None:
    """Step the agent to act with the action of that name."""
    testing.step_names(game, name)


def fields(game: raw_env, seat: int) -> dict[str, NDArray[np.float32]]:
    """The named observation fields of ``seat``."""
    return testing.observation_fields(game, seat)


def known_hand(game: raw_env, observer: int, other: int) -> list[int]:
    """Values ``observer``'s observation says it knows in ``other``'s hand (sorted)."""
    rel = (other - observer) % game.num_players
    assert rel != 0, "known_hands covers opponents only"
    counts = fields(game, observer)["known_hands"][rel - 1]
    return [v for v in range(NUM_VALUES) for _ in range(int(counts[v]))]


def one_hot_value(vector: NDArray[np.float32]) -> int | None:
    """The value a one-hot card field names, or None when it is all zero."""
    hot = np.flatnonzero(vector)
    assert hot.size <= 1 and np.all(vector[hot] == 1), f"not one-hot: {vector}"
    return int(hot[0]) if hot.size else None
