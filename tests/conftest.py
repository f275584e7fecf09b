import os
import sys

import pytest
from hypothesis import settings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # tests/mpy.py and other helpers
sys.path.insert(0, os.path.dirname(HERE))  # rig/: the drivers of the external rigs

# The desktop package first, before any test module puts firmware/ on sys.path (for the files a
# board runs): once `presstime` is the installed package, firmware/presstime cannot stand in for
# it, whatever order the test modules are collected in (tests/test_suite_order.py).
import presstime  # noqa: E402,F401
import presstime.core  # noqa: E402,F401

# No per-example time limit anywhere: a shared CI machine can stall any example past hypothesis'
# default 200 ms, and speed is measured by the benchmarks, not by tests.
# PRESSTIME_HYPOTHESIS=thorough: 1000 examples for the tests that set no count of their own (a
# longer hunt, by hand).
settings.register_profile("presstime", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("PRESSTIME_HYPOTHESIS", "presstime"))


# The markers (pyproject.toml, CONTRIBUTING.md): `rig` and `browser` are facts about what a test
# needs, so they are set here from the fixtures it uses; `slow` is set by hand on the tests that
# take seconds; `hunt` marks the long hunts, which run only when asked for (`-m hunt`).
FIXTURE_MARKERS = {"rig_dir": "rig", "chromium": "browser"}


def pytest_collection_modifyitems(config, items):
    hunts = "hunt" in (config.getoption("-m") or "")
    skip_hunt = pytest.mark.skip(reason="a long hunt: run it with -m hunt")
    for item in items:
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(marker)
        if "hunt" in item.keywords and not hunts:
            item.add_marker(skip_hunt)


@pytest.fixture
def sim(tmp_path, monkeypatch):
    """A simulator board (device App + Link under CPython) on one end of os.openpty(), advertised
    in a private runtime folder so `presstime devices` finds only it. Helpers: tests/simboard.py."""
    from presstime.sim.headless import Simulator

    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    s = Simulator(journal=str(tmp_path / "journal.bin")).start()
    yield s
    s.stop()


@pytest.fixture
def chromium():
    """Debian's chromium for the scorepad's browser tests (driven by Playwright: scorepad_phones);
    they skip with one line saying how to get it when it or Playwright is missing."""
    from scorepad_phones import chromium_or_skip

    return chromium_or_skip()


# ---- the board's official firmware in the emulated RP2040 (the rp2emu rig) ----------------------
# Found through PRESSTIME_RP2EMU (rig/rp2emu.py); without it these tests skip with one line that
# says how to enable them. .ci/run sets it up.


@pytest.fixture(scope="session")
def rig_dir():
    from rig.rp2emu import find_rig, why_absent

    d = find_rig()
    if d is None:
        pytest.skip(why_absent())
    return d


@pytest.fixture(scope="session")
def pico_image(rig_dir):
    """A flash image with presstime installed by `presstime install-firmware` (made once)."""
    from rig.pico import app_image

    return app_image(rig_dir)


@pytest.fixture
def pico(rig_dir, pico_image):
    """The Pico build booted from pico_image, free-running, its USB serial on a pty (pico.pty)."""
    from rig.pico import EmulatedPico

    p = EmulatedPico.start(rig_dir, pico_image, pty=True)
    yield p
    p.close()


@pytest.fixture(scope="session")
def pico_origin(rig_dir, pico_image):
    """The rig instant (µs) of the board's clock origin for rig.games.boot_paused boots of
    pico_image (measured once from a press the board stamps; cached with the image)."""
    from rig.games import board_origin

    return board_origin(rig_dir, pico_image)


@pytest.fixture(scope="session")
def ftp_game(rig_dir, pico_image, pico_origin):
    """A whole Fit to Print game played once on the emulated board through its buttons
    (rig.games.fit_to_print_script), with flash images saved along the way: cached."""
    from rig.games import fit_to_print_game

    return fit_to_print_game(rig_dir, pico_image, pico_origin)


@pytest.fixture(scope="session")
def macropad_image(rig_dir):
    """An 8 MB flash image of CircuitPython 10.2.1 (MacroPad RP2040) with presstime installed by
    `presstime install-firmware --board macropad --port CONSOLE` over the REPL (made once)."""
    from rig.macropad import app_image

    return app_image(rig_dir)


@pytest.fixture
def macropad(rig_dir, macropad_image):
    """The MacroPad build booted from macropad_image, free-running, answering hello on its data
    pty (macropad.data_pty; the console/REPL is macropad.pty)."""
    from rig.macropad import EmulatedMacropad

    p = EmulatedMacropad.start(rig_dir, macropad_image)
    try:
        if p.wait_hello() is None:
            raise AssertionError("the MacroPad app did not answer hello: %s" % p.read()[-500:])
        yield p
    finally:
        p.close()
