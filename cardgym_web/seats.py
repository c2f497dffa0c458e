"""Who may sit at a web table: a human, or an agent spec the server allows.

A browser names the agents of a new table in the command line's spelling (``random``,
``heuristic``, ``baseline``, ``ismcts:...``, ``model:NAME``), but the server decides what
they may load and how long they may think:

* no pickled file, ever (``model+pickle:``, ``rllib+pickle:``): the trust rules of the
  command line hold, and a browser cannot opt in for the server's operator;
* ``model:NAME`` names a policy file (``.safetensors``) in the folder the operator gave
  with ``cardgym serve --models DIR``, by its name inside that folder, never a path of the
  server's disk; ISMCTS's ``model=`` takes ``baseline`` or such a name too;
* a search's budget per move is capped: ``time`` at :data:`MAX_THINK_SECONDS` (a
  search given iterations only gets that time limit too), ``iterations`` at
  :data:`MAX_ITERATIONS`, batched ``playouts`` at :data:`MAX_PLAYOUTS`, so that one
  table cannot hold a thinking thread for minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agents.ismcts.settings import SettingsError, parse_settings
from cardgym_web.errors import WebError

__all__ = ["AGENT_KINDS", "HUMAN", "MAX_ITERATIONS", "MAX_PLAYOUTS", "MAX_THINK_SECONDS", "check_seats",
           "model_names", "server_spec"]

#: The word for a seat a person takes through a link.
HUMAN = "human"
#: What a seat may hold, as the lobby offers it.
AGENT_KINDS = (HUMAN, "random", "heuristic", "baseline", "ismcts", "model:NAME")
MAX_THINK_SECONDS = 5.0
MAX_ITERATIONS = 5000
MAX_PLAYOUTS = 64
#: The suffix of a policy file (the safe format: weights and a JSON header).
POLICY_SUFFIX = ".safetensors"


def model_names(models: Path | None) -> list[str]:
    """The policy files the operator offers: names inside ``models``, sorted."""
    if models is None or not models.is_dir():
        return []
    return sorted(str(path.relative_to(models)) for path in models.rglob(f"*{POLICY_SUFFIX}")
                  if path.is_file() and not path.is_symlink())


def _model_path(name: str, models: Path | None, where: str) -> str:
    if models is None:
        raise WebError("bad_agent", f"{where}: this server offers no model files (its operator "
                                    "starts it with --models DIR to offer some); use random, "
                                    "heuristic, baseline or ismcts")
    if name not in model_names(models):
        offered = ", ".join(model_names(models)) or "none"
        raise WebError("bad_agent", f"{where}: {name!r} is not a model file this server offers; "
                                    f"offered: {offered}")
    return str(models / name)


def server_spec(text: object, models: Path | None, where: str = "agent") -> str:
    """The agent spec the server runs for a browser's ``text`` (``human`` stays).

    Raises:
        WebError: not a string, an unknown kind, a pickled file, a path, or a search
            budget over the caps; the message lists what is allowed.
    """
    allowed = ("human, random, heuristic, baseline, ismcts[:KEY=VALUE,...] or model:NAME "
               "(a policy file the server offers)")
    if not isinstance(text, str) or not text.strip() or len(text) > 300:
        raise WebError("bad_agent", f"{where}: give an agent as a string: {allowed}")
    spec = text.strip()
    kind, _, argument = spec.partition(":")
    if kind in (HUMAN, "random", "heuristic", "baseline") and not argument:
        return spec
    if kind == "model":
        return f"model:{_model_path(argument, models, where)}"
    if kind == "ismcts":
        try:
            settings = parse_settings(argument)
        except (SettingsError, ValueError) as error:
            raise WebError("bad_agent", f"{where}: {error}") from None
        if settings.time is not None and settings.time > MAX_THINK_SECONDS:
            raise WebError("bad_agent", f"{where}: time={settings.time:g} is over this server's "
                                        f"limit of {MAX_THINK_SECONDS:g} seconds per move")
        if settings.time is None and (settings.iterations or 0) > MAX_ITERATIONS:
            raise WebError("bad_agent", f"{where}: iterations={settings.iterations} is over this "
                                        f"server's limit of {MAX_ITERATIONS}; give fewer, or a "
                                        "time=SECONDS budget")
        if settings.rollout == "batched" and settings.playouts > MAX_PLAYOUTS:
            raise WebError("bad_agent", f"{where}: playouts={settings.playouts} is over this "
                                        f"server's limit of {MAX_PLAYOUTS}")
        pairs = [pair for pair in argument.split(",") if pair.strip()]
        if settings.time is None:
            # The clock caps every search, whatever its iteration budget.
            if not any(pair.partition("=")[0].strip() == "iterations" for pair in pairs):
                pairs.append(f"iterations={settings.iterations}")
            pairs.append(f"time={MAX_THINK_SECONDS:g}")
        rewritten = []
        for pair in pairs:
            key, _, value = pair.partition("=")
            if key.strip() == "model" and value.strip() != "baseline":
                value = _model_path(value.strip(), models, where)
            rewritten.append(f"{key.strip()}={value.strip()}")
        return "ismcts:" + ",".join(rewritten) if rewritten else "ismcts"
    if kind.endswith("+pickle") or kind == "rllib":
        raise WebError("bad_agent", f"{where}: {kind} loads a pickled file, which this server "
                                    f"never does; allowed: {allowed}")
    raise WebError("bad_agent", f"{where}: unknown agent {spec!r}; allowed: {allowed}")


def check_seats(seats: object, num_players: int, models: Path | None) -> list[str]:
    """One server spec per seat from a browser's list.

    Raises:
        WebError: not a list of ``num_players`` strings, or a spec refused.
    """
    if not isinstance(seats, Sequence) or isinstance(seats, str | bytes):
        raise WebError("bad_request", f"'seats' must be a list of {num_players} agents, one per "
                                      "seat (human for a person)")
    if len(seats) != num_players:
        raise WebError("bad_request", f"'seats' has {len(seats)} entries; the table has "
                                      f"{num_players} seats")
    return [server_spec(spec, models, f"seat {seat}") for seat, spec in enumerate(seats)]
