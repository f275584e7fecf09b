"""Power cuts on the emulated Pico's flash (littlefs on the official firmware): cut inside
erases and programs (torn, both tear modes) and between them, during journal appends,
checkpoint rewrites and littlefs compactions; after each cut the board boots again without
reformatting, every journal record completed before the cut is there, and a sync pulls exactly
what the flash holds. One cut of each class here (CI time); `bench/bench_rp2_cuts.py` runs 200+
over five segments of the game."""

import collections

import pytest

from rig.cuts import BETWEEN, cut_once, plan_by_class, probe_cached

SEGMENTS = (4280 + 3200, 12760 + 4700)  # day 1 summary (compactions), day 2 paused (checkpoints)


@pytest.fixture(scope="module")
def segments(ftp_game, rig_dir, tmp_path_factory):
    out = []
    for ms in SEGMENTS:
        image = ftp_game["saves"][ms]
        out.append((image, probe_cached(rig_dir, image, str(tmp_path_factory.mktemp("probe")))))
    return out


def test_segments_write_journal_checkpoints_and_compact(segments):
    classes = collections.Counter()
    for _, ref in segments:
        assert ref["ops"], "no flash writes in the segment"
        for op in ref["ops"]:
            classes[op["class"], op["kind"]] += 1
        n = [op["records"] for op in ref["ops"]]
        assert n == sorted(n) and n[-1] == len(ref["records"])
    assert classes["journal append", "program"] and classes["checkpoint", "program"]
    assert classes["compaction", "erase"]


def test_one_cut_of_each_class_loses_no_completed_record(segments, rig_dir, tmp_path):
    refs = [ref for _, ref in segments]
    plan = plan_by_class(refs, seed=9, total=4)
    aimed = dict(
        (refs[si]["ops"][c["op"]]["class"] if c["aim"] != "between" else BETWEEN, c["aim"])
        for si, c in plan
    )
    assert aimed == {
        "journal append": "program",
        "checkpoint": "program",
        "compaction": "erase",
        BETWEEN: "between",
    }
    for k, (si, cut) in enumerate(plan):
        cut["mode"] = ("prefix", "random")[k % 2]  # both tear modes
        r = cut_once(rig_dir, segments[si][0], refs[si], cut, str(tmp_path))
        assert r["ok"], r
        assert r["hit"] == cut["aim"], r  # the rig's own report: the op it tore
