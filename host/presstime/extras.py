"""How to install one of presstime's optional extras (pyproject.toml
[project.optional-dependencies]).

presstime is installed from its checkout (`pip install -e .`), so the hint names that checkout:
`pip install -e '/path/to/presstime[charts]'` works from any folder. Installed some other way
(no pyproject.toml beside the package), the hint falls back to the package name.
"""

from __future__ import annotations

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def install_hint(extra: str, root: str = ROOT) -> str:
    """The pip command that installs `extra` ("charts", "flash", ...)."""
    if os.path.exists(os.path.join(root, "pyproject.toml")):
        if os.path.abspath(os.getcwd()) == os.path.abspath(root):
            return "pip install -e '.[%s]'" % extra
        return "pip install -e '%s[%s]'" % (root, extra)
    return "pip install 'presstime[%s]'" % extra


# the one line every charts command's --help ends with (chart, card)
CHARTS_NEEDS = "Needs matplotlib: pip install -e '.[charts]' in the presstime checkout."
