"""``python -m cardgym``: the command line (see :mod:`cardgym.cli`)."""

from cardgym.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
