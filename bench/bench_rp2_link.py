"""The link on the official firmware: the app on the Raspberry Pi Pico build, in the emulated
RP2040 of the rp2emu rig (PRESSTIME_RP2EMU), paused mode, figures in emulated RP2040 time.

The desktop side is host/presstime/board/link.py's BoardClient over rig/transport.py's RigTransport:
its bytes land at exact emulated instants and its timeouts count emulated seconds. A reply is
timed from the instant the request was written to the instant its last byte was read, in
0.2 ms slices (the resolution).

  rp2_boot_first_ms        power-on to the hello reply (a hello is waiting from power-on;
                           presstime installed, filesystem formatted, empty journal); the
                           worst of three boots, rp2_boot_to_ready_ms, is bench_rp2_table's
  rp2_status_reply_ms      median over 16 status requests during a running 6-player round,
                           presses between them (some come right after a state change)
  rp2_status_reply_ms_max  the slowest of those 16
  rp2_sync_ms_full_game    `presstime sync`'s pull (hello, then pages) of a whole 3-round,
                           6-player game's journal into an empty history
  rp2_boot_with_12_games_ms  power-on to the hello reply with 12 played games in the journal
                           (5.6 KB in 33 segment files; a board keeps up to KEEP_BYTES, 16 KB,
                           of earlier games): a board switched on at a table that has used it
                           for a few evenings; the boot's target, as after one played game
Without the rig every figure is None, with one line on stderr saying how to enable it.
"""

import os
import shutil
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # rig/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from targets import at_most  # noqa: E402

KEYS = (
    "rp2_boot_first_ms",
    "rp2_status_reply_ms",
    "rp2_status_reply_ms_max",
    "rp2_sync_ms_full_game",
    "rp2_boot_with_12_games_ms",
)
TARGETS = {
    "rp2_status_reply_ms": at_most(20),
    "rp2_sync_ms_full_game": at_most(500),
    "rp2_boot_with_12_games_ms": at_most(600),
}
KEPT_GAMES = 12

MS = 1_000_000
STATUS_REQUESTS = 16


def _client(pico, slice_ns=None):
    from presstime.board.link import BoardClient
    from rig.transport import RigTransport

    t = RigTransport(pico) if slice_ns is None else RigTransport(pico, slice_ns)
    return BoardClient(t, timeout=2.0, retries=2), t


def boot_to_ready(pico):
    """ms from power-on (timeline 0) to the last byte of the hello reply."""
    client, t = _client(pico, 1 * MS)
    client.hello()
    return t.last_in_ns / MS


def status_replies(pico, client, t):
    client.configure(
        {"players": ["P%d" % (i + 1) for i in range(6)], "mode": "standard", "duration_ms": 120000}
    )
    client.start()
    pico.run(3600 * MS)  # the 3-2-1, into the round
    times = []
    for k in range(STATUS_REQUESTS):
        if k % 4 == 1:  # a press 30 ms before: the state just changed
            pico.press(k // 4, in_ns=0)
            pico.run(30 * MS)
        client.status()
        times.append((t.last_in_ns - t.last_out_ns) / MS)
        pico.run(150 * MS)
    return times


def game_journal(folder, games=1):
    """A journal of `games` whole games, made by the app's own code (bench/firmware_game.py) on
    the fake port: {board path: bytes} of its files, at the flash's top as an earlier firmware
    kept them (put them with put_files(..., clear="/journal"): the boot moves them into
    /journal/)."""
    import firmware_game
    from presstime.device.app import App
    from presstime.device.journal import Journal
    from presstime.device.ports.fake import FakePort

    path = os.path.join(folder, "journal.bin")
    j = Journal(path)
    for g in range(games):
        if g:
            j.reset()  # the next game's own journal game, as the app's configure() starts one
        firmware_game.play(App, FakePort, j, journal_path=path)
    j.close()
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            out["/" + name] = f.read()
    return out


def sync_full_game(pico, files):
    from presstime.history.store import Store
    from presstime.sync.journal import pull

    pico.run(600 * MS)  # the app is up
    pico.put_files(files, clear="/journal")
    client, t = _client(pico)
    client.hello()  # the app is up again, the journal replayed
    folder = tempfile.mkdtemp(prefix="presstime-bench-")
    store = Store(os.path.join(folder, "history.sqlite3"))
    try:
        t0 = pico.now()
        _, added = pull(client, store)
        t1 = pico.now()
    finally:
        store.close()
        shutil.rmtree(folder, ignore_errors=True)
    if added <= 0:
        raise RuntimeError("the sync pulled no records")
    return (t1 - t0) / MS, added


def boot_with_journal(pico, files):
    """ms from a power-on to the hello reply, `files` (a journal made by game_journal) on the
    flash where this firmware keeps them, in /journal/ (not at the top: moving an earlier
    firmware's journal in is a commit per file in the top folder's log, which every later path
    lookup reads through, so every import of every boot after it is slower), then a boot, then a
    power reset: the boot timed."""
    from presstime.board.link import BoardClient
    from rig.transport import RigTransport

    pico.run(800 * MS)
    pico.put_files({"/journal" + p: d for p, d in files.items()}, clear="/journal")
    pico.run(3000 * MS)
    pico.reset()
    t0 = pico.now()
    t = RigTransport(pico, 1 * MS)
    BoardClient(t, timeout=15.0, retries=0).hello()
    return (t.last_in_ns - t0) / MS


def measure():
    from bench_rp2_press import rig_image

    rig, image = rig_image("bench_rp2_link")
    if rig is None:
        return {k: None for k in KEYS}
    from rig.pico import EmulatedPico

    out = {}
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        out["rp2_boot_first_ms"] = round(boot_to_ready(pico), 1)
        client, t = _client(pico)
        times = status_replies(pico, client, t)
    out["rp2_status_reply_ms"] = round(statistics.median(times), 1)
    out["rp2_status_reply_ms_max"] = round(max(times), 1)
    folder = tempfile.mkdtemp(prefix="presstime-journal-")
    try:
        files = game_journal(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        ms, _ = sync_full_game(pico, files)
    out["rp2_sync_ms_full_game"] = round(ms, 1)
    folder = tempfile.mkdtemp(prefix="presstime-journal-")
    try:
        files = game_journal(folder, KEPT_GAMES)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        out["rp2_boot_with_12_games_ms"] = round(boot_with_journal(pico, files), 1)
    return out


if __name__ == "__main__":
    for k, v in measure().items():
        print("%s: %s" % (k, v))
