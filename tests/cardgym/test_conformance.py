"""Every game through the conformance kit (cardgym.testing)."""

from __future__ import annotations

import pytest

from cardgym import testing
from cardgym.testing import GameKit
from tests.cardgym.kits import FUZZ_GAMES, KITS, configurations, fuzz_games_per_player_count

CONFIGS = configurations()
#: Leak-test comparisons per configuration, beyond which no new game starts (at least
#: two games): 20 games of two players, fewer at large tables with long games.
LEAK_PROBES = 20_000
#: The leak test compares table views at every third step and the choice checks at
#: every third decision (they cost more than the observations).
VIEW_STRIDE = 3
IDS = [f"{kit.name}-{n}p" for kit, n in CONFIGS]
#: Decisions the choice checks probe per configuration, beyond which no new game
#: starts (at least two games; every legal alternative is tried at each decision).
CHOICE_PROBES = 600
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


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_clones_are_equal_and_share_nothing_mutable(kit: GameKit, num_players: int) -> None:
    assert testing.check_clones(kit, num_players, games=2) > 0


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_resamples_change_only_hidden_fields_and_positions_write_declared_keys(
    kit: GameKit, num_players: int, options: dict
) -> None:
    assert testing.check_declared_state(kit, num_players, games=2, options=options) > 0


@pytest.mark.parametrize(("kit", "num_players"), CONFIGS, ids=IDS)
def test_positions_read_back_to_the_same_state_and_play(kit: GameKit, num_players: int) -> None:
    assert testing.check_positions(kit, num_players, games=2) > 0


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_no_leaks(kit: GameKit, num_players: int, options: dict) -> None:
    compared = testing.check_no_leaks(kit, num_players, games=20, options=options,
                                      probe_budget=LEAK_PROBES, view_stride=VIEW_STRIDE)
    assert compared > 0


@pytest.mark.parametrize(("kit", "num_players", "options"), OPTION_CONFIGS, ids=OPTION_IDS)
def test_choices_private_stay_private_and_public_are_seen(
    kit: GameKit, num_players: int, options: dict
) -> None:
    """Both choice checks and the resample check in one pass (cardgym.testing.check_choices):
    the same games as the leak test, fewer decisions (each tries every alternative)."""
    report = testing.check_choices(kit, num_players, games=20, options=options,
                                   probe_budget=CHOICE_PROBES, view_stride=VIEW_STRIDE)
    if kit.game is None or kit.game.hidden_move is not None:  # the game has secret choices
        assert report.private_pairs > 0, "no secret choice was met: the private check cannot fail"
        assert report.resamples > 0
    assert report.public_pairs > 0, "no public choice was met: the public check cannot fail"


FUZZ_CONFIGS = [(kit, n, games) for kit in KITS
                for n, games in fuzz_games_per_player_count(kit, FUZZ_GAMES).items()]


@pytest.mark.slow
@pytest.mark.parametrize(("kit", "num_players", "games"), FUZZ_CONFIGS,
                         ids=[f"{kit.name}-{n}p" for kit, n, _ in FUZZ_CONFIGS])
def test_fuzz_random_games(kit: GameKit, num_players: int, games: int) -> None:
    """Random games with the invariants checked at every step, spread over the option
    sets; FUZZ_GAMES per game in all, over its player counts (kits.fuzz_games_per_player_count)."""
    per_options = -(-games // len(kit.option_sets))
    played = 0
    for i, options in enumerate(kit.option_sets):
        stats = testing.fuzz(kit, num_players, per_options, options=options,
                             seed=1000 * (10 * num_players + i))
        played += int(stats["games"])
    assert played >= games


@pytest.mark.parametrize("kit", KITS, ids=[k.name for k in KITS])
def test_fuzz_plan_covers_the_required_games(kit: GameKit) -> None:
    plan = fuzz_games_per_player_count(kit, FUZZ_GAMES)
    assert sorted(plan) == sorted(kit.player_counts)
    assert sum(plan.values()) >= FUZZ_GAMES
