"""What the board loads at boot, on the official firmware (issue 9: rp2_boot_to_ready_ms).

On the rp2 firmware an import of a built-in module that Python code may extend (`time`, `array`,
`machine`, ...) looks for a file of that name on the flash first, at every import: 3.2 ms each in
the emulated RP2040, and our modules made 16 of them at boot. main.py resolves each once by its
u-name (the built-in itself, no search) and leaves it in sys.modules, which answers every later
import. The hard-IRQ fallback's EdgeRing is loaded only when the PIO capture is not used, and
the two PIO programs are kept assembled (ports/rp2_pio.py): they must be what the firmware's
own assembler makes of their source.
"""

from rig.rp2emu import MS

EXTENSIBLE = ("array", "binascii", "io", "json", "machine", "os", "select", "struct", "time")


def test_the_app_boots_with_the_built_ins_cached_and_no_fallback_module(rig_dir, pico_image):
    from rig.pico import EmulatedPico, PausedLink

    pico = EmulatedPico.start(rig_dir, pico_image, pty=False, paused=True)
    try:
        pico.run(800 * MS)
        PausedLink.client(pico).repl()  # the app leaves its loop; its modules stay
        pico.run(100 * MS)
        r = pico.exec(
            "import sys\n"
            "print([m for m in %r if sys.modules.get(m) is not __import__('u' + m)])\n"
            "print('presstime.device.ports.edge_ring' in sys.modules)\n"
            "print('presstime.device.ports.rp2_pio' in sys.modules)\n" % (EXTENSIBLE,)
        )
    finally:
        pico.close()
    assert not r.get("err"), r
    uncached, fallback, pio = r["out"].split()[:3]
    assert uncached == "[]"  # each one the built-in, from sys.modules
    assert fallback == "False"  # the PIO capture runs: no hard-IRQ ring loaded
    assert pio == "True"


def test_the_kept_pio_programs_are_what_the_assembler_makes(rig_dir, pico_image):
    from rig.pico import EmulatedPico, PausedLink

    pico = EmulatedPico.start(rig_dir, pico_image, pty=False, paused=True)
    try:
        pico.run(800 * MS)
        PausedLink.client(pico).repl()
        pico.run(100 * MS)
        # (fields 1-3 are where each PIO loaded the program: the app's run has set them)
        r = pico.exec(
            "from presstime.device.ports import rp2_pio as P\n"
            "c, w = P._assemble()\n"
            "print(len(c[0]), len(w[0]))\n"
            "print(list(c[0]) == list(P._CAPTURE[0]) and c[4:] == P._CAPTURE[4:])\n"
            "print(list(w[0]) == list(P._WS2812[0]) and w[4:] == P._WS2812[4:])\n"
        )
    finally:
        pico.close()
    assert not r.get("err"), r
    sizes, capture, ws2812 = r["out"].split("\n")[:3]
    assert sizes.split() == ["22", "4"]
    assert capture.strip() == "True" and ws2812.strip() == "True"
