"""``python -m replay.cli``: the ``rinklog`` command."""

import sys

from replay.cli.app import main

sys.exit(main())
