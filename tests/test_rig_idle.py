"""The app sleeps on the official firmware (emulated RP2040, the rp2emu rig): the rig counts
the cycles the CPU is not in WFI. The app as installed (main.py), driven over its own USB
link in paused mode (deterministic)."""

from rig.pico import PausedLink
from rig.rp2emu import MS

CFG = {
    "players": [
        {"name": "P%d" % i, "colour": c}
        for i, c in enumerate(("#ff0000", "#00ff00", "#0000ff", "#ffff00"))
    ],
    "duration_ms": 60000,
}


def _busy(pico, ns):
    s0 = pico.stats()
    pico.run(ns)
    s1 = pico.stats()
    return (s1["activeCycles"] - s0["activeCycles"]) / (s1["cycles"] - s0["cycles"])


def test_the_loop_sleeps_between_its_due_instants(rig_dir, pico_image):
    from rig.pico import EmulatedPico

    with EmulatedPico.start(rig_dir, pico_image, pty=False, paused=True) as pico:
        pico.run(300 * MS)
        link = PausedLink.client(pico)
        link.hello()
        assert _busy(pico, 1000 * MS) < 0.05  # set-up: nothing to show, asleep
        link.configure(CFG)
        link.start()
        pico.run(3200 * MS)  # the 3 s countdown
        assert link.status()["phase"] == "running"
        assert _busy(pico, 2000 * MS) < 0.20  # a round: the ring drains, blinks


def test_the_ring_is_lit_while_a_round_runs(rig_dir, pico_image):
    """Frames go out only when a pixel changes: after the start, at least the countdown's."""
    from rig.pico import EmulatedPico

    with EmulatedPico.start(rig_dir, pico_image, pty=False, paused=True) as pico:
        pico.run(300 * MS)
        link = PausedLink.client(pico)
        link.configure(CFG)
        link.start()
        t0 = pico.now()
        pico.run(5200 * MS)
        frames = [f for f in pico.frames() if f[0] > t0]
        assert len(frames) >= 3 and any(any(c != (0, 0, 0) for c in px) for _, px in frames)
