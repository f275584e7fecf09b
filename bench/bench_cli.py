"""CLI (issue 5): does `presstime` start as fast as mpremote?

cli_start_ratio_mpremote: the median wall time of `presstime --help` divided by the median of
`mpremote --help`, both run as fresh processes through the console scripts installed beside this
interpreter,
alternately (PAIRS pairs, the order inside each pair alternating too) so that machine noise hits
both alike. Target <= 1.0: nothing heavy imported at start.
"""

import os
import shutil
import statistics
import subprocess
import sys
import time

from targets import at_most

KEYS = ("cli_start_ratio_mpremote",)
TARGETS = {"cli_start_ratio_mpremote": at_most(1.0)}
PAIRS = 15


def _command(name):
    """The console script installed with this interpreter (no PATH shims), else PATH, else -m."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    exe = beside if os.path.isfile(beside) else shutil.which(name)
    if exe:
        return [exe, "--help"]
    module = {"presstime": "presstime.cli", "mpremote": "mpremote"}[name]
    return [sys.executable, "-m", module, "--help"]


def _wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def timings(pairs=PAIRS):
    """(presstime times, mpremote times) in seconds, measured alternately."""
    ours, theirs = _command("presstime"), _command("mpremote")
    _wall(ours), _wall(theirs)  # warm the file cache once
    a, b = [], []
    for i in range(pairs):
        if i % 2:
            b.append(_wall(theirs))
            a.append(_wall(ours))
        else:
            a.append(_wall(ours))
            b.append(_wall(theirs))
    return a, b


def measure():
    a, b = timings()
    return {"cli_start_ratio_mpremote": round(statistics.median(a) / statistics.median(b), 3)}


if __name__ == "__main__":
    a, b = timings()
    print(
        "presstime --help: median %.1f ms; mpremote --help: median %.1f ms; ratio %.3f"
        % (
            statistics.median(a) * 1000,
            statistics.median(b) * 1000,
            statistics.median(a) / statistics.median(b),
        )
    )
