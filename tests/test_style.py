"""The code base stays as ruff ([tool.ruff] in pyproject.toml) wants it: linted and formatted.

Fix a failure with `ruff check --fix .` and `ruff format .` (ruff is in the dev extra)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ruff(*args):
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_ruff_check_is_clean():
    proc = _ruff("check", "--no-cache", "--output-format", "concise", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean():
    proc = _ruff("format", "--no-cache", "--check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr
