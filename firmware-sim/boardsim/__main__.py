"""``python -m boardsim`` is the ``boardsim`` command."""

import sys

from boardsim.cli import main

sys.exit(main())
