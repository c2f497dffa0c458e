"""``python -m cardgym_cli``: the ``cardgym`` command line."""

import sys

from cardgym_cli import main

sys.exit(main())
