"""`python -m presstime` is the `presstime` command."""

import sys

from .cli import main

sys.exit(main())
