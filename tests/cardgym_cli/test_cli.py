"""The ``cardgym`` command line: subcommands end to end, bad input, reproducibility."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import throughput
from cardgym.arguments import select_settings
from cardgym.registration import GAMES, find_game, short_name
from cardgym_cli import COMMANDS, main
from cardgym_cli.tournament import play_table

REPO = Path(__file__).resolve().parents[2]
#: The game most command tests run on: short games, no option rows in the bench table.
FIRST = find_game("power_hungry_pets")
FIRST_NAME = short_name(FIRST.env_id)
ALL_COUNTS = {count for game in GAMES for count in game.player_counts}
UNSUPPORTED = max(ALL_COUNTS) + 1


def markdown_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in ``text``, as lists of cells."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return [row for row in rows if row[0] not in ("game", "env")]


def run_tournament(capsys: pytest.CaptureFixture[str], *args: str) -> list[list[str]]:
    assert main(["tournament", *args]) == 0
    return markdown_rows(capsys.readouterr().out)


# ------------------------------------------------------------------ help


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command.name in out


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_every_subcommand_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    assert f"usage: cardgym {command}" in capsys.readouterr().out


def test_python_dash_m_cardgym_cli_help_runs_as_a_subprocess() -> None:
    done = subprocess.run([sys.executable, "-m", "cardgym_cli", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    for command in ("demo", "train", "tournament", "bench", "eval", "play"):
        assert command in done.stdout


def test_missing_subcommand_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required: COMMAND" in capsys.readouterr().err


def test_unknown_subcommand_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


# ------------------------------------------------------------ tournament


def test_tournament_prints_one_row_per_game_and_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = run_tournament(capsys, "--games", "4", "--seed", "3")
    expected = [(short_name(g.env_id), str(n)) for g, n in select_settings()]
    assert [(row[0], row[1]) for row in rows] == expected
    seats = max(ALL_COUNTS)
    for row in rows:
        num_players = int(row[1])
        assert row[2] == "4"  # games played
        assert float(row[3]) > 0  # mean steps per game
        shares = row[4:4 + seats]
        assert all(0.0 <= float(share) <= 1.0 for share in shares[:num_players])
        assert shares[num_players:] == ["-"] * (seats - num_players)
        assert float(row[-1].replace(",", "")) > 0  # steps per second


def test_tournament_counts_at_least_one_winner_per_match_of_the_first_game() -> None:
    # A Power Hungry Pets match ends when someone reaches the token target (ties share).
    result = play_table(FIRST, FIRST.player_counts[0], num_games=10, seed=0)
    assert result.games == 10
    assert sum(result.wins) >= result.games
    assert all(0 <= wins <= result.games for wins in result.wins)


def test_tournament_is_reproducible_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_tournament(capsys, "--games", "12", "--seed", "11")
    second = run_tournament(capsys, "--games", "12", "--seed", "11")
    other = run_tournament(capsys, "--games", "12", "--seed", "12")
    assert [row[:-1] for row in first] == [row[:-1] for row in second]
    assert [row[:-1] for row in first] != [row[:-1] for row in other]


def test_tournament_row_does_not_depend_on_the_filter(capsys: pytest.CaptureFixture[str]) -> None:
    count = FIRST.player_counts[-1]
    everything = run_tournament(capsys, "--games", "6", "--seed", "5")
    alone = run_tournament(capsys, "--games", "6", "--seed", "5", "--env", FIRST_NAME,
                     "--players", str(count))
    match = [row for row in everything if row[0] == FIRST_NAME and row[1] == str(count)]

    def cells(rows: list[list[str]]) -> list[list[str]]:
        # Seats beyond this table's size are '-' columns, present when a larger game is shown.
        return [[cell for cell in row[:-1] if cell != "-"] for row in rows]

    assert cells(alone) == cells(match)


# ----------------------------------------------------------------- bench


def test_bench_prints_every_variant_and_the_leduc_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    count = FIRST.player_counts[0]
    assert main(["bench", "--seconds", "0.01", "--rounds", "1", "--env", FIRST_NAME,
                 "--players", str(count)]) == 0
    captured = capsys.readouterr()
    rows = markdown_rows(captured.out)
    labels = [(row[0], row[1], row[2]) for row in rows]
    expected = [(FIRST_NAME, str(count), variant)
                for variant in throughput.game_factories(FIRST, count)]
    expected += [(name, "2", throughput.ENV) for name in throughput.load_comparisons()]
    if throughput.load_leduc() is not None:
        expected.append((throughput.LEDUC, "2", throughput.ENV))
        assert rows[-1][5] == rows[-1][7] == "1.00x"  # steps and decisions
    assert labels == expected
    assert "round 1/1" in captured.err  # progress


def test_bench_without_leduc_says_so_and_prints_no_ratio(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throughput, "load_leduc", lambda: None)
    assert main(["bench", "--seconds", "0.01", "--rounds", "1", "--env", FIRST_NAME,
                 "--players", str(FIRST.player_counts[0])]) == 0
    out = capsys.readouterr().out
    assert "leduc_holdem_v4 is not installed" in out
    assert "vs leduc" not in out
    assert all(row[0] != throughput.LEDUC for row in markdown_rows(out))


def test_bench_covers_every_game_and_player_count_by_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throughput, "WARMUP_EPISODES", 1)
    assert main(["bench", "--seconds", "0.001", "--rounds", "2"]) == 0
    rows = markdown_rows(capsys.readouterr().out)
    references = {throughput.LEDUC, *throughput.COMPARISONS}
    pairs = {(row[0], row[1]) for row in rows if row[0] not in references}
    settings = {(short_name(g.env_id), str(n)) for g, n in select_settings()}
    option_rows = {(label, n) for name, label, _ in throughput.OPTION_ROWS
                   for game, n in settings if game == name}
    assert pairs == settings | option_rows


def test_bench_writes_markdown_and_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "results"
    assert main(["bench", "--seconds", "0.01", "--rounds", "1", "--env", FIRST_NAME,
                 "--players", str(FIRST.player_counts[0]), "--output", str(target)]) == 0
    out = capsys.readouterr().out
    markdown = (target / "throughput.md").read_text(encoding="utf-8")
    table = (target / "throughput.csv").read_text(encoding="utf-8").splitlines()
    assert f"wrote {target / 'throughput.md'}" in out
    assert markdown_rows(markdown) == markdown_rows(out)
    assert table[0].startswith("env,players,variant,steps_per_second,microseconds_per_step")
    assert len(table) - 1 == len(markdown_rows(out))


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--env", "nope"], "unknown game 'nope'; known games: "),
        (["bench", "--env", "nope"], "unknown game 'nope'; known games: "),
        (["tournament", "--env", "nope"], "unknown game 'nope'; known games: "),
        (["bench", "--seconds", "-1"], "--seconds: must be a positive number, got '-1'"),
        (["bench", "--seconds", "0"], "--seconds: must be a positive number, got '0'"),
        (["bench", "--seconds", "nan"], "--seconds: must be a positive number, got 'nan'"),
        (["bench", "--rounds", "0"], "--rounds: must be a positive integer, got '0'"),
        (["bench", "--players", "0"], "--players: must be a positive integer, got '0'"),
        (["tournament", "--games", "-5"], "--games: must be a number of games from 1 to 10000000, got '-5'"),
        (["tournament", "--games", "many"], "--games: must be a number of games from 1 to 10000000, got 'many'"),
        (["tournament", "--seed", "-1"], "--seed: must be an integer >= 0, got '-1'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert f"usage: cardgym {argv[0]}" in captured.err
    assert captured.out == ""


def test_unknown_game_message_lists_the_known_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--env", "nope"]) == 2
    err = capsys.readouterr().err
    for game in GAMES:
        assert short_name(game.env_id) in err


@pytest.mark.parametrize("command", ["bench", "tournament"])
def test_player_count_no_game_supports_exits_2(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--players", str(UNSUPPORTED)]) == 2
    err = capsys.readouterr().err
    assert f"{UNSUPPORTED} players is outside the supported player counts" in err
    low, high = min(FIRST.player_counts), max(FIRST.player_counts)
    assert f"{FIRST_NAME}: {low}..{high}" in err


def test_player_count_outside_the_chosen_game_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    below = min(FIRST.player_counts) - 1
    filter_option = ["--env", FIRST_NAME]
    assert main(["tournament", *filter_option, "--players", str(below)]) == 2
    assert f"{below} players is outside" in capsys.readouterr().err


def test_throughput_script_rejects_bad_input_like_argparse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        throughput.main(["--players", str(UNSUPPORTED)])
    assert stop.value.code == 2
    assert "outside the supported player counts" in capsys.readouterr().err


# ------------------------------------------------------------- eval, play


def eval_rows(text: str) -> tuple[list[list[str]], list[str]]:
    """The agent rows and the per-seat win shares of ``cardgym eval`` output."""
    rows = [row for row in markdown_rows(text) if row[0] not in ("agent", "seat")]
    agents = [row for row in rows if row[0].isdigit()]
    shares = next(row[1:] for row in rows if row[0] == "win share")
    return agents, shares


def test_eval_prints_one_row_per_agent_and_the_seat_shares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["eval", "exploding_kittens", "--players", "3", "--agents", "random", "random",
                 "--games", "6", "--seed", "2", "--workers", "1",
                 "--option", "attack_stacking=stack"]) == 0
    captured = capsys.readouterr()
    agents, shares = eval_rows(captured.out)
    assert captured.out.startswith("exploding_kittens, 3 players, 6 games, seed 2, "
                                   "options attack_stacking='stack'")
    assert [row[:4] for row in agents] == [["1", "random", "1", "6"], ["2", "random", "2", "12"]]
    assert sum(int(row[4]) for row in agents) == 6  # one winner per game
    for row in agents:
        low, high = map(float, row[6].split("-"))
        assert low <= float(row[5]) <= high
    assert len(shares) == 3 and sum(map(float, shares)) == pytest.approx(1.0, abs=0.01)
    assert "eval: exploding_kittens, 3 players" in captured.err  # progress


def test_eval_is_the_same_with_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval", "power_hungry_pets", "--agents", "random", "random", "random", "--games",
            "6", "--seed", "4"]
    assert main([*argv, "--workers", "1"]) == 0
    alone = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == alone
    assert alone.startswith("power_hungry_pets, 3 players")  # --players from the agents
    assert "match wins" in alone and "rounds won" in alone


def test_eval_with_a_journal_prints_the_same_table_and_lets_the_journal_go(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["eval", "karel_kakelaar", "--agents", "heuristic", "random", "--games", "6",
            "--seed", "3", "--workers", "1"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    journal = tmp_path / "journal"
    assert main([*argv, "--journal", str(journal)]) == 0
    assert capsys.readouterr().out == plain
    assert journal.is_dir() and list(journal.iterdir()) == []
    taken = tmp_path / "taken"
    taken.write_text("a file")
    assert main([*argv, "--journal", str(taken)]) == 2
    assert "--journal: the journal" in capsys.readouterr().err


def test_play_runs_a_whole_game_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.agents.test_play import first, replay

    script = replay("karel_kakelaar", 3, 1, 6, first)
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{a}\n" for a in script.actions)))
    assert main(["play", "karel_kakelaar", "--players", "3", "--seat", "1", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("karel_kakelaar, 3 players, seed 6. You are player_1 (seat 1).")
    assert "Game over." in out and "your reward:" in out


def test_play_ask_always_asks_for_a_single_legal_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A position where passing in a Nope window is seat 0's only move: by default it
    is played for you; with --ask-always it is asked."""
    from cardgym.positions import save
    from tests.agents.test_play import NOPE_WINDOW

    env = find_game("exploding_kittens").make_env(num_players=2)
    env.reset(seed=0, options={"scenario": NOPE_WINDOW})
    position = save(env, tmp_path / "window.json")
    argv = ["play", "exploding_kittens", "--position", str(position), "--seed", "1"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "; played for you." in out and out.count("Your move (player_0)") == 1
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\nquit\n"))
    assert main([*argv, "--ask-always"]) == 1
    out = capsys.readouterr().out
    assert "played for you" not in out and out.count("Your move (player_0)") == 2


def test_play_from_a_position_file_checks_its_options_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The file's rule options are checked where they are read, once: the env and the
    opponent are made from that bound game (the options as the file gives them)."""
    from cardgym.positions import save
    from ek_env.engine.state import Config
    from tests.agents.test_play import NOPE_WINDOW

    env = find_game("exploding_kittens").make_env(num_players=2, attack_stacking="stack")
    env.reset(seed=0, options={"scenario": NOPE_WINDOW})
    position = save(env, tmp_path / "window.json")
    configs: list[Config] = []
    check = Config.__post_init__
    monkeypatch.setattr(Config, "__post_init__", lambda self: (configs.append(self), check(self)))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "exploding_kittens", "--position", str(position), "--seed", "1",
                 "--opponents", "heuristic"]) == 1
    assert "; played for you." in capsys.readouterr().out
    assert [config.attack_stacking for config in configs] == ["stack"]


def test_play_without_a_seed_prints_the_one_it_drew(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "power_hungry_pets", "--opponents", "random"]) == 1
    out = capsys.readouterr().out
    assert re.match(r"power_hungry_pets, 2 players, seed \d+\. You are player_0", out)
    assert "You quit" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "nope", "--agents", "random", "random"], "unknown game 'nope'; known games: "),
        (["eval", "karel_kakelaar"], "the following arguments are required: --agents"),
        (["eval", "karel_kakelaar", "--agents", "random"],
         "--agents: give 2 agents, one per seat, not 1"),
        (["eval", "karel_kakelaar", "--players", "4", "--agents", "random", "random", "random"],
         "--agents: give 4 agents (one per seat) or 2 (the first against the second in every "
         "other seat), not 3"),
        (["eval", "karel_kakelaar", "--players", "6", "--agents", "random", "random"],
         "karel_kakelaar takes 2..5 players, not 6"),
        (["eval", "karel_kakelaar", "--agents", "random", "wizard"],
         "agent 'wizard': unknown agent 'wizard'; agents: random, heuristic, model:PATH"),
        (["eval", "karel_kakelaar", "--agents", "random", "model:/no/such.zip"],
         "model file '/no/such.zip' does not exist"),
        (["eval", "karel_kakelaar", "--agents", "random", "random", "--games", "0"],
         "--games: must be a number of games from 1 to 10000000, got '0'"),
        (["eval", "karel_kakelaar", "--agents", "random", "random", "--workers", "0"],
         "--workers: must be a number of processes from 1 to 256, got '0'"),
        (["eval", "karel_kakelaar", "--agents", "random", "random", "--seed", "-3"],
         "--seed: must be an integer >= 0, got '-3'"),
        (["eval", "exploding_kittens", "--agents", "random", "random",
          "--option", "attack_stacking=stak"],
         "attack_stacking='stak' is not a valid option; allowed: 'reset', 'stack'"),
        (["eval", "exploding_kittens", "--agents", "random", "random", "--option", "colour=red"],
         "unknown option 'colour' for exploding_kittens; its options: hand_size (default 7)"),
        (["eval", "exploding_kittens", "--agents", "random", "random", "--option", "combos"],
         "option 'combos' is not of the form key=value"),
        (["eval", "exploding_kittens", "--agents", "random", "random", "--option", "combos=1",
          "--option", "combos=0"], "option 'combos' is given more than once"),
        (["play", "nope"], "unknown game 'nope'; known games: "),
        (["play", "karel_kakelaar", "--seat", "2"], "--seat: 2 is out of range; seats are 0..1"),
        (["play", "karel_kakelaar", "--seat", "-1"], "--seat: must be an integer >= 0, got '-1'"),
        (["play", "karel_kakelaar", "--players", "3", "--opponents", "random", "random",
          "random"],
         "--opponents: give 1 opponent (for every other seat) or 2 (one per other seat, in seat "
         "order), not 3"),
        (["play", "karel_kakelaar", "--players", "1"], "karel_kakelaar takes 2..5 players, not 1"),
        (["play", "karel_kakelaar", "--opponents", "wizard"], "agent 'wizard': unknown agent"),
        (["play", "power_hungry_pets", "--option", "robovac=sometimes"],
         "robovac='sometimes' is not a valid option"),
    ],
)
def test_eval_and_play_reject_bad_input_with_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert f"usage: cardgym {argv[0]}" in captured.err
    assert captured.out == ""


# ------------------------------------------------------------------ docs


@pytest.mark.parametrize("game", GAMES, ids=[g.env_id for g in GAMES])
def test_docs_prints_the_env_modules_docstring(game, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib
    import inspect

    module = importlib.import_module(game.entry_point.partition(":")[0])
    package = importlib.import_module(game.module)
    assert callable(package.env), "the package's env() function shadows the module"
    assert main(["docs", short_name(game.env_id)]) == 0
    out = capsys.readouterr().out
    assert out == inspect.cleandoc(module.__doc__) + "\n"
    assert f"`{game.env_id}`" in out.splitlines()[0]
    assert "<!-- action-table -->" in out and "<!-- observation-table -->" in out
    assert package.env.__doc__.strip() not in out


def test_docs_of_an_unknown_game_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'; known games: " in err
    assert all(game.name in err for game in GAMES)


def test_the_readme_reads_the_docs_with_a_command_that_works() -> None:
    readme = (REPO / "README.md").read_text()
    assert "import phpets_env.env as m" not in readme
    assert "`cardgym docs power_hungry_pets`" in readme
    done = subprocess.run([sys.executable, "-m", "cardgym_cli", "docs", "power_hungry_pets"],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Power Hungry Pets, a PettingZoo AEC environment" in done.stdout
    assert "<!-- action-table -->" in done.stdout
