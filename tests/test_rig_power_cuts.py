"""Power cuts on the emulated Pico's flash (littlefs on the official firmware): cut inside
erases and programs (torn, both tear modes) and between them, during journal appends,
checkpoint rewrites and littlefs compactions; after each cut the board boots again without
reformatting, every journal record completed before the cut is there, and a sync pulls exactly
what the flash holds. A representative subset: `bench/bench_rp2_cuts.py` runs 200+."""

import collections

import pytest

from rig.cuts import cut_once, plan_cuts, probe

SEGMENTS = (4280 + 3200, 12760 + 4700)       # day 1 summary (a compaction), day 2 paused (checkpoints)
CUTS_PER_SEGMENT = 6


@pytest.fixture(scope="module")
def segments(ftp_game, rig_dir, tmp_path_factory):
    out = []
    for ms in SEGMENTS:
        image = ftp_game["saves"][ms]
        out.append((image, probe(rig_dir, image, str(tmp_path_factory.mktemp("probe")))))
    return out


def test_segments_write_journal_checkpoints_and_compact(segments):
    purposes = collections.Counter()
    kinds = collections.Counter()
    for _, ref in segments:
        assert ref["ops"], "no flash writes in the segment"
        for op in ref["ops"]:
            purposes[op["purpose"]] += 1
            kinds[op["kind"]] += 1
        n = [op["records"] for op in ref["ops"]]
        assert n == sorted(n) and n[-1] == len(ref["records"])
    assert purposes["journal append"] and purposes["checkpoint"]
    assert kinds["program"] and kinds["erase"]


@pytest.mark.parametrize("seg", range(len(SEGMENTS)))
def test_power_cuts_lose_no_completed_record(segments, rig_dir, tmp_path, seg):
    image, ref = segments[seg]
    results = []
    for cut in plan_cuts(ref, seed=9 + seg, n=CUTS_PER_SEGMENT, first=seg):
        r = cut_once(rig_dir, image, ref, cut, str(tmp_path))
        assert r["ok"], r
        results.append(r)
    assert {r["hit"] for r in results} >= {"program", "between"}
