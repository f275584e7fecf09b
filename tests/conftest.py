import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # tests/mpy.py and other helpers


@pytest.fixture
def sim(tmp_path, monkeypatch):
    """A simulator board (device App + Link under CPython) on one end of os.openpty(), advertised
    in a private runtime folder so `presstime devices` finds only it. Helpers: tests/simboard.py."""
    from presstime.simserve import Simulator

    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    s = Simulator(journal=str(tmp_path / "journal.bin")).start()
    yield s
    s.stop()
