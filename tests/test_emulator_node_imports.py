"""What rig/rp2emu.py loads into the rig's node, read from the command it starts (no rig needed:
the process is a stand-in that exits at once). Every rp2_* and cp_* figure rests on this: the
timing model (rig/xip.mjs) on for the Pico and the MacroPad alike unless PRESSTIME_RIG_XIP=off,
the WFI fix for the MacroPad, and the MacroPad's link in emulated time when asked for."""

import os

import pytest

from rig import rp2emu


class _Exited:
    """A run.mjs that ended before it listened: start() raises RigError after recording it."""

    started = []

    def __init__(self, cmd, env=None, **kw):
        self.started.append((cmd, env))

    def poll(self):
        return 1

    def kill(self):
        pass


def started(monkeypatch, tmp_path, **kw):
    monkeypatch.setattr(rp2emu.subprocess, "Popen", _Exited)
    _Exited.started = []
    with pytest.raises(rp2emu.RigError):
        rp2emu.Emulator.start(str(tmp_path), **kw)
    ((cmd, env),) = _Exited.started
    imports = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--import"]
    return [os.path.basename(m) for m in imports], cmd, env


@pytest.mark.parametrize("board", ["pico", "macropad"])
def test_the_timing_model_is_loaded_for_every_board(monkeypatch, tmp_path, board):
    monkeypatch.delenv(rp2emu.XIP_ENV, raising=False)
    imports, cmd, _ = started(monkeypatch, tmp_path, board=board)
    assert "xip.mjs" in imports
    assert ("wfi.mjs" in imports) == (board == "macropad")


def test_the_model_is_left_out_only_when_asked(monkeypatch, tmp_path):
    monkeypatch.setenv(rp2emu.XIP_ENV, "off")
    imports, _, _ = started(monkeypatch, tmp_path, board="macropad")
    assert "xip.mjs" not in imports


def test_the_macropad_link_in_emulated_time_is_its_own_socket(monkeypatch, tmp_path):
    imports, _, env = started(monkeypatch, tmp_path, board="macropad", data_link=True)
    assert "datalink.mjs" in imports
    assert env["PRESSTIME_RIG_DATA_SOCK"].endswith("data.sock")
    imports, _, env = started(monkeypatch, tmp_path, board="macropad")
    assert "datalink.mjs" not in imports and "PRESSTIME_RIG_DATA_SOCK" not in env
