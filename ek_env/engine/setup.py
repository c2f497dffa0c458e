"""Setting up the table (docs/rules/exploding_kittens.md-§4): the shuffle and deal of a new
game (``rules.new_game`` also sets up the position a scenario describes)."""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine.cards import DEFUSE, KITTEN, composition, deck_defuses, deck_kittens
from ek_env.engine.state import Config, State


def deal(config: Config, rng: Chance) -> State:
    """Shuffle and deal: each hand gets ``hand_size`` cards and a Defuse; the kittens
    and leftover Defuses go into the draw pile; the first player is drawn at random."""
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
    state.turn_holder = state.to_act = first
    return state
