"""presstime devices and the automatic board choice, with made-up USB port listings."""

import json

import pytest

from presstime import cli
from presstime.board import ports as boards
from presstime.errors import BadInput, Failure


class P:
    def __init__(self, device, vid, pid, interface=None, serial_number=None, location=None):
        self.device, self.vid, self.pid = device, vid, pid
        self.interface, self.serial_number, self.location = interface, serial_number, location


MACROPAD = [
    P("/dev/ttyACM0", 0x239A, 0x8108, "CircuitPython CDC control", "M1", "1-1:1.0"),
    P("/dev/ttyACM1", 0x239A, 0x8108, "CircuitPython CDC2 control", "M1", "1-1:1.2"),
]
PICO_MPY = [P("/dev/ttyACM2", 0x2E8A, 0x0005, None, "E66", "1-2:1.0")]
OTHER = [P("/dev/ttyUSB0", 0x0403, 0x6001, None, "FT", "1-3:1.0"), P("/dev/ttyS0", None, None)]


@pytest.fixture(autouse=True)
def no_sims(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))


def test_circuitpython_data_port_is_the_cdc2_interface():
    found = boards.usb_boards(MACROPAD + OTHER)
    assert [(d["port"], d["role"], d["board"]) for d in found] == [
        ("/dev/ttyACM0", "console", "macropad"),
        ("/dev/ttyACM1", "data", "macropad"),
    ]
    assert boards.pick_port(None, MACROPAD + OTHER) == "/dev/ttyACM1"


def test_without_interface_names_the_second_interface_is_data():
    ports = [
        P("/dev/ttyACM0", 0x239A, 0x80F4, None, "C1", "1-1:1.0"),
        P("/dev/ttyACM1", 0x239A, 0x80F4, None, "C1", "1-1:1.2"),
    ]
    assert boards.pick_port(None, ports) == "/dev/ttyACM1"


def test_micropython_pico_and_choice_rules():
    assert boards.pick_port(None, PICO_MPY + OTHER) == "/dev/ttyACM2"
    assert boards.pick_port("/dev/ttyX", PICO_MPY + MACROPAD) == "/dev/ttyX"
    with pytest.raises(BadInput) as e:
        boards.pick_port(None, PICO_MPY + MACROPAD)
    assert "--port" in e.value.messages[0]
    with pytest.raises(Failure) as e:
        boards.pick_port(
            None, MACROPAD[:1]
        )  # only the console: boot.py did not enable the data port
    assert "boot.py" in str(e.value)
    assert boards.pick_port(None, OTHER, allow_none=True) is None


def test_devices_json(monkeypatch, capsys):
    real = boards.usb_boards
    monkeypatch.setattr(boards, "usb_boards", lambda comports=None: [])
    assert cli.main(["devices", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    monkeypatch.setattr(boards, "usb_boards", lambda comports=None: real(PICO_MPY))
    assert cli.main(["devices"]) == 0
    out = capsys.readouterr().out
    assert "/dev/ttyACM2" in out and "2E8A:0005" in out and "used automatically" in out
