"""The arena (benchmarks/arena.py): pairings, seeds, intervals, ratings, tables, errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.evaluate import EvalRequest, evaluate, evaluate_many, seating
from agents.outcomes import wilson_interval
from agents.policy import RandomPolicy
from agents.specs import AgentSpecError
from benchmarks import arena, arena_report
from benchmarks.arena import Rating, Standing, pairings, rate_games, run_arena
from benchmarks.arena_results import not_separated, ordinal_ranks, ranked
from cardgym.registration import find_game
from cardgym_cli import main

KAKELAAR = find_game("karel_kakelaar")
KITTENS = find_game("exploding_kittens")
PETS = find_game("power_hungry_pets")


class LowestLegal:
    """Always the legal action with the lowest index (picklable, deterministic)."""

    name = "lowest"

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        return int(np.flatnonzero(action_mask)[0])


class NamedRandom(RandomPolicy):
    """The random policy under another label."""

    def __init__(self, name: str) -> None:
        self.name = name


# ------------------------------------------------------------------ pairings


def test_two_player_pairings_meet_once_each_in_label_order() -> None:
    labels = ["random", "heuristic", "baseline"]
    pairs = pairings(labels, 2)
    assert len(pairs) == 3
    assert {frozenset(p) for p in pairs} == {frozenset({0, 1}), frozenset({0, 2}),
                                             frozenset({1, 2})}
    assert all(labels[first] < labels[second] for first, second in pairs)


def test_larger_tables_play_every_ordered_pair() -> None:
    pairs = pairings(["a", "b", "c"], 4)
    assert sorted(pairs) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


# ----------------------------------------------------------------- intervals


def test_wilson_interval_of_a_standing_matches_the_hand_computed_value() -> None:
    # p = 0.8, n = 10, z = 1.96: centre (0.8 + 0.19208) / 1.38416 = 0.71674,
    # half-width 1.96 * sqrt(0.016 + 0.009604) / 1.38416 = 0.22658.
    standing = Standing("agent", seat_games=10, wins=8, rating=Rating(25.0, 1.0))
    assert standing.win_rate == 0.8
    assert standing.interval == pytest.approx((0.49016, 0.94331), abs=5e-5)


def test_rating_ordinal_is_mu_minus_three_sigma() -> None:
    assert Rating(30.0, 2.5).ordinal == pytest.approx(22.5)


# ------------------------------------------------------------------- ratings


def test_a_dominant_agent_is_rated_first_and_the_order_follows_the_results() -> None:
    # Three agents at two seats, each pair meeting 30 times with seats rotated:
    # 0 always beats 1 and 2, 1 always beats 2.
    games = []
    for g in range(30):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            seats = (a, b) if g % 2 == 0 else (b, a)
            games.append((seats, (seats.index(min(a, b)),)))
    ratings = rate_games(3, games)
    assert ratings[0].mu > ratings[1].mu > ratings[2].mu
    assert ratings[0].ordinal > ratings[1].ordinal > ratings[2].ordinal
    assert all(r.sigma < 25 / 3 for r in ratings)  # every game pinned them down further


def test_a_dominant_agent_holding_one_seat_of_four_is_rated_first() -> None:
    games = []
    for g in range(40):
        seats = (0, 1, 1, 1) if g % 2 == 0 else (1, 0, 0, 0)
        games.append((seats, tuple(s for s in range(4) if seats[s] == 0)))
    strong, weak = rate_games(2, games)
    assert strong.ordinal > weak.ordinal
    assert strong.mu - weak.mu > 3 * max(strong.sigma, weak.sigma)


def test_identical_agents_mirror_exactly_when_their_results_mirror() -> None:
    rng = np.random.default_rng(7)
    games = []
    for g in range(200):
        seats = seating(g, 4)
        agents = tuple(0 if a == 0 else 1 for a in seats)
        games.append((agents, (int(rng.integers(4)),)))
    swapped = [(tuple(1 - a for a in agents), won) for agents, won in games]
    first, second = rate_games(2, games)
    second_swapped, first_swapped = rate_games(2, swapped)
    assert (first.mu, first.sigma) == pytest.approx((first_swapped.mu, first_swapped.sigma))
    assert (second.mu, second.sigma) == pytest.approx((second_swapped.mu, second_swapped.sigma))


@pytest.mark.parametrize("num_players", [2, 4])
def test_agents_winning_equally_often_per_seat_stay_level(num_players: int) -> None:
    # Seats rotate; the winning seat cycles through every seat, so each agent wins its
    # even share holding one seat and holding the rest.
    games = []
    for g in range(200 * num_players):
        single = (g // num_players) % 2
        seats = tuple(single if s == 0 else 1 - single for s in range(num_players))
        games.append((seats, (g % num_players,)))
    first, second = rate_games(2, games)
    assert abs(first.mu - second.mu) < 0.1 * min(first.sigma, second.sigma)
    assert first.sigma == pytest.approx(second.sigma, rel=0.01)


def test_games_without_winners_leave_the_prior() -> None:
    ratings = rate_games(3, [((0, 1), ()), ((1, 2), ())])
    assert all((r.mu, r.sigma) == pytest.approx((25.0, 25 / 3)) for r in ratings)


# -------------------------------------------------------------- the arena


def small_arena(seed: int, workers: int = 1, **kwargs: Any) -> list[arena.SettingResult]:
    return run_arena([(KAKELAAR, 2), (KITTENS, 4)], ["random", "heuristic", LowestLegal()],
                     games=8, seed=seed, workers=workers, **kwargs)


def outcomes(results: list[arena.SettingResult]) -> list[Any]:
    return [([(first, second, result.records) for first, second, result in setting.runs],
             [(s.wins, s.seat_games, s.rating) for s in setting.standings])
            for setting in results]


def test_arena_is_reproducible_from_its_seed_whatever_the_workers() -> None:
    first = small_arena(seed=3)
    assert outcomes(small_arena(seed=3, workers=2)) == outcomes(first)
    assert outcomes(small_arena(seed=4)) != outcomes(first)


def test_arena_counts_agree_with_the_pairings() -> None:
    kakelaar, kittens = small_arena(seed=1)
    assert len(kakelaar.runs) == 3 and len(kittens.runs) == 6
    # Two players: one seat each, so every agent plays 8 games against each other.
    assert [s.seat_games for s in kakelaar.standings] == [16, 16, 16]
    # Four players: 8 games holding one seat and 8 holding three, per opponent.
    assert [s.seat_games for s in kittens.standings] == [2 * (8 + 24)] * 3
    for setting in (kakelaar, kittens):
        for standing in setting.standings:
            assert standing.interval == wilson_interval(standing.wins, standing.seat_games)
    # Exploding Kittens has exactly one winner per game.
    for i in range(3):
        for j in range(3):
            if i != j:
                mine, theirs = kittens.head_to_head(i, j), kittens.head_to_head(j, i)
                assert mine is not None and theirs is not None
                assert mine.seat_games == 8 and theirs.seat_games == 8


def test_a_pairing_does_not_change_when_another_agent_joins() -> None:
    pair = run_arena([(KAKELAAR, 2)], ["random", "heuristic"], games=6, seed=2, workers=1)[0]
    trio = run_arena([(KAKELAAR, 2)], ["random", "heuristic", LowestLegal()], games=6, seed=2,
                     workers=1)[0]
    assert pair.head_to_head(1, 0) == trio.head_to_head(1, 0)
    assert pair.runs[0][2].records == [r for f, s, r in trio.runs if {f, s} == {0, 1}][0].records


def test_the_heuristic_beats_random_in_the_arena() -> None:
    setting = run_arena([(KAKELAAR, 2)], ["random", "heuristic"], games=40, seed=0,
                        workers=1)[0]
    assert [s.label for s in setting.ranked()] == ["heuristic", "random"]
    assert setting.standings[1].interval[0] > 0.5


# ------------------------------------------------------------------ ranking


def issue_setting() -> arena.SettingResult:
    """The standings of ``cardgym arena --env karel_kakelaar --players 2 --games 20``
    (issue 35): the ordinal puts baseline first at a win rate of 0.700, above the
    heuristic's 0.800, and the two win-rate intervals overlap."""
    standings = [Standing("random", 40, 0, Rating(4.12, 5.41)),
                 Standing("heuristic", 40, 32, Rating(34.68, 4.48)),
                 Standing("baseline", 40, 28, Rating(35.07, 4.38))]
    assert standings[2].rating.ordinal > standings[1].rating.ordinal
    return arena.SettingResult(KAKELAAR, 2, [s.label for s in standings], [], standings,
                               games=20, match_length=1, seed=0)


def test_the_rank_follows_the_win_rate_and_the_ordinal_keeps_its_own_rank() -> None:
    setting = issue_setting()
    assert [s.label for s in setting.ranked()] == ["heuristic", "baseline", "random"]
    assert ordinal_ranks(setting.standings) == {"baseline": 1, "heuristic": 2, "random": 3}


def test_equal_win_rates_are_ranked_by_ordinal() -> None:
    level = [Standing("a", 10, 5, Rating(20.0, 1.0)), Standing("b", 10, 5, Rating(21.0, 1.0))]
    assert [s.label for s in ranked(level)] == ["b", "a"]


def test_agents_whose_intervals_overlap_are_not_separated() -> None:
    # heuristic 0.652-0.895 and baseline 0.546-0.819 overlap; random's 0.000-0.088
    # overlaps neither.
    assert not_separated(issue_setting().standings) == {
        "heuristic": ["baseline"], "baseline": ["heuristic"], "random": []}


def test_the_tables_rank_by_win_rate_and_name_the_agents_not_separated(tmp_path: Path) -> None:
    setting = issue_setting()
    markdown = arena_report.format_setting(setting)
    assert ("| 1 | heuristic | 40 | 32 | 0.800 | 0.652-0.895 | baseline | 34.68 | 4.48 | "
            "21.24 | 2 |") in markdown
    assert ("| 2 | baseline | 40 | 28 | 0.700 | 0.546-0.819 | heuristic | 35.07 | 4.38 | "
            "21.93 | 1 |") in markdown
    assert "| 3 | random | 40 | 0 | 0.000 | 0.000-0.088 | - |" in markdown
    assert "Ranked by win rate" in markdown and "ranked by ordinal" not in markdown
    rows = arena_report.rating_rows([setting])
    assert [(r["rank"], r["agent"], r["not_separated_from"], r["ordinal_rank"]) for r in rows] \
        == [(1, "heuristic", "baseline", 2), (2, "baseline", "heuristic", 1),
            (3, "random", "", 3)]
    arena_report.write_results([setting], tmp_path)
    readme = arena_report.readme_tables(tmp_path)["arena"].splitlines()
    assert "not separated from" in readme[0] and "ordinal (rank)" in readme[0]
    assert readme[2:] == [
        "| karel_kakelaar | 2 | 20 x game | 1 | heuristic | 0.800 (0.652-0.895) | baseline | "
        "34.68 +- 4.48 | 21.24 (2) |",
        "| karel_kakelaar | 2 | 20 x game | 2 | baseline | 0.700 (0.546-0.819) | heuristic | "
        "35.07 +- 4.38 | 21.93 (1) |",
        "| karel_kakelaar | 2 | 20 x game | 3 | random | 0.000 (0.000-0.088) | - | "
        "4.12 +- 5.41 | -12.11 (3) |"]


def test_a_played_arena_ranks_by_win_rate(tmp_path: Path) -> None:
    for setting in small_arena(seed=5):
        rates = [s.win_rate for s in setting.ranked()]
        assert rates == sorted(rates, reverse=True)
        apart = not_separated(setting.standings)
        assert all(mine in apart[other] for mine, others in apart.items() for other in others)


# ------------------------------------------------------------- best of N


def test_best_of_n_matches_are_won_by_the_most_game_wins() -> None:
    result = evaluate(KITTENS, 2, ["random", "heuristic"], games=6, seed=5, workers=1,
                      match_length=3)
    assert result.match_length == 3
    for record in result.records:
        assert record.rounds == 3 and sum(record.round_wins) == 3
        assert record.winners == (int(np.argmax(record.round_wins)),)
    # Game 0 of match g is game g of the plain run (same deal, same generators), so
    # every match has that game's moves and more.
    single = evaluate(KITTENS, 2, ["random", "heuristic"], games=6, seed=5, workers=1)
    for match, game in zip(result.records, single.records, strict=True):
        assert all(m > g for m, g in zip(match.moves, game.moves, strict=True))


def test_a_match_of_one_game_is_the_plain_game() -> None:
    plain = evaluate(KITTENS, 3, ["random", "heuristic"], games=4, seed=8, workers=1)
    one = evaluate(KITTENS, 3, ["random", "heuristic"], games=4, seed=8, workers=1,
                   match_length=1)
    assert plain.records == one.records


def test_power_hungry_pets_keeps_its_own_matches_in_the_arena() -> None:
    setting = run_arena([(PETS, 2)], ["random", "heuristic"], games=2, seed=0, workers=1,
                        match_length=3)[0]
    assert setting.match_length == 1 and setting.unit == "match of rounds"
    with pytest.raises(ValueError, match="match_length must be 1"):
        evaluate(PETS, 2, ["random", "heuristic"], games=2, match_length=3)


def test_evaluate_many_gives_what_evaluate_gives_alone() -> None:
    requests = [EvalRequest(KAKELAAR, 2, ["random", "heuristic"], 4, seed=1),
                EvalRequest(KITTENS, 3, ["heuristic", "random"], 3, seed=2, match_length=2)]
    together = evaluate_many(requests, workers=2)
    alone = [evaluate(r.game, r.num_players, r.agent_specs, r.games, r.seed, workers=1,
                      match_length=r.match_length) for r in requests]
    assert [r.records for r in together] == [r.records for r in alone]


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(("agents", "games", "length", "message"), [
    (["random", "nobody"], 2, 1, "unknown agent 'nobody'; agents: random, heuristic, model:PATH, baseline"),
    (["random"], 2, 1, "at least two agents"),
    (["random", "random"], 2, 1, "distinct labels; repeated: random"),
    (["random", "heuristic"], 0, 1, "games per pairing must be positive, got 0"),
    (["random", "heuristic"], 2, 0, "match length must be a positive number"),
    (["random", "model:missing/model.zip"], 2, 1, "model file 'missing/model.zip' does not"),
])
def test_bad_arena_arguments_say_what_is_wrong(agents: list[str], games: int, length: int,
                                               message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        run_arena([(KAKELAAR, 2)], agents, games=games, match_length=length, workers=1)


def test_a_baseline_without_a_model_names_the_shipped_ones() -> None:
    with pytest.raises(AgentSpecError, match="no baseline model for karel_kakelaar with 3 "
                                             "players .*baselines shipped: "):
        run_arena([(KAKELAAR, 3)], ["random", "baseline"], games=1, workers=1)


def test_command_line_rejects_unknown_agents_and_bad_match_lengths(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--env", "karel_kakelaar", "--agents", "random", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["arena", "--match-length", "0"]) == 2
    assert "--match-length: must be a positive integer, got '0'" in capsys.readouterr().err


# ------------------------------------------------------------------ output


def test_command_line_writes_markdown_and_csv(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal"
    status = main(["arena", "--env", "karel_kakelaar", "exploding_kittens", "--players", "2",
                   "--agents", "random", "heuristic", "--games", "4", "--workers", "1",
                   "--output", str(tmp_path / "out"), "--journal", str(journal)])
    assert status == 0
    # The games were kept while they were played, and let go once written.
    assert journal.is_dir() and list(journal.iterdir()) == []
    tmp_path = tmp_path / "out"
    printed = capsys.readouterr().out
    assert "### karel_kakelaar, 2 players" in printed and "### exploding_kittens, 2 players" \
        in printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena.csv", "arena.md",
                                                          "arena_ratings.csv"]
    with (tmp_path / "arena.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * 2  # two settings, each agent against the other
    assert {(r["game"], r["agent"], r["opponent"]) for r in rows} >= {
        ("exploding_kittens", "heuristic", "random"), ("karel_kakelaar", "random", "heuristic")}
    for row in rows:
        wins, seat_games = int(row["wins"]), int(row["seat_games"])
        low, high = wilson_interval(wins, seat_games)
        assert float(row["ci_low"]) == pytest.approx(low, abs=1e-6)
        assert float(row["ci_high"]) == pytest.approx(high, abs=1e-6)
    with (tmp_path / "arena_ratings.csv").open() as handle:
        ratings = list(csv.DictReader(handle))
    assert [r["rank"] for r in ratings] == ["1", "2", "1", "2"]
    assert all(float(r["ordinal"]) == pytest.approx(float(r["mu"]) - 3 * float(r["sigma"]),
                                                    abs=1e-3) for r in ratings)


def test_cards_get_the_baseline_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDGYM_MODELS", str(tmp_path))
    card = tmp_path / "karel_kakelaar-2p" / "model.json"
    card.parent.mkdir()
    card.write_text(json.dumps({"game": KAKELAAR.env_id, "timesteps": 1}))
    results = run_arena([(KAKELAAR, 2)], [NamedRandom("baseline"), "heuristic"], games=4,
                        workers=1)
    assert arena_report.update_cards(results, "cardgym arena ...") == [card]
    written = json.loads(card.read_text())
    assert written["timesteps"] == 1
    assert written["arena"]["head_to_head"]["heuristic"]["seat_games"] == 4
    assert written["arena"]["agents"] == ["baseline", "heuristic"]
    assert set(written["arena"]["openskill"]) == {"mu", "sigma", "ordinal"}


def test_readme_tables_go_between_their_markers() -> None:
    begin, end = arena_report.MARKERS["arena"]
    text = f"intro\n{begin}\nold\n{end}\noutro\n"
    tables = {"arena": "| new |"}
    assert arena_report.readme_with_tables(text, tables) == f"intro\n{begin}\n| new |\n{end}\noutro\n"
    with pytest.raises(ValueError, match="README has no throughput table markers"):
        arena_report.readme_with_tables(text, {"throughput": "x"})


def test_the_readme_shows_the_current_result_tables() -> None:
    text = arena_report.README.read_text(encoding="utf-8")
    assert arena_report.readme_with_tables(text, arena_report.readme_tables()) == text, \
        "README tables are stale: run make tables (or python benchmarks/arena.py --help)"
