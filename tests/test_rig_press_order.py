"""Press stamps on the official firmware in the emulated RP2040 (the rp2emu rig): the Pico
port (ports/rp2.py, PIO capture + DMA ring) keeps each press's edge time through flash writes
and pixel writes. The experiment is rig/press_run.py: bench/rp2/press_probe.py polls the real
port on the board as the app does, rewrites a 4 KB file every 250 ms (a 45 ms sector erase
with interrupts off) and writes a pixel frame every loop, while the rig drives the button pins
at exact emulated instants."""

from rig.press_run import figures, press_run, schedule


def _inside(t, spans):
    return any(a <= t <= b for a, b in spans)


def test_two_players_20ms_apart_during_an_erase_keep_their_order(rig_dir, pico_image):
    # the probe's first flash write starts when its loop reaches 100 ms after its start (a few
    # ms later) and lasts about 70 ms: seat 3 presses 12 ms in, seat 1 20 ms later, both
    # released inside the write (the CPU sees neither edge until the write ends)
    presses = [(112_000, 3, 20_000), (132_000, 1, 10_000)]
    run = press_run(rig_dir, pico_image, presses)
    assert run.erases >= 1
    assert run.missing == 0 and run.extra == 0
    (p1, t1, s1), (p2, t2, s2) = sorted(run.matched, key=lambda m: m[1])
    assert (p1, p2) == (3, 1)
    assert _inside(t1, run.writes) and _inside(t2, run.writes)  # both during the write
    assert _inside(t2 + 10_000, run.writes)  # released during it too
    assert 0 <= s1 - t1 <= 40 and 0 <= s2 - t2 <= 40  # stamped at the edge
    assert 19_950 <= s2 - s1 <= 20_050  # 20 ms apart: not a tie


def test_seeded_presses_during_flash_and_pixel_writes(rig_dir, pico_image):
    f = figures(press_run(rig_dir, pico_image, schedule(5, 40)))
    assert f["missing"] == 0 and f["extra"] == 0
    assert f["in_flash_writes"] >= 4 and f["in_pixel_frames"] >= 1
    assert f["late_us_max"] <= 100  # never stamped more than 100 µs after its edge
    assert f["error_us_min"] >= 0  # nor before it (docs/press-capture.md, "The bug")
    assert f["inversions"] == 0


def test_the_hard_irq_fallback_is_late_during_an_erase(rig_dir, pico_image):
    """The fallback path (hard pin IRQ) on the same chip: the press is stamped when the CPU
    gets to it, after the write. This is what the PIO capture removes. The presses are spread
    over the whole write (12 ms apart, one per seat): where in it the sector erase falls depends
    on the flash's layout, which moves with the installed files (two presses at fixed instants
    fell inside it on one image and beside it on the next)."""
    presses = [(100_000 + 12_000 * i, i, 60_000) for i in range(6)]
    run = press_run(rig_dir, pico_image, presses, use_pio=False)
    late = [s - t for _, t, s in run.matched]
    assert run.erases >= 1 and max(late) > 1000
