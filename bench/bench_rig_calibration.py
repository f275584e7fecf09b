"""The rig's timing against real RP2040 silicon: three published benchmarks run on the official
MicroPython v1.28.0 firmware in the rp2emu rig (PRESSTIME_RP2EMU), with the rig's timing model
(rig/xip.mjs: the XIP cache and its misses) as every rp2_* and cp_* figure is measured, unless
PRESSTIME_RIG_XIP=off. The programs come from the rig's calibration/ folder, unchanged.

  rig_bm_chaos_score  MicroPython's tests/perf_bench bm_chaos.py with benchrun.py, bm_run(168,
                      100): 1e6 * norm / µs (real RP2040: 152.00 and 154.11, micropython PR 19352)
  rig_add_10k_ms      shaoziyang/micropython_benchmarks add_test, 10 000 integer additions, ms
                      (real RP2040, MicroPython v1.23.0: 80 ms)
  rig_pi_1000_ms      the same benchmark's pi_test, 1 000 digits, ms (real: 868 ms)
Without the rig (or a rig copy without calibration/) every figure is None, with one line on
stderr saying why.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # rig/
from targets import within  # noqa: E402

KEYS = ("rig_bm_chaos_score", "rig_add_10k_ms", "rig_pi_1000_ms")
# the real chip's figures (docs/benchmarks.md, "The rig's timing model"), within 10 %
TARGETS = {
    "rig_bm_chaos_score": within(153, 0.1),
    "rig_add_10k_ms": within(80, 0.1),
    "rig_pi_1000_ms": within(868, 0.1),
}

MS = 1_000_000


def _read(folder, name):
    with open(os.path.join(folder, name)) as f:
        return f.read()


def chaos_program(folder):
    return "import sys\n%s\n%s\nbm_run(168, 100)\n" % (
        _read(folder, "bm_chaos.py"),
        _read(folder, "benchrun.py"),
    )


def simple_program(folder):
    """benchmark.py's definitions (up to its own test run) and the two timed calls, timed as it
    times them (gc.collect(), then ticks_ms around the call)."""
    text = _read(folder, "benchmark.py")
    head = text[: text.index("\ntr = []") + 1]
    return head + (
        "for name, f, p in (('add', add_test, [10000, 12345678, 56781234]), ('pi', pi_test, "
        "[1000])):\n"
        "    gc.collect(); t0 = ticks_ms(); f(p); print(name, ticks_diff(ticks_ms(), t0))\n"
    )


def run_program(rig, code):
    """The program's output, run in the raw REPL of a freshly booted paused rig."""
    from rig.rp2emu import Emulator

    emu = Emulator.start(rig, paused=True)
    try:
        r = emu.exec(code, max_ns=120_000 * MS)
    finally:
        emu.close()
    if r.get("err"):
        raise RuntimeError("the calibration program failed on the board: %s" % r["err"].strip())
    return r["out"]


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    folder = rig and os.path.join(rig, "calibration")
    if rig is None or not os.path.isfile(os.path.join(folder, "bm_chaos.py")):
        why = why_absent() if rig is None else "%s has no calibration/ folder" % rig
        print("bench_rig_calibration: %s" % why, file=sys.stderr)
        return {k: None for k in KEYS}
    us, norm = run_program(rig, chaos_program(folder)).split()[:2]
    figures = {"rig_bm_chaos_score": round(1e6 * int(norm) / int(us), 1)}
    for line in run_program(rig, simple_program(folder)).splitlines():
        name, ms = line.split()
        figures[{"add": "rig_add_10k_ms", "pi": "rig_pi_1000_ms"}[name]] = int(ms)
    return figures


if __name__ == "__main__":
    for key, value in measure().items():
        print("%s: %s" % (key, value))
