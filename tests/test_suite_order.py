"""The suite passes in any order: the pair that once failed at collection in one order
(`pytest tests/test_table_vectors.py tests/test_entry.py`: the first puts firmware/ on sys.path,
so `presstime` became firmware/presstime and `from presstime import records` failed) passes in
both orders, also with presstime installed as a plain package (no editable-install finder to
rescue the lookup), which is how the failure showed."""

import os
import shutil
import subprocess
import sys

import pytest

from mpy import ROOT

PAIR = ["tests/test_table_vectors.py", "tests/test_entry.py"]

# pytest in a child interpreter, without setuptools' editable finder (a regular install)
_RUN = """
import sys
sys.meta_path = [
    f for f in sys.meta_path if "Editable" not in getattr(f, "__name__", type(f).__name__)
]
import pytest
args = ["-q", "-p", "no:cacheprovider", "-x", "-k", "not micropython"] + sys.argv[1:]
sys.exit(pytest.main(args))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """presstime laid out as `pip install .` lays it out: host/presstime with core/ and device/
    from firmware/ inside it (pyproject.toml's package-dir)."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(
        os.path.join(ROOT, "host", "presstime"),
        str(site / "presstime"),
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for part in ("core", "device"):
        shutil.copytree(
            os.path.join(ROOT, "firmware", "presstime", part),
            str(site / "presstime" / part),
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    return str(site)


@pytest.mark.slow
@pytest.mark.parametrize("order", [PAIR, PAIR[::-1]], ids=["vectors-first", "entry-first"])
def test_the_pair_passes_in_either_order(installed, order, tmp_path):
    env = dict(os.environ, PYTHONPATH=installed)
    proc = subprocess.run(
        [sys.executable, "-c", _RUN] + [os.path.join(ROOT, p) for p in order],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(tmp_path),
        env=env,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "[100%]" in proc.stdout and "error" not in proc.stdout.lower()
