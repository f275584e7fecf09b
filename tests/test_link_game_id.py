"""The hello's game id ("gid": the seq of the current game's CONFIG record) after a boot: the
app's replay leaves what it read on the journal (App._replay), so the link does not read the
game's records again at boot (docs/benchmarks.md: the boot after a played game). The id must
be the one a link that scans the whole journal itself finds, whatever was played."""

from hypothesis import given, settings, strategies as st

from presstime.device.app import App, MemJournal
from presstime.device.link import Link
from presstime.device.ports.fake import FakePort


def _play(app, port, presses):
    """Start a round with the control button and press the given seats, stepping the app."""
    port.tap(-1, at_ms=port.now_ms() + 10)
    for k, seat in enumerate(presses):
        port.tap(seat, at_ms=port.now_ms() + 400 + 150 * k)
    for _ in range(400):
        port.advance(10)
        app.step()


def _scanned_from_scratch(app, port):
    link = Link(app, port)
    link._scanned, link._gid = -1, None  # as before: the link reads the game's records itself
    return link.game_id()


@settings(max_examples=20, deadline=None)
@given(
    games=st.lists(st.lists(st.integers(0, 2), max_size=4), min_size=1, max_size=3),
)
def test_the_game_id_after_a_boot_is_the_one_a_full_scan_finds(games):
    journal = MemJournal()
    port = FakePort(players=3, pixels=24)
    cfg = {"players": ["Ada", "Ben", "Cy"], "mode": "standard", "duration_ms": 60000}
    for presses in games:  # each game configured anew: a new journal game with its CONFIG
        app = App(port, journal)
        app.configure(cfg)
        _play(app, port, presses)
    booted = App(FakePort(players=3, pixels=24), journal)  # the boot: replays the last game
    link = Link(booted, booted.port)
    assert link.game_id() is not None
    assert link.game_id() == _scanned_from_scratch(booted, booted.port)
    assert link.hello()["gid"] == link.game_id()


def test_a_game_configured_after_the_boot_gets_its_own_id():
    journal = MemJournal()
    port = FakePort(players=2, pixels=24)
    cfg = {"players": ["Ada", "Ben"], "mode": "standard", "duration_ms": 60000}
    app = App(port, journal, cfg)
    _play(app, port, [0, 1])
    booted = App(port, journal)
    booted.link = link = Link(booted, port)
    first = link.game_id()
    booted.configure(cfg)
    second = link.game_id()
    assert second is not None and second > first
    assert second == _scanned_from_scratch(booted, port)
