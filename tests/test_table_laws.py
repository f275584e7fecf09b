"""Laws of the round machine, over random command sequences in every mode (hypothesis):
- replaying the journal's events rebuilds the live state (what `presstime sync` relies on);
- tokens held are exactly 1..k, each once; the version only grows;
- round time never runs backwards while running, and stops while paused;
- a power cut after any event boots to a sane state (replay + recover never fails)."""

import sys

import pytest
from hypothesis import given, settings, strategies as st

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core import events as E  # noqa: E402
from presstime.core.table import PAUSED, RUNNING, Table  # noqa: E402

MODES = [
    ("standard", 4, {}),
    ("standard", 3, {"two_step": True, "grace_fallback": "rotate"}),
    ("solo", 1, {}),
    ("family", 3, {}),
    ("puzzle", 2, {}),
    ("turn-based", 3, {}),
    ("ready-reveal", 3, {"game": "heat"}),
    ("ready-reveal", 2, {"game": "mini-fits", "cards": 3}),
    ("turns", 3, {"turn_ms": 20000}),
]

OPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "press",
                "press",
                "press",
                "control",
                "tick",
                "pause",
                "resume",
                "undo",
                "abort",
                "photo",
                "next",
            ]
        ),
        st.integers(0, 5),  # player
        st.integers(0, 40000),  # ms since the previous op
        st.integers(0, 999),
    ),
    max_size=60,
)


def _live(st_):
    """The status without what is live-only by design: undo (not across a reboot) and the
    reveal flash's age (display only)."""
    st_ = dict(st_)
    st_.pop("undo")
    st_.pop("reveal_ms", None)
    return st_


def _check_tokens(t):
    held = sorted(x for x in t.tok if x)
    assert held == list(range(1, len(held) + 1))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(MODES), OPS)
def test_replay_rebuilds_live_state_and_invariants_hold(mode, ops):
    name, n, opts = mode
    t = Table()
    cfg = {"players": n, "mode": name, "duration_ms": 60000, "options": dict(opts)}
    t.configure(cfg, 0)
    now = 0
    log = [E.encode(ev) for ev in t.drain()]
    version = t.version
    for op, p, dt, us in ops:
        now += dt
        p = p % n
        before_phase = t.phase
        before_e = t.elapsed_ms(now - dt) if before_phase in (RUNNING, PAUSED) else None
        if op == "press":
            t.press(p, now * 1000 + us)
        elif op == "photo":
            t.photo(p, now)
        elif op == "tick":
            t.tick(now)
        else:
            getattr(t, op)(now)
        t.tick(now)
        assert t.version >= version
        version = t.version
        _check_tokens(t)
        if before_phase == PAUSED and t.phase == PAUSED:
            assert t.elapsed_ms(now) == before_e
        if before_phase == RUNNING and t.phase == RUNNING and before_e is not None:
            assert t.elapsed_ms(now) >= before_e
        log.extend(E.encode(ev) for ev in t.drain())
    again = E.replay(log)
    assert _live(again.status(now)) == _live(t.status(now))
    # a power cut after every event: boot, recover, keep going
    for k in range(len(log) + 1):
        b = E.replay(log[:k])
        b.recover(0)
        b.drain()
        assert b.phase not in (RUNNING,)
        _check_tokens(b)
        b.tick(1000)
        b.control(2000)
        b.tick(6000)
