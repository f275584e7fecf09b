"""Helpers shared by the tests: running the CLI, and the game records and scorepad numbers many
tests start from. (Fixtures are in conftest.py; the simulator board's helpers in simboard.py,
the scorepad's phones in scorepad_phones.py, stored histories in history_records.py.)"""

import json
import os
import subprocess
import sys

from presstime import cli
from presstime.entry.rounds import round_slot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One Fit to Print player's scorepad numbers for a round, as the core accepts them.
GOOD_PAD = {
    "white_space": 4,
    "articles": 8,
    "photos": 5,
    "centerpiece": 2,
    "smiles": 3,
    "frowns": 5,
    "unplaced": 2,
    "ads": 3,
}
ZERO_PAD = dict.fromkeys(GOOD_PAD, 0)


def example_path(game="fit-to-print"):
    """The checkout's example record of `game`: examples/GAME.json."""
    return os.path.join(ROOT, "examples", game + ".json")


def example(game="fit-to-print"):
    """A fresh copy of the example record of `game`."""
    with open(example_path(game), encoding="utf-8") as f:
        return json.load(f)


def fit_to_print_record(players=("Ada", "Ben"), mode="standard", open_rounds=1):
    """A Fit to Print game (published edition) with no numbers typed yet, its first
    `open_rounds` rounds set up without Breaking News."""
    rec = {
        "game": "fit-to-print",
        "mode": mode,
        "edition": "published",
        "players": list(players),
        "rounds": [],
    }
    for r in range(open_rounds):
        round_slot(rec, r)["breaking_news"] = []
    return rec


def run_cli(capsys, *argv):
    """`presstime ARGV…` in this process: (exit status, stdout, stderr)."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def presstime_process(*args, timeout=120):
    """`presstime ARGS…` as a fresh process from the checkout, no colours, nothing on stdin."""
    return subprocess.run(
        [sys.executable, "-m", "presstime.cli"] + list(args),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, NO_COLOR="1"),
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def target_params(keys, missed):
    """pytest params of each target key, a strict expected failure for those in `missed` ({key:
    the figure measured, said in the reason}): the rig tests' targets, the day one is met the
    test says so."""
    import pytest

    return [
        pytest.param(
            k,
            marks=pytest.mark.xfail(strict=True, reason="issue 23: %s" % missed[k])
            if k in missed
            else (),
        )
        for k in keys
    ]


def assert_a_table_run(run):
    """What a rig table-load run's figures stand on (rig/table_load.py table_run, one game):
    every press scheduled, three boots, the reset's boot left out of its round only, and the
    desktop's requests and the board's pushes as `presstime play` makes them."""
    # 3 rounds x (6 ready + 6 round presses), and those the reset in the second round lost
    assert len(run["presses"]) == 36 + run["again"]
    assert set(run["boots"]) == {"first", "after a played game", "reset mid-round"}
    assert len(run["rounds"]) == 3
    # the boot after the reset is left out of the second round's busy share, and only of it
    with_boot = run["rounds_with_boot"]
    assert with_boot[1] > run["rounds"][1]
    assert with_boot[0] == run["rounds"][0] and with_boot[2] == run["rounds"][2]
    kinds = {kind for kind, _ in run["replies"]}
    assert {"hello at boot", "configure", "status", "standings", "next"} <= kinds
    # the status watched (a request every 2 s) and pushed by the board when it changes
    assert sum(1 for kind, _ in run["replies"] if kind == "status") > 10
    assert run["pushes"] > 30
