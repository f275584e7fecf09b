"""The journal on the board's flash: round trip, and the power-loss proofs.

- a fake file system that loses power after N bytes (every N across whole sessions), on CPython
  and under the MicroPython unix port;
- the real rp2 file system (littlefs-python, rp2 geometry) losing power after N prog/erase
  operations (every N), with clean and torn operations; the flash must mount again;
- a hypothesis law: any appends with a cut anywhere leave a prefix of them.
"""

import os
import shutil
import subprocess

import littlefs
import pytest
from hypothesis import given, settings, strategies as st

import journal_fakes as jf
import littlefs_device as ld
from mpy import ROOT, needs_micropython, run_micropython
from presstime.device import journal as journal_mod
from presstime.device.journal import Journal, decode_record, encode_record


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch):
    # fsync on the test machine's disk proves nothing here and only costs time.
    monkeypatch.setattr(Journal, "FSYNC", False)


# -- round trip on real files ----------------------------------------------------------------


def _game_bytes(folder):
    j = Journal(str(folder / "journal.bin"))
    n = sum(
        os.path.getsize(name)
        for name in j.segment_names()
        if int(name.rsplit(".", 1)[1]) >= j.base_seq
    )
    j.close()
    return n


def test_round_trip_and_reopen(tmp_path):
    path = str(tmp_path / "journal.bin")
    j = Journal(path)
    assert (j.base_seq, j.last_seq, j.records()) == (0, 0, [])
    payloads = [b"", b"\x00", b"\xa5\xa5", bytes(range(256))[:255]] + [
        bytes([i]) * 5 for i in range(200)
    ]
    seqs = [j.append(p) for p in payloads]
    assert seqs == list(range(1, len(payloads) + 1))
    assert j.size_bytes == _game_bytes(tmp_path)
    assert len(j.segment_names()) > 5  # small segment files (inline on littlefs)
    j.close()
    j = Journal(path)
    assert j.last_seq == len(payloads) and j.dropped_bytes == 0
    assert j.records() == list(zip(seqs, payloads))
    assert j.records(130, limit=3) == list(zip(seqs, payloads))[130:133]
    assert j.records(j.last_seq) == []
    n = j.last_seq
    assert j.append_many([b"a", b"", b"c"]) == n + 3 and j.append_many([]) == n + 3
    assert j.records(n) == [(n + 1, b"a"), (n + 2, b""), (n + 3, b"c")]
    assert Journal(path).records(n) == j.records(n)


def test_paged_reading_as_sync_does(tmp_path):
    j = Journal(str(tmp_path / "j.bin"))
    for i in range(100):
        j.append(b"e%d" % i)
    got, after = [], 0
    while True:
        page = j.records(after, limit=7)
        if not page:
            break
        got += page
        after = page[-1][0]
    assert got == [(i + 1, b"e%d" % i) for i in range(100)]
    # going back (a resumed sync that lost a page) still works after the cached position moved
    assert j.records(3, limit=2) == [(4, b"e3"), (5, b"e4")]


def test_reset_starts_a_game_and_keeps_the_previous(tmp_path):
    path = str(tmp_path / "j.bin")
    j = Journal(path)
    for i in range(5):
        j.append(b"g1-%d" % i)
    j.reset()
    assert (j.base_seq, j.last_seq, j.size_bytes) == (5, 5, 10)
    j.reset()  # an empty game: nothing to do
    assert (j.base_seq, [s for s, _ in j.records(0)]) == (5, [1, 2, 3, 4, 5])
    assert j.append(b"g2-0") == 6
    assert j.records(j.base_seq) == [(6, b"g2-0")]  # this game only
    assert [s for s, _ in j.records(0)] == [1, 2, 3, 4, 5, 6]  # sync reaches the previous game
    assert j.records(3, limit=3) == [(4, b"g1-3"), (5, b"g1-4"), (6, b"g2-0")]
    j.reset()
    j.append(b"g3-0")
    assert [s for s, _ in j.records(0)] == [1, 2, 3, 4, 5, 6, 7]  # within KEEP_BYTES: all kept
    j.close()
    j = Journal(path)
    assert (j.base_seq, j.last_seq) == (6, 7)
    assert [s for s, _ in j.records(0)] == [1, 2, 3, 4, 5, 6, 7]


def test_reset_keeps_earlier_games_up_to_keep_bytes(tmp_path, monkeypatch):
    path = str(tmp_path / "j.bin")
    monkeypatch.setattr(Journal, "KEEP_BYTES", 100)
    j = Journal(path)
    for game in range(6):
        for i in range(8):
            j.append(b"game %d event %d" % (game, i))  # 26 bytes a record: 2 segments a game
        j.reset()
    j.append(b"now")
    first = int(j.segment_names()[0].rsplit(".", 1)[1])
    # the game just ended (seqs 41-48) always stays; the one before it (≈ 200 bytes) does not
    # fit in 100 bytes
    assert first == 40
    assert j.records(0)[0][0] == first + 1 and j.records(0)[-1] == (49, b"now")
    assert j.records(0, 1) == j.records(first, 1)  # older: a gap sync can see
    assert len(os.listdir(tmp_path)) == len(j.segment_names())
    j.close()
    assert Journal(path).segment_names() == j.segment_names()
    monkeypatch.setattr(Journal, "KEEP_BYTES", 500)  # room for two games of about 230 bytes
    j = Journal(path)
    for game in range(4):
        for i in range(8):
            j.append(b"game %d event %d" % (game, i))
        j.reset()
    assert int(j.segment_names()[0].rsplit(".", 1)[1]) == j.base_seq - 3 * 8


class _CountingFS(jf.FakeFS):
    """Counts the files opened, as a boot on the board pays ~7 ms for each."""

    opened = 0

    def open(self, name, mode="rb"):
        self.opened += 1
        return super().open(name, mode)


@pytest.mark.parametrize("sizes", [True, False])
def test_a_boot_reads_only_this_games_segments_and_trims_as_if_it_had_read_all(sizes):
    """With the sizes from the listing (os.ilistdir on MicroPython), opening a journal reads the
    current game's segments only; the earlier games' flags are read when a trim needs them, and
    the trims are those of a journal that never closed."""
    cls = type("Kept", (Journal,), {"KEEP_BYTES": 1500})
    kept = jf.FakeFS(sizes=sizes)  # one journal object through every game
    reopened = _CountingFS(sizes=sizes)  # closed and opened again (a boot) at every step
    j = jf.make_journal(kept, cls)
    for game in range(9):
        for i in range(8 + game):
            payload = b"game %d event %d" % (game, i)
            j.append(payload)
            r = jf.make_journal(reopened, cls)
            r.append(payload)
            r.close()
        j.reset()
        r = jf.make_journal(reopened, cls)
        r.reset()
        starts = r._starts  # the game starts it knows: in order, each once
        assert starts == sorted(set(starts)) and starts[-1] == len(r.segment_names()) - 1
        r.close()
        assert sorted(reopened.files) == sorted(kept.files), game
    j.append(b"now")
    r = jf.make_journal(reopened, cls)
    r.append(b"now")
    r.close()
    assert reopened.files == kept.files
    names = j.segment_names()
    assert len(names) >= 6 and names[0] != jf.PATH + ".0"  # earlier games kept, and trimmed
    reopened.opened = 0
    r = jf.make_journal(reopened, cls)
    # this game's one segment (walked, then opened for appending); without the sizes, a size
    # read for each earlier segment
    assert reopened.opened == (2 if sizes else 1 + len(j.segment_names()))
    assert r.records(0) == j.records(0)
    assert (r.base_seq, r.last_seq, r.size_bytes) == (j.base_seq, j.last_seq, j.size_bytes)


@settings(max_examples=60, deadline=None)
@given(
    games=st.lists(st.integers(0, 30), min_size=1, max_size=12),
    boots=st.sets(st.integers(0, 400)),
    keep=st.sampled_from([0, 200, 700, 2000]),
    sizes=st.booleans(),
)
def test_boots_anywhere_leave_the_journal_a_never_closed_one_would(games, boots, keep, sizes):
    """A law: opening the journal again (a boot: the earlier games' flags unread) at any point of
    any games keeps and trims exactly what one journal object kept open through them does."""
    cls = type("Kept", (Journal,), {"KEEP_BYTES": keep})
    kept = jf.FakeFS(sizes=sizes)
    booted = jf.FakeFS(sizes=sizes)
    j = jf.make_journal(kept, cls)
    r = jf.make_journal(booted, cls)
    step = 0
    for g, n in enumerate(games):
        for i in range(n + 1):
            if step in boots:
                r.close()
                r = jf.make_journal(booted, cls)
            step += 1
            if i == n:
                j.reset()
                r.reset()
            else:
                payload = b"game %d event %d" % (g, i)
                assert j.append(payload) == r.append(payload)
            assert r._starts == sorted(set(r._starts))
    assert booted.files == kept.files
    assert r.records(0) == j.records(0)
    assert (r.base_seq, r.last_seq, r.size_bytes) == (j.base_seq, j.last_seq, j.size_bytes)


def test_torn_tail_dropped_and_append_follows_the_last_good_record(tmp_path):
    path = str(tmp_path / "j.bin")
    j = Journal(path)
    for _i in range(3):
        j.append(b"abc")
    j.close()
    good = os.path.getsize(path + ".0")
    with open(path + ".0", "ab") as f:
        f.write(bytes(encode_record(4, b"abcdef"))[:-1])  # the last CRC byte never made it
    j = Journal(path)
    assert (j.last_seq, j.dropped_bytes, os.path.getsize(path + ".0")) == (3, 10, good)
    assert j.append(b"new") == 4
    assert Journal(path).records(2) == [(3, b"abc"), (4, b"new")]


def test_a_corrupt_record_ends_the_journal(tmp_path):
    path = str(tmp_path / "j.bin")
    j = Journal(path)
    for i in range(5):
        j.append(b"rec%d" % i)
    j.close()
    data = bytearray(open(path + ".0", "rb").read())
    data[10 + 2 * 9 + 4] ^= 0x01  # a bit flip inside record 3's payload
    open(path + ".0", "wb").write(data)
    j = Journal(path)
    assert j.records() == [(1, b"rec0"), (2, b"rec1")]
    assert j.append(b"x") == 3


def test_bad_header_on_a_fresh_file_is_rebuilt(tmp_path):
    path = str(tmp_path / "j.bin")
    open(path + ".0", "wb").write(b"PTJ")  # cut while the header was written
    j = Journal(path)
    assert (j.base_seq, j.last_seq, j.records()) == (0, 0, [])
    assert j.append(b"a") == 1


def test_other_files_next_to_it_are_left_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a bare name, as on the board
    for name in (
        "journal.bin.run",
        "journal.bin.007",
        "journal.bin.x",
        "journal.binary.3",
        "main.py",
    ):
        (tmp_path / name).write_bytes(b"not a journal")
    j = Journal("journal.bin")
    for i in range(40):
        j.append(b"%d" % i)
    j.close()
    j = Journal("journal.bin")
    assert j.last_seq == 40 and j.dropped_bytes == 0
    assert all((tmp_path / n).exists() for n in ("journal.bin.run", "journal.bin.007", "main.py"))
    assert j.segment_names()[0] == "journal.bin.0"


def test_limits(tmp_path):
    j = Journal(str(tmp_path / "j.bin"))
    with pytest.raises(ValueError):
        j.append(bytes(256))
    assert j.last_seq == 0
    assert j.records(0, limit=0) == []
    # the record format: magic, length, varint seq, payload, CRC
    rec = encode_record(300, b"hi")
    assert bytes(rec[:5]) == b"\xa5\x02\xac\x02h"
    assert decode_record(rec, 0, 300) == (4, 6, 8)
    assert decode_record(rec, 0, 301) is None
    assert decode_record(rec[:-1], 0, 300) is None


def test_failed_append_recovers_on_the_next_one(tmp_path):
    fs = jf.FakeFS()
    j = jf.make_journal(fs, Journal)
    j.append(b"one")
    fs.budget = 4  # the flash fills up mid-record
    with pytest.raises(jf.PowerCut):
        j.append(b"two-two")
    fs.budget, fs.dead = -1, False  # space again (no reboot)
    assert j.append(b"three") == 2
    assert jf.make_journal(fs.copy(), Journal).records() == [(1, b"one"), (2, b"three")]


# -- power cut at every byte -----------------------------------------------------------------

TORN_START_STEPS = jf.SESSION_A[:6]
TORN_TAIL = bytes(encode_record(6, b"abcdef"))[:5]
AFTER_TORN = [("append", b"x"), ("many", [b"", b"y"]), ("reset",), ("append", b"yz")]


@pytest.mark.slow
def test_cut_at_every_byte_of_a_session():
    cuts, errors = jf.cut_everywhere(Journal, jf.SESSION_A)
    assert cuts > 400 and errors == []


@pytest.mark.slow
def test_cut_at_every_byte_of_games_that_push_old_games_out(monkeypatch):
    monkeypatch.setattr(Journal, "KEEP_BYTES", 40)
    steps = []
    for game in range(5):
        steps += [("append", b"g%d-%d" % (game, i) * 3) for i in range(5 + game)] + [("reset",)]
    steps.append(("append", b"last"))
    cuts, errors = jf.cut_everywhere(Journal, steps, trims=True)
    assert cuts > 500 and errors == [], errors[:3]


@pytest.mark.parametrize("junk", [b"", b"\xff" * 9, b"\x00" * 9, b"\xa5\x01\x0a"])
def test_cut_at_every_byte_after_a_torn_boot(junk):
    start, before = jf.prepare(Journal, TORN_START_STEPS, tail=TORN_TAIL)
    cuts, errors = jf.cut_everywhere(Journal, AFTER_TORN, start=start, before=before, junk=junk)
    assert cuts > 50 and errors == []


@pytest.mark.slow
@needs_micropython
def test_cut_at_every_byte_under_micropython():
    script = """
sys.path.insert(0, %r)
from presstime.device.journal import Journal
import journal_fakes as jf
from presstime.core.crc import crc16
cuts, errors = jf.cut_everywhere(Journal, jf.SESSION_A)
start, before = jf.prepare(Journal, jf.SESSION_A[:6], tail=b"\\xa5\\x06\\x06ab")
c2, e2 = jf.cut_everywhere(Journal, %r, start=start, before=before, junk=b"\\xff" * 5)
print(cuts + c2, len(errors) + len(e2))
for e in (errors + e2)[:5]:
    print(e)
""" % (os.path.join(ROOT, "tests"), AFTER_TORN)
    out = run_micropython(script, heap="256K").stdout.split("\n")
    cuts, nerr = out[0].split()
    assert int(cuts) > 450 and nerr == "0", out


@needs_micropython
def test_round_trip_under_micropython(tmp_path):
    script = """
from presstime.device.journal import Journal
p = %r
j = Journal(p)
for i in range(150):
    j.append(bytes([i & 0xFF, 1, 2, 3]))
j.reset()
j.append(b"g2")
j.close()
f = open(p + ".150", "ab"); f.write(b"\\xa5\\x09"); f.close()
j = Journal(p)
print(j.base_seq, j.last_seq, j.dropped_bytes, j.size_bytes)
print(j.records(149), j.records(0, 2))
print(j.append(b"z"))
""" % str(tmp_path / "j.bin")
    out = run_micropython(script, heap="256K").stdout.split("\n")
    assert out[0] == "150 151 2 18"
    assert (
        out[1] == "[(150, b'\\x95\\x01\\x02\\x03'), (151, b'g2')] "
        "[(1, b'\\x00\\x01\\x02\\x03'), (2, b'\\x01\\x01\\x02\\x03')]"
    )
    assert out[2] == "152"


# -- power cut at every block operation of the rp2 file system -------------------------------

# A whole game's worth of small event records (crossing littlefs's inline-file limit, metadata
# compactions and the 1-byte varint limit), then a new game.
LFS_SESSION = [("append", bytes([i & 0xFF, i >> 8, 3, 4, 5, 6])) for i in range(250)] + [
    ("many", [b"a" * 7, b"b" * 9, b"c"]),
    ("reset",),
    ("append", b"game 2"),
    ("append", b"\xa5" * 40),
]


def _lfs_cut_everywhere(steps, start, before, torn, step=1, cls=Journal, trims=False):
    base = bytearray(start)
    full = ld.mount(bytearray(base))
    jf.run_session(ld.LfsVolume(full), cls, steps, cut=littlefs.LittleFSError)
    total = full.context.ops
    errors = []
    for n in range(0, total + 1, step):
        buf = bytearray(base)
        fs = ld.mount(buf, budget=n, torn=torn)
        done, inflight, starts = jf.run_session(
            ld.LfsVolume(fs), cls, steps, cut=littlefs.LittleFSError
        )
        assert fs.context.cut or n == total
        try:
            err = jf.check_after_cut(
                lambda: ld.journal_on(ld.mount(buf), cls),
                before,
                done,
                inflight,
                starts if trims else None,
            )
        except littlefs.LittleFSError as e:  # the mount failed: the board would reformat
            err = "no boot: %r" % e
        if err:
            errors.append("cut after %d of %d ops: %s" % (n, total, err))
    return total, errors


@pytest.mark.slow
@pytest.mark.parametrize("torn", [False, True], ids=["clean", "torn"])
def test_cut_at_every_littlefs_operation(torn):
    total, errors = _lfs_cut_everywhere(LFS_SESSION, ld.formatted_image(), [], torn)
    assert total > 250 and errors == []


@pytest.mark.slow
def test_cut_at_every_littlefs_operation_while_old_games_are_removed():
    steps = []
    for game in range(4):
        steps += [("append", b"g%d-%d" % (game, i) * 4) for i in range(12)] + [("reset",)]
    steps.append(("append", b"last"))
    cls = type("Kept", (Journal,), {"KEEP_BYTES": 200})
    total, errors = _lfs_cut_everywhere(steps, ld.formatted_image(), [], True, cls=cls, trims=True)
    assert total > 50 and errors == [], errors[:3]


def test_cut_at_every_littlefs_operation_after_a_torn_tail():
    # A tail that littlefs itself never leaves, but a FAT board or a bug could: the recovery's
    # copy-and-rename must be cut-safe on littlefs too.
    buf = ld.formatted_image()
    fs = ld.mount(buf)
    vol = ld.LfsVolume(fs)
    before = jf.run_session(vol, Journal, TORN_START_STEPS, cut=littlefs.LittleFSError)[0]
    f = vol.open(jf.last_segment(fs.listdir(".")), "ab")
    f.write(TORN_TAIL)
    f.close()
    total, errors = _lfs_cut_everywhere(AFTER_TORN, buf, before, torn=True)
    assert total > 5 and errors == []


# -- the law: any appends, a cut anywhere, a prefix --------------------------------------------


@st.composite
def sessions(draw):
    one = st.binary(max_size=255).map(lambda p: ("append", p))
    many = st.lists(st.binary(max_size=60), max_size=6).map(lambda ps: ("many", ps))
    steps = draw(st.lists(st.one_of(one, many), max_size=25))
    for _ in range(draw(st.integers(0, 3))):
        steps.insert(draw(st.integers(0, len(steps))), ("reset",))
    return steps


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    steps=sessions(),
    where=st.floats(0, 1),
    junk=st.binary(max_size=12),
    keep=st.sampled_from([0, 300, 16384]),
    sizes=st.booleans(),
)
def test_any_session_cut_anywhere_leaves_a_prefix(steps, where, junk, keep, sizes):
    cls = type("Kept", (Journal,), {"KEEP_BYTES": keep})
    full = jf.FakeFS(sizes=sizes)
    jf.run_session(full, cls, steps)
    fs = jf.FakeFS(budget=int(full.used * where), junk=junk, sizes=sizes)
    done, inflight, starts = jf.run_session(fs, cls, steps)
    disk = fs.copy()
    err = jf.check_after_cut(lambda: jf.make_journal(disk, cls), [], done, inflight, starts)
    assert err is None, err


def test_compiles_with_mpy_cross(tmp_path):
    mpy_cross = shutil.which("mpy-cross")
    if mpy_cross is None:
        pytest.skip("no mpy-cross")
    out = str(tmp_path / "journal.mpy")
    subprocess.run([mpy_cross, "-o", out, journal_mod.__file__], check=True)
    assert os.path.getsize(out) > 0


@settings(max_examples=40, deadline=None)
@given(steps=sessions(), where=st.floats(0, 1), torn=st.booleans())
def test_any_session_cut_anywhere_on_littlefs_leaves_a_prefix(steps, where, torn):
    base = ld.formatted_image()
    full = ld.mount(bytearray(base))
    jf.run_session(ld.LfsVolume(full), Journal, steps, cut=littlefs.LittleFSError)
    buf = bytearray(base)
    fs = ld.mount(buf, budget=int(full.context.ops * where), torn=torn)
    done, inflight, starts = jf.run_session(
        ld.LfsVolume(fs), Journal, steps, cut=littlefs.LittleFSError
    )
    err = jf.check_after_cut(
        lambda: ld.journal_on(ld.mount(buf), Journal), [], done, inflight, starts
    )
    assert err is None, err


# -- the device boots after a cut anywhere in a whole game's journal writes ----------------------


def _game_steps():
    """The journal calls the App makes in a scripted 6-player, 3-round game
    (bench/firmware_game)."""
    import sys

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import firmware_game
    from presstime.device.app import App, MemMark
    from presstime.device.ports.fake import FakePort

    steps = []

    class Logged(Journal):
        def append_many(self, payloads):
            payloads = [bytes(p) for p in payloads]
            steps.append(("many", payloads))
            return Journal.append_many(self, payloads)

        def reset(self):
            if self.last_seq != self.base_seq:
                steps.append(("reset",))
            Journal.reset(self)

    def app(port, journal, config=None):
        return App(port, journal, config, marks=MemMark())

    fs = jf.FakeFS()
    firmware_game.play(app, FakePort, jf.make_journal(fs, Logged))
    return steps


# what the App makes of a phase that a cut interrupted (its rules, not the journal's)
_AFTER_A_CUT = {"running": ("paused",), "countdown": ("ready",), "grace": ("summary",)}


def test_device_boots_after_a_cut_at_every_littlefs_operation_of_a_game():
    from presstime.core import events as E
    from presstime.device.app import App, MemMark
    from presstime.device.ports.fake import FakePort

    steps = _game_steps()
    assert sum(len(s[1]) for s in steps if s[0] == "many") > 25
    base = ld.formatted_image()
    full = ld.mount(bytearray(base))
    jf.run_session(ld.LfsVolume(full), Journal, steps, cut=littlefs.LittleFSError)
    total = full.context.ops
    errors = []
    for n in range(total + 1):
        buf = bytearray(base)
        fs = ld.mount(buf, budget=n, torn=n % 2 == 1)
        done, inflight, _ = jf.run_session(
            ld.LfsVolume(fs), Journal, steps, cut=littlefs.LittleFSError
        )
        copy = bytearray(buf)
        err = jf.check_after_cut(lambda: ld.journal_on(ld.mount(copy), Journal), [], done, inflight)
        if err is None:
            # the device boots: the App rebuilds its state from what survived, and works
            j = ld.journal_on(ld.mount(buf), Journal)
            kept = j.records(0)
            try:
                app = App(FakePort(), j, marks=MemMark())
                app.step()
                phase = app.status()["phase"]
                want = E.replay(p for s, p in kept if s > j.base_seq).status()["phase"]
                if j.records(0)[: len(kept)] != kept:
                    err = "the boot changed the records it found"
                elif phase != want and phase not in _AFTER_A_CUT.get(want, ()):
                    err = "booted in phase %s, the records say %s" % (phase, want)
            except Exception as e:  # noqa: BLE001 - any failure to boot is the finding
                err = "no boot: %r" % e
        if err:
            errors.append("cut after %d of %d ops: %s" % (n, total, err))
    assert total > 20 and errors == [], errors[:3]


@pytest.mark.slow
def test_cut_at_every_byte_of_a_game():
    cuts, errors = jf.cut_everywhere(Journal, _game_steps())
    assert cuts > 400 and errors == [], errors[:3]
