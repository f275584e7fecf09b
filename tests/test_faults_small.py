"""Issue 10, items 11 and 12: installing over a folder that is not a board, the board's names,
adverts in a folder another user controls, a command meant to be pasted, `play` on closed input."""

import json
import os
import subprocess
import sys

import pytest

from presstime import cli
from presstime.board import deploy, ports
from presstime.errors import BadInput
from test_install_firmware import drive, fake_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_folder_without_boot_out_is_refused_unless_the_user_says_so(tmp_path):
    fw = fake_firmware(tmp_path)
    d = drive(tmp_path, boot_out=False)
    for name, text in (("code.py", "my code"), ("boot.py", "my boot")):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    with pytest.raises(BadInput, match="not a CircuitPython drive.*--force"):
        deploy.install_circuitpython(drive=d, firmware=fw, say=lambda s: None)
    assert open(os.path.join(d, "code.py")).read() == "my code" and not os.path.exists(
        os.path.join(d, "lib")
    )
    assert (
        deploy.install_circuitpython(drive=d, firmware=fw, say=lambda s: None, force=True)
        == "9.9.9"
    )
    assert open(os.path.join(d, "code.py")).read() != "my code"


def test_install_firmware_cli_refuses_the_folder_with_exit_2(tmp_path, capsys):
    d = drive(tmp_path, boot_out=False)
    assert cli.main(["install-firmware", "--board", "macropad", "--drive", d]) == 2
    assert "--force" in capsys.readouterr().err
    assert cli.main(["install-firmware", "--board", "pico", "--force", "--dry-run"]) == 2
    assert "--force is for a CircuitPython board" in capsys.readouterr().err


def test_dry_run_quotes_the_port_in_the_command_to_paste():
    m = deploy.Mpremote(port="/dev/tty with space;rm -rf ~")
    assert m.describe(["ls"]) == "mpremote connect '/dev/tty with space;rm -rf ~' ls"


def test_adverts_in_a_folder_others_may_write_are_not_trusted(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir()
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(run))
    pty = tmp_path / "fake-pty"
    pty.write_text("")
    (run / "sim-1-x.json").write_text(json.dumps({"pty": str(pty), "pid": os.getpid()}))
    os.chmod(str(run), 0o700)
    assert [s["port"] for s in ports.simulators()] == [str(pty)]
    os.chmod(str(run), 0o777)  # anyone could have put that advert there
    assert ports.simulators() == []
    from presstime.errors import Failure

    with pytest.raises(Failure, match="not yours alone"):
        ports.advert_dir()
    os.chmod(str(run), 0o700)
    os.chmod(str(run / "sim-1-x.json"), 0o666)
    assert ports.simulators() == []


def test_play_with_its_input_closed_ends_with_exit_2(tmp_path):
    env = dict(os.environ, NO_COLOR="1", PRESSTIME_RUNTIME=str(tmp_path / "run"))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "presstime.cli",
            "play",
            "--sim",
            "--players",
            "Ada,Ben",
            "--db",
            str(tmp_path / "h.sqlite3"),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert out.returncode == 2, out.stderr
    assert "standard input is closed" in out.stderr and "Traceback" not in out.stderr
