"""`python -m rig`'s own refusals (no rig needed): a wrong --board and a missing rig exit 2 with
one line, no traceback."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rig(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "rig"] + list(args),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_board_it_does_not_know_is_refused():
    r = _rig("--board", "nano", "play")
    assert r.returncode == 2
    assert r.stderr.strip() == "python -m rig: --board is pico or macropad, not 'nano'"
    assert "Traceback" not in r.stderr


def test_without_the_rig_it_says_how_to_get_it():
    env = {k: v for k, v in os.environ.items() if k != "PRESSTIME_RP2EMU"}
    for args in (("play",), ("--board", "macropad", "sync"), ("--board=macropad",)):
        r = _rig(*args, env=env)
        assert r.returncode == 2, args
        assert r.stderr.startswith("python -m rig: ") and "PRESSTIME_RP2EMU" in r.stderr, args
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, args
