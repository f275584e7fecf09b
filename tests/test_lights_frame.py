"""The board's way to the lights (device/app.py): core/lights.frame() into one reused list of
ints, rebuilt only when the state's version changed or the frame's until() came. Two laws, over
random games in every mode: (1) the reused list holds exactly what lights() gives for the same
status and instant, (2) a frame stays what lights() gives at every instant before its until()
while the version holds (and, in the countdown, within the countdown second, which the app
watches itself)."""

import copy
import random
import sys

import pytest
from hypothesis import given, settings, strategies as st

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core import lights as L, lights_rgb
from presstime.core.table import COUNTDOWN, Table  # noqa: E402

GAMES = [("fit-to-print", m) for m in ("standard", "solo", "puzzle", "family", "turn-based")] + [
    ("heat", "ready-reveal"),
    ("mini-fits", "ready-reveal"),
    ("myth-fits", "turns"),
]
COLOURS = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff", "#000000", "#123456"]
LAYOUTS = [
    (tuple(range(24)), None, 24),
    (tuple(range(18)), (18, 19, 20, 21, 22, 23), 24),
    ((1, 2, 3, 5, 6, 7, 9, 10), (24, 25, 26, 27, 28, 29), 30),
]


def _table(rng):
    game, mode = rng.choice(GAMES)
    for n in range(6, 0, -1):
        t = Table()
        try:
            t.configure(
                {
                    "game": game,
                    "mode": mode,
                    "duration_ms": rng.choice([10000, 65000, 240000]),
                    "players": [
                        {"name": "P%d" % i, "colour": rng.choice(COLOURS)} for i in range(n)
                    ],
                    "options": {
                        "grace_ms": rng.choice([0, 1000, 5000]),
                        "two_step": rng.random() < 0.3,
                        "turn_ms": rng.choice([0, 5000, 12000]),
                    },
                },
                0,
            )
            return t
        except ValueError:
            continue


def _walk(rng, t, steps):
    """The table through random presses and commands; yields the instant after each."""
    now = 0
    for _ in range(steps):
        now += rng.choice([1, 7, 60, 125, 333, 1000, 2500, 9000])
        a = rng.random()
        try:
            if a < 0.05:
                t.command("start", now)
            elif a < 0.35:
                t.press(rng.randrange(t.n), now * 1000)
            elif a < 0.38:
                t.toggle_pause(now)
            elif a < 0.45:
                t.control(now)
            elif a < 0.47:
                t.undo(now)
            elif a < 0.5:
                t.command("next", now)
            elif a < 0.52:
                t.photo(rng.randrange(t.n), now)
            elif a < 0.53:
                t.abort(now)
            elif a < 0.55:
                t.standings = rng.choice(
                    [None, {"out": [0], "winner": rng.choice([0, "P0", None])}]
                )
        except ValueError:
            pass
        t.tick(now)
        t.drain()
        yield now


@settings(max_examples=40)
@given(st.integers(0, 2**32))
def test_a_reused_frame_list_holds_what_lights_gives(seed):
    rng = random.Random(seed)
    t = _table(rng)
    ring, pp, size = rng.choice(LAYOUTS)
    px = [0] * size
    status, version, standings = None, -1, None
    for now in _walk(rng, t, 120):
        if t.version != version or t.standings is not standings:
            # as the app: one status dict per version (and standings pushed), refreshed
            status, version, standings = t.status(now), t.version, t.standings
        else:
            t.refresh(status, now)
        got = L.frame(px, status, now, ring, pp, 48, 400)
        assert got is px
        assert [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in px] == lights_rgb.lights(
            t.status(now), now, ring, pp, size
        )


@pytest.mark.slow
@settings(max_examples=40)
@given(st.integers(0, 2**32))
def test_a_frame_holds_until_its_until(seed):
    rng = random.Random(seed)
    t = _table(rng)
    ring, pp, size = rng.choice(LAYOUTS)
    for now in _walk(rng, t, 60):
        built = L.frame([0] * size, t.status(now), now, ring, pp)
        end = L.until()
        assert end > now
        if t.phase == COUNTDOWN:
            end = min(end, t.cd_t + 1000 * ((now - t.cd_t) // 1000 + 1))
        later = copy.deepcopy(t, {id(t.face): t.face})
        for at in sorted({now + 1, end - 1} | {rng.randrange(now, end) for _ in range(6)}):
            if not now <= at < min(end, now + 10000):
                continue
            later.tick(at)
            if later.version != t.version:
                break  # a new version: the app builds a new frame
            assert L.frame([0] * size, later.status(at), at, ring, pp) == built, (now, at, end)


@settings(max_examples=40)
@given(st.integers(0, 2**32))
def test_a_status_rewritten_in_place_equals_a_new_one(seed):
    """The board's lights keep one status dict all game (Table.status(t, st)): rewritten
    in place at every version, it holds exactly what a new status() holds, keys in the same
    order, and it stays the same dict (and the same player dicts) while the set-up holds."""
    import json

    rng = random.Random(seed)
    t = _table(rng)
    kept = t.status(0)
    players = list(kept["players"])
    for now in _walk(rng, t, 30):
        again = t.status(now, kept)
        assert again is kept
        assert all(a is b for a, b in zip(kept["players"], players))
        assert json.dumps(kept) == json.dumps(t.status(now))
