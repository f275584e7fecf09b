"""Power cuts on the emulated Pico's real flash: inside journal appends, checkpoint rewrites and
littlefs compactions, torn erases and programs included, and a boot after each.

A *segment* is a flash image of a game in progress plus what the table does after the board
boots from it (`ACTIVITY`: the control button, then players' presses), in paused mode, so every
boot of that image with the same commands runs the same way, cycle for cycle.

    ref = probe(rig, image, workdir)          # the segment without a cut: every flash op
                                              # (kind, t0, t1) and the journal after each op
    plan = plan_cuts(ref, seed, n)            # seeded instants: fractions of ops, gaps between
    result = cut_once(rig, image, ref, cut)   # boot, cut at that instant, boot again, check

The probe runs in slices shorter than a page program (0.7 ms), so every erase or program ends
its own slice (the rig runs a flash op whole, with the CPU stalled); its duration is the rig's
charge (45 ms per 4 KB sector, 0.7 ms per 256 B page), which gives its start. After each op the
flash is saved and the journal read from it offline (rig/flashfs.py): the records completed up to
that op. A cut's own report (the rig's `cuts`) says what it really hit.
"""

import hashlib
import inspect
import os
import pickle
import random
import shutil
import tempfile

from presstime.core import events as E
from presstime.history.store import Store
from presstime.sync.journal import pull

from . import flashfs
from .pico import EmulatedPico, cache_dir
from .rp2emu import MS, US, timing_id

SLICE_NS = 500 * US  # under one page program: one flash op per slice
ERASE_NS = 45 * MS  # the rig's charge per 4 KB sector erase
PAGE_NS = 700 * US  # ... per 256 B page program
# what the table does after the board boots from the segment's image (rig ns after power-on,
# button, hold ms): the control button (start / next / resume after a cut), then every player
# (a second of quiet round time between the two: a running round writes its checkpoint then)
ACTIVITY = ((500 * MS, -1, 80),) + tuple((1700 * MS + i * 100 * MS, i, 80) for i in range(6))
SEGMENT_NS = 2600 * MS  # the segment's length: the presses' journal write and checkpoints
BOOT_LIMIT_NS = 3000 * MS  # power-on to the app's first frame, at most
RECOVERY_KINDS = (E.CUT, E.ABORT, E.FORCE, E.END)  # what a boot may add after a cut


def _boot(rig, image, until=None):
    """The segment's board: paused, the activity scheduled (the parts before `until` only,
    a press that is down at `until` is let go then: the cut board must not see a held button
    at its next boot that the uncut one never had)."""
    pico = EmulatedPico.start(rig, image, pty=False, paused=True)
    for at, b, hold in ACTIVITY:
        up = at + hold * MS
        if until is not None and at >= until:
            continue
        if until is not None and up > until:
            up = until
        pico.set(pico.pin(b), 0, at=at)
        pico.set(pico.pin(b), None, at=up)
    return pico


def _state(pico, workdir, name):
    path = os.path.join(workdir, name)
    pico.save(path)
    try:
        fs = flashfs.mount(path)
        recs = flashfs.journal_records(fs)
        mark = flashfs.read(fs, flashfs.JOURNAL + ".run")
    finally:
        os.remove(path)
    return recs, mark


def probe(rig, image, workdir=None):
    """The segment without a cut: {"ops": [{kind, t0, t1, n, records, mark}], "records": final}.
    `records` after an op: how many journal records the flash holds once it is done."""
    workdir = tempfile.mkdtemp(prefix="presstime-probe-", dir=workdir)
    pico = _boot(rig, image)
    try:
        recs0, mark0 = _state(pico, workdir, "p.img")
        prev = pico.stats()["flash"]
        ops = []
        now = 0
        while now < SEGMENT_NS:
            now = pico.run(SLICE_NS)
            fl = pico.stats()["flash"]
            de = fl["erases"] - prev["erases"]
            dp = fl["programs"] - prev["programs"]
            if de or dp:
                if de + dp != 1:
                    raise AssertionError("two flash ops in one %d µs slice" % (SLICE_NS // US))
                if de:
                    kind, dur = (
                        "erase",
                        ERASE_NS * -(-(fl["eraseBytes"] - prev["eraseBytes"]) // 4096),
                    )
                else:
                    kind, dur = (
                        "program",
                        PAGE_NS * -(-(fl["programBytes"] - prev["programBytes"]) // 256),
                    )
                recs, mark = _state(pico, workdir, "p.img")
                ops.append(
                    {"kind": kind, "t0": now - dur, "t1": now, "records": len(recs), "mark": mark}
                )
            prev = fl
        final, _ = _state(pico, workdir, "p.img")
    finally:
        pico.close()
        shutil.rmtree(workdir, ignore_errors=True)
    _classify(ops, len(recs0), mark0)
    return {"ops": ops, "records": final, "start_records": len(recs0)}


def _classify(ops, n0, mark0):
    """Each op's class, from the flash after it: an erase is a littlefs compaction (or a block
    relocation); a program is part of the write whose commit it leads to, that is the first op
    from it on, in its burst (ops < 5 ms apart), after which the flash holds more journal records
    (a journal append) or another checkpoint file (a checkpoint rewrite); "other" when nothing a
    reader sees changes by the burst's end (a segment roll-over, a game reset, recovery)."""
    n, mark = n0, mark0
    change = []  # what changed at each op
    for op in ops:
        change.append(
            "journal append"
            if op["records"] > n
            else ("checkpoint" if op["mark"] != mark else None)
        )
        n, mark = op["records"], op["mark"]
    for i, op in enumerate(ops):
        what = None
        j = i
        while j < len(ops):
            if change[j]:
                what = change[j]
                break
            if j + 1 < len(ops) and ops[j + 1]["t0"] - ops[j]["t1"] >= 5 * MS:
                break
            j += 1
        op["purpose"] = what or "other"
        op["class"] = "compaction" if op["kind"] == "erase" else op["purpose"]


_PROBE_SOURCE = "".join(inspect.getsource(f) for f in (_boot, _state, probe, _classify))


def probe_cached(rig, image, workdir=None):
    """probe(), kept in the rig cache by the image's contents, the rig's harness and this module's
    way of probing
    (the segment's activity, its length, the slices, the classes): a segment is probed once."""
    h = hashlib.sha256()
    for path in (image, os.path.join(rig, "rp2emu.mjs")):
        with open(path, "rb") as f:
            h.update(f.read())
    h.update(repr((ACTIVITY, SEGMENT_NS, SLICE_NS, ERASE_NS, PAGE_NS)).encode())
    h.update(_PROBE_SOURCE.encode())
    h.update(timing_id().encode())
    path = os.path.join(cache_dir(), "probe-%s.pkl" % h.hexdigest()[:16])
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    ref = probe(rig, image, workdir)
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "wb") as f:
        pickle.dump(ref, f)
    os.replace(tmp, path)
    return ref


BETWEEN = "between ops"


def targets(ref):
    """Where a cut can aim in a segment: [(class, op index, aim)]: each op (its class; aim
    "erase"/"program") and each gap of more than 2 µs before an op (class BETWEEN)."""
    ops = ref["ops"]
    out = []
    for i, op in enumerate(ops):
        out.append((op["class"], i, op["kind"]))
        if i > 0 and op["t0"] - ops[i - 1]["t1"] > 2 * US:
            out.append((BETWEEN, i, "between"))
    return out


def plan_by_class(refs, seed, total):
    """`total` seeded cuts over several segments (`refs`: their probes), shared out evenly
    between the classes found (journal append, checkpoint, compaction, other, between ops),
    within a class in turn over its ops (or gaps) in every segment, and taken class after class
    (a run stopped early has cut every class). A target's k-th cut tears with the prefix mode
    when k is even, the random mode when odd. Returns [(segment index, cut)], a cut as
    plan_cuts makes it."""
    rng = random.Random(seed)
    by_class = {}
    for si, ref in enumerate(refs):
        for cls, i, aim in targets(ref):
            by_class.setdefault(cls, []).append((si, i, aim))
    classes = sorted(by_class)
    visits = {}
    plan = []
    turn = dict((c, 0) for c in classes)
    while len(plan) < total and classes:
        for cls in classes:
            if len(plan) >= total:
                break
            ts = by_class[cls]
            si, i, aim = ts[turn[cls] % len(ts)]
            turn[cls] += 1
            k = visits.get((si, i, aim), 0)
            visits[(si, i, aim)] = k + 1
            plan.append(
                (si, _cut(refs[si]["ops"], i, aim, "prefix" if k % 2 == 0 else "random", rng))
            )
    return plan


def _cut(ops, i, aim, mode, rng):
    op = ops[i]
    if aim == "between":
        lo, hi = ops[i - 1]["t1"] + US, op["t0"] - US
    else:
        lo, hi = op["t0"] + 1, op["t1"] - 1
    at = lo + int(rng.random() * (hi - lo))
    return {"at": at, "op": i, "mode": mode, "seed": rng.randrange(1 << 30), "aim": aim}


def plan_cuts(ref, seed, n, first=0):
    """`n` seeded cuts over the segment's ops: in turn a seeded fraction of an op (erases and
    programs alike, both tear modes) and a seeded instant in the gap before an op. Each:
    {at, op index it aims at or None, tear mode, seed, aim}."""
    rng = random.Random(seed)
    ops = ref["ops"]
    plan = []
    for k in range(n):
        i = (first + k) % len(ops) if ops else 0
        op = ops[i]
        mode = "prefix" if (first + k) % 2 == 0 else "random"
        if (first + k) % 3 == 2 and i > 0 and op["t0"] - ops[i - 1]["t1"] > 2 * US:
            lo, hi = ops[i - 1]["t1"] + US, op["t0"] - US  # between two ops
            at = lo + int(rng.random() * (hi - lo))
            aim = "between"
        else:
            at = op["t0"] + 1 + int(rng.random() * (op["t1"] - op["t0"] - 2))
            aim = op["kind"]
        plan.append({"at": at, "op": i, "mode": mode, "seed": rng.randrange(1 << 30), "aim": aim})
    return plan


def completed_before(ref, at):
    """Records the flash held once the last op that ended before `at` was done."""
    n = ref["start_records"]
    for op in ref["ops"]:
        if op["t1"] <= at:
            n = op["records"]
    return n


def in_flash_after(ref, at):
    """Records the flash may hold at most after a cut at `at` (the op in progress done)."""
    n = ref["start_records"]
    for op in ref["ops"]:
        if op["t0"] < at:
            n = op["records"]
    return n


def cut_once(rig, image, ref, cut, workdir):
    """Boot the segment, cut the power at cut["at"] (torn per its mode and seed), let the board
    boot again, then: the app answers (a reformatted flash has no app: no answer), a sync over
    the link (the desktop's pull, into a fresh history) gets the reference's records up to at
    least every one completed before the cut, then only what a boot after a cut adds, and the
    flash read offline holds the very same records. Returns a result dict (ok, class, ...)."""
    workdir = tempfile.mkdtemp(prefix="cut-", dir=workdir)
    pico = _boot(rig, image, until=cut["at"])
    res = {"at": cut["at"], "aim": cut["aim"], "mode": cut["mode"], "seed": cut["seed"]}
    try:
        pico.cut(at=cut["at"], tear=True, mode=cut["mode"], seed=cut["seed"])
        pico.run(cut["at"] + 1000 - pico.now())
        done = pico.cuts()
        if not done:
            raise AssertionError("the cut at %d did not happen" % cut["at"])
        info = done[-1]
        op = info.get("op")
        res["hit"] = op["kind"] if op else "between"
        res["class"] = ref["ops"][cut["op"]]["class"] if op else "between ops"
        if op:
            res["unit"] = op.get("unit")
            res["torn_bytes"] = op.get("newBytes", op.get("changedBytes"))
        # booted when the app draws its first frame on the ring (its loop runs, the link is
        # attached): only then does the desktop speak
        booted = None
        while booted is None and pico.now() < cut["at"] + BOOT_LIMIT_NS:
            pico.run(20 * MS)
            later = [t for t, _ in pico.frames() if t > cut["at"]]
            booted = later[0] if later else None
        if booted is None:
            raise AssertionError(
                "no frame on the ring within %d ms of the cut: the app did not "
                "boot" % (BOOT_LIMIT_NS // MS)
            )
        res["boot_ms"] = (booted - cut["at"]) / MS
        client = pico.client()
        hello = client.hello()
        res["fw"] = hello.get("fw")
        db = os.path.join(workdir, "cut.sqlite3")
        if os.path.exists(db):
            os.remove(db)
        with Store(db) as store:
            board_id, _ = pull(client, store)
            synced = store.journal(board_id)
        img = os.path.join(workdir, "cut.img")
        pico.save(img)
        on_flash = flashfs.journal_records(flashfs.mount(img))
    finally:
        pico.close()
        shutil.rmtree(workdir, ignore_errors=True)
    synced = [(s, bytes(p)) for s, p in synced]
    on_flash = [(s, bytes(p)) for s, p in on_flash]
    want = [(s, bytes(p)) for s, p in ref["records"]]
    k = 0
    while k < len(synced) and k < len(want) and synced[k] == want[k]:
        k += 1
    res["kept"] = k
    res["completed"] = completed_before(ref, cut["at"])
    res["lost"] = max(0, res["completed"] - k)
    extra = synced[k:]
    res["extra"] = [E.name(E.decode(p)[0]) for _, p in extra]
    problems = []
    if k < res["completed"]:
        problems.append(
            "records completed before the cut are missing: kept %d of %d" % (k, res["completed"])
        )
    if k > in_flash_after(ref, cut["at"]):
        problems.append("more records than were written")
    for s, p in extra:
        if E.decode(p)[0] not in RECOVERY_KINDS:
            problems.append(
                "record %d after the kept prefix is %s, not the reference's"
                % (s, E.name(E.decode(p)[0]))
            )
    if [s for s, _ in synced] != list(range(1, len(synced) + 1)):
        problems.append("the sync's seqs are not 1..%d" % len(synced))
    if on_flash != synced:
        problems.append("the flash holds other records than the sync pulled")
    res["problems"] = problems
    res["ok"] = not problems
    return res
