"""`python -m presstime` is the `presstime` command."""

import sys

from presstime.cli import main

sys.exit(main())
