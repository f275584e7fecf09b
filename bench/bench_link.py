"""Link (issue 4): syncing a complete 6-player, 3-round game from the simulator over a pty.

The simulator (the firmware App + Link under CPython) serves one end of os.openpty(); the
desktop's BoardClient (pyserial) pulls the whole journal into a fresh sqlite store with
journal.pull, as `presstime sync` does. Bytes are counted on the desktop's side of the
wire, both directions (frames, delimiters, CRCs, the hello); the journal's size is the board's
journal file for that game (header and per-record seq+CRC included).
"""

import os
import statistics
import tempfile
import time

from targets import at_most

KEYS = ["sync_bytes_full_game", "sync_ms_full_game", "sync_ratio_to_journal"]
TARGETS = {"sync_bytes_full_game": at_most(2048), "sync_ratio_to_journal": at_most(1.5)}
RUNS = 7


def play_game(sim):
    from presstime.board.link import BoardClient, SerialTransport

    c = BoardClient(SerialTransport(sim.path))
    c.hello()
    c.configure(
        {
            "game": "fit-to-print",
            "mode": "standard",
            "edition": "published",
            "duration_ms": 240000,
            "players": [{"name": n} for n in ("Ada", "Ben", "Cy", "Dee", "Eve", "Fay")],
        }
    )
    for r in range(3):
        c.start()
        while c.status()["phase"] != "running":
            time.sleep(0.05)
        for b in ((r * 2 + k * 5) % 6 for k in range(6)):
            c.press(b)
            time.sleep(0.02)
        while c.status()["phase"] != "summary":
            time.sleep(0.02)
        c.next_round()
    assert c.status()["phase"] == "over"
    c.close()


def measure():
    from presstime.board.link import BoardClient, SerialTransport
    from presstime.history.store import Store
    from presstime.sim.headless import Simulator
    from presstime.sync.journal import pull

    tmp = tempfile.mkdtemp(prefix="presstime-bench-")
    os.environ.setdefault("PRESSTIME_RUNTIME", os.path.join(tmp, "run"))
    sim = Simulator(journal=os.path.join(tmp, "journal.bin")).start()
    try:
        play_game(sim)
        journal_bytes = sim.app.journal.size_bytes
        times, sizes = [], []
        for i in range(RUNS):
            store = Store(os.path.join(tmp, "h%d.db" % i))
            c = BoardClient(SerialTransport(sim.path))
            t0 = time.perf_counter()
            board_id, added = pull(c, store)
            times.append((time.perf_counter() - t0) * 1000)
            assert added == sim.app.journal.last_seq
            assert store.journal(board_id) == sim.app.journal.records(0)
            sizes.append(c.transport.bytes_in + c.transport.bytes_out)
            c.close()
            store.close()
    finally:
        sim.stop()
    wire_bytes = max(sizes)
    return {
        "sync_bytes_full_game": wire_bytes,
        "sync_ms_full_game": round(statistics.median(times), 2),
        "sync_ratio_to_journal": round(wire_bytes / float(journal_bytes), 3),
    }


if __name__ == "__main__":
    for k, v in measure().items():
        print("%s: %s" % (k, v))
