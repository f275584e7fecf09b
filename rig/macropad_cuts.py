"""Power cuts on the emulated MacroPad (CircuitPython 10.2.1, its FAT on the 8 MB flash).

    r = cut_once(rig, image, seed, where)    # one Fit to Print round on the keys, the power
                                             # cut at a seeded instant, CircuitPython boots again
    r["hello"], r["records"]                 # what the app answers after the reboot
    r["cut"], r["torn"]                      # the rig's account of the cut, and what the torn
                                             # flash sector held (rig/fatimage.py)
    check(r)                                 # what the app promises (docs/journal.md), as a list
                                             # of broken promises (empty: kept)

The round (cut_plan): configure over usb_cdc.data, the encoder switch starts the round, four
players press, the round ends by its last token, the switch moves to the next day. The app
journals CONFIG at configure, START when it takes the start press, the round's GO,
PRESSes and END in one write when the round ends (ports/macropad.py hold_round_writes), NEXT
when it takes the next press. `where` aims the cut into one of those writes (its instant + a
seeded 10-150 ms: a FAT write is 1-3 flash sectors of 56 ms each) or anywhere ("any").
"""

import os
import random
import tempfile
import time

from presstime.core import events as E

from .macropad import EmulatedMacropad, client
from .macropad_games import Game, simulate
from .rp2emu import MS

CUT_CFG = {
    "game": "fit-to-print",
    "mode": "standard",
    "duration_ms": 10000,
    "players": [{"name": n} for n in ("Ada", "Ben", "Cy", "Di")],
}
BOOT_NS = 3500 * MS  # a warm boot: CircuitPython's USB is up at ~2.7 s
MARGIN_MS = 300  # a write begun this long before the cut has finished (56-170 ms)
WHERE = ("any", E.START, E.END, E.NEXT)


def cut_plan(t0):
    """One Fit to Print round on the keys from board ms t0: the encoder switch starts it, four
    players press, the round ends by its last token, the switch moves to the next day.
    Returns ([(board ms, button)], {event kind: board ms when the app writes it, "end"})."""
    start = t0 + 80 + 400
    go = start + 3000
    plan = [(t0, -1)]
    for seat, dt in ((2, 700), (0, 1300), (3, 1900), (1, 2600)):
        plan.append((go + 60 + dt, seat))
    last = plan[-1][0]
    nxt = last + 600
    plan.append((nxt, -1))
    return plan, {
        E.CONFIG: None,
        E.START: start,
        E.GO: last,
        E.PRESS: last,
        E.END: last,
        E.NEXT: nxt + 80 + 400,
        "end": nxt + 80 + 400 + 1500,
    }


def play_until(game, plan, until_ms, hold_ms=80):
    """Press the plan's keys on the board, those that go down before until_ms (the cut): a
    key still down then is let go at the cut (the rebooted board must not find a key held that
    the uncut run never had). Returns every edge of the plan (the uncut run's, for the
    simulator): [(t_us, button, down)]."""
    edges = []
    for at, b in plan:
        at_us = int(at * 1000)
        edges += [(at_us, b, True), (at_us + hold_ms * 1000, b, False)]
        if at < until_ms:
            game.press(b, at_ms=at, hold_ms=min(hold_ms, until_ms - at))
    return edges


def records_due(records, written, before_ms, margin_ms=MARGIN_MS):
    """How many of the uncut run's records the app had written (and closed) by before_ms:
    those of the writes that began at least margin_ms earlier."""
    n = 0
    for _, payload in records:
        k = E.decode(payload)[0]
        if written.get(k, 0) + margin_ms <= before_ms:
            n += 1
        else:
            break
    return n


def journal_after_cut(pad, wall_s=300):
    """After the reboot: (hello or None, records or None). One hello at a time, each given
    time to be answered (a hello sent while CircuitPython boots waits in usb_cdc.data's buffer)."""
    with pad.pump():
        deadline = time.monotonic() + wall_s
        while time.monotonic() < deadline:
            c = client(pad.data_pty, timeout=3.0)
            c.retries = 0
            try:
                hello = c.hello()
                recs = []
                for page in c.pages(0):
                    recs += page["records"]
                return hello, recs
            except Exception:
                time.sleep(0.2)
            finally:
                c.close()
    return None, None


def console_after(pad, text=""):
    """What CircuitPython printed on its console since the last read (its code.py banner, a
    traceback, safe mode)."""
    try:
        return text + pad.read()
    except Exception:
        return text


def journal_part(owner):
    """What a torn sector's owner (FatImage.owner) is to the journal, or None (not the
    journal's): a cluster no file owned before the round is one the app took since."""
    if owner == "free":
        return "journal data"
    if owner.endswith("journal.bin.run"):
        return "checkpoint"
    if owner.endswith("journal.bin.id"):
        return "board id"
    if owner.endswith("/journal/"):
        return "journal folder"
    if owner.endswith("journal-reserve.bin") or owner.endswith("/journal/pad"):
        return "reserve"  # taken, never written
    if "/journal.bin." in owner or owner.startswith("journal.bin"):
        return "journal data"
    return None


def classify(r):
    """The class of a cut: "between" (no flash operation in progress) or the torn operation and
    what its 4 KB flash sector held: e.g. "erase: journal data", "program: root dir + FAT"."""
    op = (r.get("cut") or {}).get("op")
    if not op:
        return "between writes"
    held = r.get("torn") or []
    names = []
    for h in held:
        n = journal_part(h) or (h if h in ("boot sector", "FAT", "root dir") else "app file")
        if n not in names:
            names.append(n)
    return "%s: %s" % (op.get("kind"), " + ".join(names) or "?")


def cut_once(rig, image, seed, where, keep=None, offset_ms=None, tear_bytes=None, mode="prefix"):
    """One run: configure, the round's edges, a cut at a seeded instant in `where` (a key of the
    script's write times, or "any"). Returns {"kinds": what the simulator journals, "due": how
    many of them were written before the cut, "hello", "records" after the reboot, "at",
    "cut": the rig's account of the cut, "torn": what the torn sector held, "class",
    "console": CircuitPython's console after the reboot}. `keep`: a folder to save the flash
    image left by the cut into (cut-<seed>.img), for a post-mortem."""
    from .fatimage import FLASH_SECTOR, FatImage

    rnd = random.Random(seed)
    fd, before = tempfile.mkstemp(suffix=".img", prefix="presstime-cut-")
    os.close(fd)
    pad = EmulatedMacropad.start(rig, image, paused=True)
    try:
        pad.run(BOOT_NS)
        pad.call(lambda c: c.hello())
        game = Game(pad, CUT_CFG)
        # the drive's layout before the round (to name what a torn sector held; clusters the
        # app allocates later show as "free")
        pad.save(before)
        plan, written = cut_plan(game.now_ms() + 200)
        written[E.CONFIG] = game.t_cfg
        if where == "any":
            at = rnd.uniform(game.now_ms(), written["end"])
        else:
            # inside (or right after) that write: it begins 20-30 ms after the instant (the
            # loop's next step, after the frame) and takes 2 flash sectors, 56 ms each
            at = written[where] + (offset_ms if offset_ms is not None else rnd.uniform(10, 150))
        edges = play_until(game, plan, at)
        sim = simulate(CUT_CFG, game.t_after_cfg, edges, written["end"])
        kinds = [E.decode(p)[0] for _, p in sim.journal.records(0)]
        due = records_due(sim.journal.records(0), written, at)
        pad.cut(at=int(pad.harness_ns(at)), seed=seed, mode=mode, tear_bytes=tear_bytes)
        game.run_to(at + 100)
        pad.read()
        pad.run(BOOT_NS)  # CircuitPython boots again
        cuts = pad.cuts()
        cut = cuts[-1] if cuts else None
        torn = []
        try:
            op = (cut or {}).get("op")
            if op:
                torn = FatImage.load(before).owner(op["unitAddr"] & ~(FLASH_SECTOR - 1))
        except ValueError:
            torn = ["?"]
        hello, records = journal_after_cut(pad)
        console = console_after(pad)
        if keep and hello is None:
            pad.save(os.path.join(keep, "cut-%d.img" % seed))
        r = {
            "kinds": kinds,
            "due": due,
            "hello": hello,
            "records": records,
            "at": at,
            "cut": cut,
            "torn": torn,
            "console": console,
            "seed": seed,
            "where": where,
        }
        r["class"] = classify(r)
        return r
    finally:
        pad.close()
        os.remove(before)


def check(r):
    """The promises of docs/journal.md ("The MacroPad") for one cut: [] when all held, else
    what broke. The app answers again; its journal is an unbroken chain from seq 1; it is a
    prefix of what the app journals in the uncut run (a boot may add the ABORT of a round it
    found in its countdown); and it holds every record written >= MARGIN_MS before the cut."""
    broken = []
    if r["hello"] is None:
        return ["the app did not answer after the cut"]
    records = r["records"] or []
    seqs = [s for s, _ in records]
    if seqs != list(range(1, len(records) + 1)):
        broken.append("the journal is not an unbroken chain: %s" % seqs[:40])
    got = [E.decode(p)[0] for _, p in records]
    if got and got[-1] == E.ABORT and E.START in got:
        got.pop()  # the boot took a round cut in its countdown back
    if got != r["kinds"][: len(got)]:
        broken.append(
            "records the game did not make: %s (the game's: %s)" % (_names(got), _names(r["kinds"]))
        )
    if len(got) < r["due"]:
        broken.append("records written before the cut are missing: %d of %d" % (len(got), r["due"]))
    return broken


def _names(kinds):
    return " ".join(E.NAMES[k] if 0 <= k < len(E.NAMES) else str(k) for k in kinds)


def lost(r):
    """Records written >= MARGIN_MS before the cut that are missing afterwards."""
    if r["hello"] is None:
        return r["due"]
    got = [E.decode(p)[0] for _, p in (r["records"] or [])]
    if got and got[-1] == E.ABORT and E.START in got:
        got.pop()
    good = 0
    for a, b in zip(got, r["kinds"]):
        if a != b:
            break
        good += 1
    return max(0, r["due"] - good)
