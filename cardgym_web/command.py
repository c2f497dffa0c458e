"""``cardgym serve``: the browser table server (needs the ``web`` extra).

This module only reads the command line; the server's packages (Starlette, uvicorn) are
imported when it starts, so that ``cardgym --help`` works without them.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path
from typing import TextIO

__all__ = ["configure", "run"]

LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: The host names a server on loopback answers to (no rebound DNS name).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free port), not {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"give a whole number >= 1, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a number of seconds, not {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"give a number of seconds >= 0, not {text!r}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``cardgym serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 opens it to the network)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    parser.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                        help="folder for finished games' records (default ./records)")
    parser.add_argument("--models", type=Path, default=None, metavar="DIR",
                        help="folder of policy files (.safetensors) that bots may play as "
                             "model:NAME; default none (random, heuristic, baseline and "
                             "ismcts only)")
    parser.add_argument("--max-tables", type=_positive, default=64, metavar="N",
                        help="tables open at once (default 64)")
    parser.add_argument("--idle", type=_seconds, default=1800.0, metavar="SECONDS",
                        help="close a table nobody moved at or watched for this long "
                             "(default 1800); at --max-tables, a finished table is closed "
                             "sooner to make room (its record stays)")
    parser.add_argument("--max-connections", type=_positive, default=256, metavar="N",
                        help="websockets (table pages) open at once on the server")
    parser.add_argument("--max-connections-per-client", type=_positive, default=32,
                        metavar="N",
                        help="websockets open at once from one client address (behind a "
                             "proxy every browser has the proxy's address)")
    parser.add_argument("--bot-delay", type=_seconds, default=0.4, metavar="SECONDS",
                        help="a bot's pause before each move, so that people can follow "
                             "(default 0.4)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="another origin (http://host:port) whose pages may open tables; "
                             "repeatable (by default only the server's own pages)")


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from cardgym_web.app import Settings, create_app
        from cardgym_web.hub import Limits
    except ImportError as error:
        print(f"cardgym serve needs the web extra ({error.name} is missing): "
              "pip install 'cardgym[web]'", file=sys.stderr)
        return 1
    if args.models is not None and not args.models.is_dir():
        print(f"cardgym serve: --models: {args.models} is not a folder", file=sys.stderr)
        return 2
    if args.records.exists() and not args.records.is_dir():
        print(f"cardgym serve: --records: {args.records} is a file, not a folder",
              file=sys.stderr)
        return 2
    limits = Limits(max_tables=args.max_tables, idle_seconds=args.idle,
                    bot_delay=args.bot_delay, max_connections=args.max_connections,
                    max_connections_per_client=args.max_connections_per_client)
    hosts = LOOPBACK_NAMES if _is_loopback(args.host) else ()
    app = create_app(Settings(records=args.records, models=args.models, limits=limits,
                              allowed_origins=tuple(args.allow_origin), allowed_hosts=hosts))
    where = "this machine only" if _is_loopback(args.host) else \
        "EVERY machine that can reach this address (no login: anyone may open tables)"
    print(f"cardgym serve: http://{args.host}:{args.port}/ - listening for {where}; "
          f"records go to {args.records}/; Ctrl-C stops", file=out, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_max_size=limits.max_message_bytes * 4)
    return 0
