"""The README's quick-start snippet runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_start_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Quick start", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README quick start", "exec"), {})
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[0].startswith("player_")
    final = eval(printed[-1])
    assert set(final) == {f"player_{i}" for i in range(4)}
    assert sorted(set(final.values())) in ([-1.0, 1.0], [1.0])


def test_vector_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Many games at once", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README vector example", "exec"), {})
    printed = capsys.readouterr().out.strip().splitlines()
    finished = int(printed[-1].split()[0])
    assert printed[-1].endswith("games finished")
    # 200 decisions per row of 3-player games: every row finished at least one game.
    assert finished >= 1024


def test_seeing_a_game_snippet_runs(capsys) -> None:
    text = README.read_text()
    section = text.split("## Seeing a game", 1)[1]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(snippet, "README seeing a game", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("(800, 1280, 3) Round 1")


# ------------------------------------------------------ the order a newcomer reads

#: The README's sections in the order a newcomer reads them (issue 35): what it is,
#: how to start, the Python API, the command line in short, then the rest.
ORDER = ["Two commands", "Quick start", "The command line",
         "What a seat observes, and the public record", "Seeing a game",
         "Playing in the browser", "Many games at once", "Training", "Benchmarks", "Layout"]
#: The sections whose ``python`` block a test above runs.
RUN = {"Quick start", "Many games at once", "Seeing a game"}
DOCS = README.parent / "docs"


def sections() -> list[tuple[str, str]]:
    """The README's ``##`` sections as (title, text), in order."""
    parts = re.split(r"(?m)^## (.*)$", README.read_text())
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_the_readme_reads_in_a_newcomers_order() -> None:
    """The quick start came at line 186 of 404, after the command-line reference,
    the trust rules and a Ray cluster's set-up."""
    titles = [title for title, _ in sections()]
    assert [title for title in titles if title in ORDER] == ORDER
    lines = README.read_text().splitlines()
    assert lines.index("## Quick start") < 60
    assert "![" in "\n".join(lines[:lines.index("## Two commands")])  # a picture on top


def test_every_python_block_of_the_readme_is_run_by_a_test() -> None:
    blocks = {title: text.count("```python\n") for title, text in sections()}
    assert {title for title, count in blocks.items() if count} == RUN
    assert all(blocks[title] == 1 for title in RUN)  # each test runs its section's first


def test_the_long_reference_text_lives_in_docs_and_the_readme_links_it() -> None:
    from cardgym_cli import COMMANDS

    text = README.read_text()
    for page in ("docs/cli.md", "docs/rllib.md", "docs/trust.md", "docs/training.md",
                 "docs/vector.md"):
        assert f"]({page}" in text, page
    for reference in ("ray start", "RAY_AUTH_MODE", "--pfsp-power", "--envs-per-env-runner",
                      "split=private", "convert-model PATH"):
        assert reference not in text, f"{reference} is reference text: it belongs in docs/"
    cli = (DOCS / "cli.md").read_text()
    assert all(f"`cardgym {command.name}" in cli for command in COMMANDS)
    assert "ray start --head" in (DOCS / "rllib.md").read_text()
    assert "--trust-pickle" in (DOCS / "trust.md").read_text()


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(title) for title in re.findall(r"(?m)^#+ (.*)$", path.read_text())}


def test_every_link_of_the_readme_and_the_docs_leads_somewhere() -> None:
    """Every relative link of README.md and docs/*.md names a file that exists, and
    an anchor one of its headings (pictures are checked in tests/benchmarks/test_images.py)."""
    broken = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for target in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            destination = (page.parent / path).resolve() if path else page
            if not destination.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken
