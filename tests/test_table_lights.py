"""The lights function: brightness cap and current budget, a draining ring, the pick order and
the winner, and player states that differ without colour."""

import sys

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core.lights import layout  # noqa: E402
from presstime.core.lights_rgb import frame_ma, lights  # noqa: E402
from presstime.core.table import Table  # noqa: E402

RING = tuple(range(24))


def table(players=6, **cfg):
    t = Table()
    if isinstance(players, int):
        players = [{"name": "P%d" % (i + 1), "colour": "#ffffff"} for i in range(players)]
    c = {"players": players, "duration_ms": 240000}
    c.update(cfg)
    t.configure(c)
    return t


def lum(c):
    return c[0] + c[1] + c[2]


def test_ring_layout_puts_players_on_the_ring():
    ring, pp = layout(RING, None, 6)
    assert pp == (0, 4, 8, 12, 16, 20) and len(ring) == 18 and not set(ring) & set(pp)
    ring, pp = layout((0, 1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11), 4)
    assert pp == (6, 7, 8, 9)


def test_cap_and_budget_on_every_frame():
    t = table()
    t.start(0)
    for ms in range(0, 250000, 777):
        t.tick(ms)
        px = lights(t.status(ms), ms, RING, None, 24)
        assert len(px) == 24
        assert max(max(c) for c in px) <= 48
        assert frame_ma(px) <= 400
    px = [(255, 255, 255)] * 24
    from presstime.core.lights_rgb import cap_frame

    assert frame_ma(cap_frame(list(px), cap=255, budget_ma=450)) <= 450


def test_ring_drains_as_time_runs():
    t = table(players=1, duration_ms=240000)
    t.start(0)
    counts = []
    for s in range(4, 243, 8):
        ms = s * 1000 + 200  # the blink phases are "on" at +200 ms
        t.tick(ms)
        px = lights(t.status(ms), ms, RING, (24,), 25)
        counts.append(sum(1 for c in px[:24] if lum(c)))
    assert counts[0] == 24
    assert all(a >= b for a, b in zip(counts, counts[1:]))
    assert counts[-1] <= 1


def _pattern(status, p, ring=RING, pp=(24, 25, 26, 27, 28, 29)):
    """Player p's light over 4 s, as brightness levels only (every player is white here)."""
    out = []
    for ms in range(0, 4000, 50):
        out.append(lum(lights(status, ms, ring, pp, 30)[pp[p]]))
    return tuple(out)


def test_player_states_differ_without_colour():
    t = table(players=6, options={"two_step": True})
    t.press(0, 1000)  # ready; others waiting
    st = t.status(0)
    waiting, ready = _pattern(st, 1), _pattern(st, 0)
    t.start(2000)
    t.tick(5000)
    t.press(1, 6000000)  # layout
    t.press(2, 6500000)
    t.press(2, 7000000)  # printed, token 1
    t.press(3, 7500000)
    t.press(3, 8000000)  # printed, token 2
    st = t.status(9000)
    reporting, lay, tok1, tok2 = _pattern(st, 0), _pattern(st, 1), _pattern(st, 2), _pattern(st, 3)
    t.tick(5000 + 240000)  # time-out (grace)
    t.tick(5000 + 246000)  # grace over: players 0, 1, 4, 5 forced
    st = t.status(260000)
    forced = _pattern(st, 0)
    pats = [waiting, ready, reporting, lay, tok1, tok2]
    assert len(set(pats)) == len(pats)
    # family mode: forced (fast blink) against done (steady)
    f = table(players=2, mode="family", duration_ms=60000)
    f.start(0)
    f.tick(3000)
    f.press(0, 4000000)
    f.tick(63000)
    st = f.status(63000)
    assert _pattern(st, 0) != _pattern(st, 1)
    assert forced not in (waiting, ready, reporting)


def test_pick_order_on_ring_between_rounds():
    t = table(players=["Ada", "Ben", "Cy"], duration_ms=60000)
    t.start(0)
    t.tick(3000)
    for i, p in enumerate((2, 0, 1)):
        t.press(p, (10 + i) * 1000000)
    st = t.status(20000)
    assert st["phase"] == "summary" and st["pick_order"] == [2, 0, 1]
    px = lights(st, 20000, RING, (24, 25, 26), 27)
    cols = [c for c in (st["players"][p]["colour"] for p in range(3))]
    capped = [tuple(v * 48 // 255 for v in c) for c in cols]
    assert px[0] == capped[2] and px[8] == capped[0] and px[16] == capped[1]
    assert px[7] == (0, 0, 0)  # a gap ends each segment


def test_winner_at_game_over_from_standings():
    t = table(players=["P1", "P2", "P3"], mode="puzzle")
    t.start(0)
    t.tick(3000)
    for p in range(3):
        t.press(p, (10 + p) * 1000000)
    t.next(20000)
    t.standings = {"totals": [10, 14, 9], "out": [2], "winner": "P2"}
    st = t.status(30000)
    assert st["phase"] == "over"
    seen = set()
    for ms in range(0, 500, 40):
        px = lights(st, ms, RING, (24, 25, 26), 27)
        seen.add(px[25])
        assert px[26] == (0, 0, 0)  # out of business: dark
    assert len(seen) >= 2  # the winner strobes


def test_win_display_when_the_photo_target_is_reached():
    t = table(players=["Ada", "Ben"], mode="turns")
    t.start(0)
    for k in range(3):
        t.photo(1, 1000 + k)
    st = t.status(2000)
    assert st["phase"] == "summary" and st["winner"] == 1
    seen = set()
    for ms in range(0, 500, 40):
        px = lights(st, ms, RING, (24, 25), 26)
        seen.add(px[25])
        assert lum(px[24]) < lum((48, 48, 48))  # the other player: faint
    assert len(seen) >= 2  # the winner strobes
