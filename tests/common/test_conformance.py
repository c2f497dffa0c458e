"""Every game through the conformance kit (cardgym.testing)."""

from __future__ import annotations

import pytest

from cardgym import testing
from cardgym.testing import GameKit
from tests.common.kits import FUZZ_GAMES, KITS, configurations

CONFIGS = configurations()
IDS = [f"{kit.name}-{n}p" for kit, n in CONFIGS]
OPTION_CONFIGS = [(kit, n, opts) for kit, n in CONFIGS for opts in kit.option_sets]
OPTION_IDS = [f"{kit.name}-{n}p-{'-'.join(map(str, o.values())) or 'default'}"
              for kit, n, o in OPTION_CONFIGS]


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_pettingzoo_api(kit: GameKit, num_players: int) -> None:
    testing.check_api(kit, num_players)


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_render(kit: GameKit, num_players: int) -> None:
    testing.check_render(kit, num_players)


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_seeding_over_twenty_episodes(kit: GameKit, num_players: int, options: dict) -> None:
    testing.check_seeding(kit, num_players, episodes=20, options=options)


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_masks_equal_legal_moves_and_observations_in_space(
    kit: GameKit, num_players: int, options: dict
) -> None:
    testing.check_masks(kit, num_players, games=30, options=options)


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_spaces(kit: GameKit, num_players: int) -> None:
    testing.check_spaces(kit, num_players)


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_pickle_mid_game(kit: GameKit, num_players: int) -> None:
    testing.check_pickle(kit, num_players)


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_no_leaks(kit: GameKit, num_players: int, options: dict) -> None:
    compared = testing.check_no_leaks(kit, num_players, games=20, options=options)
    assert compared > 0


@pytest.mark.slow
@pytest.mark.parametrize("kit", KITS, ids=[k.name for k in KITS])
def test_fuzz_random_games(kit: GameKit) -> None:
    """At least FUZZ_GAMES random games per game, spread over player counts and options."""
    configs = [(n, opts) for n in kit.player_counts for opts in kit.option_sets]
    per_config = -(-FUZZ_GAMES // len(configs))
    played = 0
    for i, (num_players, options) in enumerate(configs):
        stats = testing.fuzz(kit, num_players, per_config, options=options, seed=1000 * i)
        played += int(stats["games"])
    assert played >= FUZZ_GAMES
