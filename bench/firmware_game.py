# SPDX-License-Identifier: MIT
"""A scripted whole game through the App and the fake port (CPython and MicroPython).

Used by tests/test_table_app.py and bench/bench_firmware.py (firmware_min_heap_kb):
six players, three rounds of 3:00; in each round most players print early (one pair closer
than 1 ms: a tie), one presses in the grace window and one is forced at its end.
`play(App, FakePort, journal, players=6, step_ms=10) -> summary dict`.
"""


def play(App, FakePort, journal, players=6, step_ms=10, duration_ms=180000):
    port = FakePort(players=players, pixels=24)
    names = ["P%d" % (i + 1) for i in range(players)]
    app = App(port, journal, {"players": names, "mode": "standard", "duration_ms": duration_ms})
    orders = []
    steps = 0
    for rnd in range(3):
        t0 = port.now_ms() + 20
        port.tap(-1, at_ms=t0)                       # control: start (taken 0.4 s after release)
        go = t0 + 80 + 400 + 3000                    # release + double-press window + 3-2-1
        base = go * 1000
        for p in range(players - 2):                 # early prints, seat order rotated per round
            q = (p + rnd) % players
            port.edge(q, True, base + (20000 + 7000 * p) * 1000)
            port.edge(q, False, base + (20000 + 7000 * p) * 1000 + 80000)
        q = (players - 2 + rnd) % players
        port.edge(q, True, base + (20000 + 7000 * (players - 3)) * 1000 + 400)   # a tie
        port.edge(q, False, base + (20000 + 7000 * (players - 3)) * 1000 + 90000)
        late = (players - 1 + rnd) % players
        if rnd != 1:                                 # round 2: nobody presses in the grace window
            port.edge(late, True, base + (duration_ms + 2000) * 1000)
            port.edge(late, False, base + (duration_ms + 2100) * 1000)
        limit = steps + (duration_ms + 60000) // step_ms
        while app.table.phase != 6:                  # SUMMARY
            port.advance(step_ms)
            app.step()
            steps += 1
            if steps > limit:
                raise RuntimeError("round %d never ended: %r" % (rnd + 1, app.table.status()["phase"]))
        orders.append(app.table.pick_order())
        port.tap(-1, at_ms=port.now_ms() + 10)       # control: next day / game over
        for _ in range(100):
            port.advance(step_ms)
            app.step()
            steps += 1
    return {"phase": app.table.status()["phase"], "orders": orders, "steps": steps,
            "records": journal.last_seq, "shows": port.shows, "beeps": len(port.beeps)}
