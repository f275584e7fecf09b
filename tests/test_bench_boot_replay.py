"""bench/rp2_boot_replay.py, the diagnostic of the Pico's boot after a game: without the rig it
says how to give it one and exits 2; its hooks go where firmware/main.py starts the port."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "bench", "rp2_boot_replay.py")


def test_without_the_rig_it_says_so_and_exits_2():
    env = {k: v for k, v in os.environ.items() if k != "PRESSTIME_RP2EMU"}
    r = subprocess.run([sys.executable, SCRIPT], env=env, capture_output=True, text=True)
    assert r.returncode == 2
    assert "PRESSTIME_RP2EMU" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_its_hooks_find_where_main_py_starts_the_port():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import rp2_boot_replay as b
    finally:
        sys.path.remove(os.path.join(ROOT, "bench"))
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        src = f.read()
    assert src.count(b.ENTRY) == 1
    for hook in (b.TIMED, b.NO_REPLAY):
        compile(src.replace(b.ENTRY, hook + b.ENTRY), "main.py", "exec")
