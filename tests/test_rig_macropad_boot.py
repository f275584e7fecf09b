"""The MacroPad build on the official CircuitPython 10.2.1 firmware in the emulated RP2040 (the
rp2emu rig): installed over the REPL by `presstime install-firmware --board macropad --port`,
it boots from code.py and answers on usb_cdc.data; `watch` and `sync` work against it; boot.py
keeps the drive for the computer when KEY1 is held; and the CircuitPython facts the port relies
on (the board's pins, the clock's power-on origin) hold on the real firmware."""

import json

from presstime import cli
from presstime.device.boards import macropad as board
from rig.macropad import GPIO, EmulatedMacropad
from rig.rp2emu import MS


def test_installed_app_boots_from_code_py_and_answers_on_the_data_port(macropad):
    c = macropad.client()
    try:
        hello = c.hello()
        st = c.status()
    finally:
        c.close()
    assert hello["board"] == "macropad" and hello["fw"]
    assert hello["id"].startswith("macropad-")
    assert st["phase"] == "setup"
    # the board's clock counts from power-on (ports/macropad.py): the status was built within
    # the last few seconds of the chip's own time
    chip_ms = macropad.chip_ns() / MS
    assert 0 <= chip_ms - st["t_ms"] < 5000


def test_watch_once_and_sync_against_the_board(macropad, tmp_path, capsys):
    assert cli.main(["watch", "--once", "--json", "--port", macropad.data_pty]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["phase"] == "setup"
    db = str(tmp_path / "h.db")
    assert cli.main(["sync", "--port", macropad.data_pty, "--db", db, "--json"]) == 0
    synced = json.loads(capsys.readouterr().out)
    assert synced["board"].startswith("macropad-")


def _console_exec(pad, code):
    """Stop code.py on the console (Ctrl-C) and run `code` in the raw REPL."""
    pad.write("\x03")
    pad.run(300 * MS)
    pad.write("\r")
    pad.run(300 * MS)
    r = pad.exec(code)
    assert not r["err"], r["err"]
    return r["out"]


def test_pins_and_clock_origin_are_what_the_rig_and_the_port_assume(macropad):
    out = _console_exec(
        macropad,
        (
            "import board, microcontroller, supervisor\n"
            "names = %r\n"
            "print([n for n in names if getattr(board, n) is not getattr(microcontroller.pin, "
            "'GPIO%%d' %% names[n])])\n"
            "print((supervisor.ticks_ms() - ((1 << 29) - 65536)) %% (1 << 29))\n"
        )
        % GPIO,
    )
    lines = out.split()
    assert out.splitlines()[0] == "[]"  # every name sits on the GPIO the rig drives
    chip_ms = macropad.chip_ns() / MS
    since_power_on = int(lines[-1])
    assert 0 <= chip_ms - since_power_on < 100  # ticks_ms started at 2**29 - 65536


def test_key1_held_at_reset_leaves_the_drive_to_the_computer(rig_dir, macropad_image):
    # held from power-on: boot.py does not remount, code.py runs with the journal in RAM
    pad = EmulatedMacropad.start(rig_dir, macropad_image, held=(board.EDIT_MODE_KEY,))
    try:
        assert pad.wait_hello() is not None
        pad.release_key(board.EDIT_MODE_KEY)
        out = _console_exec(
            pad,
            "import storage, os\nprint(storage.getmount('/').readonly)\n"
            "print(sorted(f for f in os.listdir('/') if f.startswith('journal')))",
        )
        assert out.splitlines()[0] == "True"  # read-only to code: writable for the computer
    finally:
        pad.close()
    # not held: the drive is the firmware's (writable to code) and the journal is on it, in its
    # folder, made after the reserve (ports/macropad.py)
    pad = EmulatedMacropad.start(rig_dir, macropad_image)
    try:
        assert pad.wait_hello() is not None
        out = _console_exec(
            pad,
            "import storage, os\nprint(storage.getmount('/').readonly)\n"
            "print(sorted(os.listdir('/journal')))\n"
            "print(os.stat('/journal-reserve.bin')[6])",
        )
        lines = out.splitlines()
        assert lines[0] == "False"
        assert "journal.bin.0" in lines[1]
        assert lines[2] == str(1790 * 1024)
    finally:
        pad.close()
