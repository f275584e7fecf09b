"""History (issue 14): `history` and `stats` over 10,000 stored games, the import, the memory.

A history of generated games (bench/history_games.py: 70 % Fit to Print, Heat, Mini FITS, Myth
Fits; 2-6 players) is imported into a fresh database with `presstime import` (one JSON file per
size), then each command runs as a fresh process through the console script, as a user runs it:

- cli_start_ms: `presstime --help`, the CLI's own start-up, measured in the same run;
- history_ms_10k / stats_ms_10k: `presstime history --json` / `presstime stats --json` on 10,000
  games (history: its default page, newest first); history_all_ms_10k: `history --all --json`;
- history_ratio_start / stats_ratio_start: those medians / cli_start_ms (target <= 8);
- import_ms_per_game: the whole `presstime import` of the 10,000-game file / 10,000 (wall time);
  import_cpu_ms_per_game: the same in CPU time (user + system), which a busy machine disturbs less;
- stats_maxrss_mb_1k / stats_maxrss_mb_10k: the peak resident memory (VmHWM) of
  `presstime stats --json` at 1,000 and 10,000 games (flat: the aggregation is SQL).

Medians of RUNS runs, the commands alternated so that machine noise hits all alike. The *_cpu_*
figures are the same runs' CPU time (user + system of the child), which a machine shared with
other work disturbs far less than wall time.
"""

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import history_games  # noqa: E402
from targets import at_most  # noqa: E402

KEYS = (
    "cli_start_ms",
    "cli_start_cpu_ms",
    "history_cpu_ms_10k",
    "stats_cpu_ms_10k",
    "history_ms_10k",
    "history_all_ms_10k",
    "stats_ms_10k",
    "history_ratio_start",
    "stats_ratio_start",
    "import_ms_per_game",
    "import_cpu_ms_per_game",
    "stats_maxrss_mb_1k",
    "stats_maxrss_mb_10k",
)
TARGETS = {
    "history_ms_10k": at_most(300),
    "stats_ms_10k": at_most(300),
    "history_ratio_start": at_most(8),
    "stats_ratio_start": at_most(8),
    "import_ms_per_game": at_most(2),
}
RUNS = 9

# the peak resident memory of this process (VmHWM: Linux keeps ru_maxrss across exec, so the
# figure of a child forked from this big benchmark would be this benchmark's)
_RSS = (
    "import sys\nfrom presstime import cli\ncode = cli.main(sys.argv[1:])\n"
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
    "sys.stderr.write('MAXRSS %s\\n' % hwm)\n"
)


def _presstime():
    beside = os.path.join(os.path.dirname(sys.executable), "presstime")
    return [beside] if os.path.isfile(beside) else [sys.executable, "-m", "presstime"]


def _wall(cmd, env):
    """(wall ms, CPU ms: user + system) of one run of cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def _maxrss_mb(args, env):
    out = subprocess.run(
        [sys.executable, "-c", _RSS] + args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        env=env,
    ).stderr
    return int(out.rsplit("MAXRSS", 1)[1]) / 1024.0


def build(folder, n):
    """A database of n generated games in folder; (its path, wall ms and CPU ms of the import)."""
    path = os.path.join(folder, "games-%d.json" % n)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(history_games.records(n), f)
    db = os.path.join(folder, "history-%d.sqlite3" % n)
    env = dict(os.environ, PRESSTIME_DB=db)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(_presstime() + ["import", path], stdout=subprocess.DEVNULL, check=True, env=env)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return db, wall, cpu


def measure():
    folder = tempfile.mkdtemp(prefix="presstime-bench-history-")
    try:
        db1k, _, _ = build(folder, 1000)
        db10k, import_ms, import_cpu_ms = build(folder, 10000)
        env = dict(os.environ, PRESSTIME_DB=db10k)
        cmds = {
            "start": _presstime() + ["--help"],
            "history": _presstime() + ["history", "--json"],
            "history_all": _presstime() + ["history", "--all", "--json"],
            "stats": _presstime() + ["stats", "--json"],
        }
        for cmd in cmds.values():
            _wall(cmd, env)  # warm the file cache
        times = dict((k, []) for k in cmds)
        cpu = dict((k, []) for k in cmds)
        names = list(cmds)
        for i in range(RUNS):
            for k in names if i % 2 == 0 else names[::-1]:
                wall, used = _wall(cmds[k], env)
                times[k].append(wall)
                cpu[k].append(used)
        med = dict((k, statistics.median(v)) for k, v in times.items())
        med_cpu = dict((k, statistics.median(v)) for k, v in cpu.items())
        rss1k = statistics.median(
            _maxrss_mb(["stats", "--json"], dict(os.environ, PRESSTIME_DB=db1k)) for _ in range(3)
        )
        rss10k = statistics.median(_maxrss_mb(["stats", "--json"], env) for _ in range(3))
        return {
            "cli_start_ms": round(med["start"], 1),
            "cli_start_cpu_ms": round(med_cpu["start"], 1),
            "history_cpu_ms_10k": round(med_cpu["history"], 1),
            "stats_cpu_ms_10k": round(med_cpu["stats"], 1),
            "history_ms_10k": round(med["history"], 1),
            "history_all_ms_10k": round(med["history_all"], 1),
            "stats_ms_10k": round(med["stats"], 1),
            "history_ratio_start": round(med["history"] / med["start"], 2),
            "stats_ratio_start": round(med["stats"] / med["start"], 2),
            "import_ms_per_game": round(import_ms / 10000, 3),
            "import_cpu_ms_per_game": round(import_cpu_ms / 10000, 3),
            "stats_maxrss_mb_1k": round(rss1k, 1),
            "stats_maxrss_mb_10k": round(rss10k, 1),
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2, sort_keys=True))
