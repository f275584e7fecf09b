"""A board's journal can never wedge the history (issue 22, items 1-3).

A record the desktop cannot apply is kept, named (board, seq, why) and skipped, the games around
it drafted; `sync --damaged` lists such records and `--drop` sets them aside. A round's fate is
the round machine's: an abort in a summary plays the same day again, on the board and in sync.
"""

import json
import os
import struct

import pytest

from presstime import cli
from presstime.core import events as E
from presstime.core.table import Table, normalise
from presstime.device.journal import Journal
from presstime.errors import BadInput, Failure
from presstime.history.store import Store
from presstime.sim.headless import Simulator
from presstime.sync import rebuild
from presstime.sync.journal import pull


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))


def played(names, days=3, abort_in_summary=()):
    """The events of a whole Fit to Print game: every player presses in seat order each day; a
    day in `abort_in_summary` is aborted in its summary once and played again."""
    t = Table()
    t.configure({"players": names, "duration_ms": 60000}, 0)
    now = 1000
    for day in range(days):
        for attempt in (0, 1):
            t.control(now)
            now += 3000
            t.tick(now)
            for p in range(len(names)):
                now += 1500 + 100 * p
                t.press(p, now * 1000)
            assert t.phase == 6  # summary
            if attempt == 0 and day in abort_in_summary:
                assert t.abort(now)
                continue
            t.control(now)  # next
            break
    return t, t.drain()


def journal_of(*event_lists):
    """[(seq, payload)] of games played one after the other (payloads may be raw bytes)."""
    out = []
    for events in event_lists:
        for ev in events:
            out.append((len(out) + 1, ev if isinstance(ev, bytes) else E.encode(ev)))
    return out


def write_journal(path, records):
    old = Journal.FSYNC
    Journal.FSYNC = False
    try:
        j = Journal(path)
        for seq, payload in records:
            if payload[:1] == bytes((E.CONFIG,)) and seq > 1:
                j.reset()
            assert j.append(payload) == seq
        j.close()
    finally:
        Journal.FSYNC = old


def sync(capsys, port, db, *extra):
    code = cli.main(["sync", "--port", port, "--db", db, "--json"] + list(extra))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


NEWER_KIND = bytes((40, 1, 2, 3))  # an event kind a newer firmware writes


def _wedging_journal():
    """Three games; the second holds a newer firmware's record and its undo, an undo with
    nothing to undo and a press for a seat the game does not have."""
    _, one = played(["Ada", "Ben"])
    _, two = played(["Cy", "Dee", "Eve"])
    _, three = played(["Fay", "Gus"])
    go = [i for i, ev in enumerate(two) if ev[0] == E.GO][0]
    bad = [NEWER_KIND, (E.UNDO,), (E.UNDO,), (E.PRESS, 7, 1, 0, 5000), b""]
    two = two[: go + 1] + bad + two[go + 1 :]
    return journal_of(one, two, three)


def test_a_record_the_table_refuses_is_kept_named_and_skipped(tmp_path, capsys, runtime):
    records = _wedging_journal()
    path = str(tmp_path / "journal.bin")
    write_journal(path, records)
    db = str(tmp_path / "h.sqlite3")
    sim = Simulator(journal=path).start()
    try:
        doc = sync(capsys, sim.path, db)
        again = sync(capsys, sim.path, db)  # and every later sync
        assert cli.main(["sync", "--port", sim.path, "--db", db]) == 0
        text = capsys.readouterr().out
    finally:
        sim.stop()
    assert doc["added"] == len(records) and again["added"] == 0
    assert [g["players"] for g in doc["games"]] == [
        ["Ada", "Ben"],
        ["Cy", "Dee", "Eve"],
        ["Fay", "Gus"],
    ]
    assert all(g["rounds"] == 3 and g["over"] and "draft" in g for g in doc["games"])
    first_bad = [s for s, p in records if p == NEWER_KIND][0]
    damaged = doc["damaged"]
    assert [d["seq"] for d in damaged] == [first_bad + i for i in range(5)]
    assert damaged[0]["newer"] and "newer firmware (event kind 40)" in damaged[0]["why"]
    assert "pip install -U presstime" in damaged[0]["why"]
    assert "an undo of record %d, which was skipped" % first_bad in damaged[1]["why"]
    assert "undo with nothing to undo" in damaged[2]["why"]
    assert "a press for seat 8, but the game has 3 players" in damaged[3]["why"]
    assert "cannot be read (event: empty record)" in damaged[4]["why"]
    assert (
        "5 records kept but not applied" in text
        and "record %d: comes from a newer firmware" % first_bad in text
    )
    # the game around them is the one played without them
    board = doc["board"]
    clean = rebuild.games_from_journal(journal_of(played(["Cy", "Dee", "Eve"])[1]))[0]["rounds"]
    assert doc["games"][1]["round_details"] == clean

    # see them, without a board
    assert cli.main(["sync", "--damaged", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert "board %s, record %d: comes from a newer firmware" % (board, first_bad) in listed
    assert "stored: 28 01 02 03" in listed
    assert cli.main(["sync", "--damaged", "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["board"], r["seq"], r["payload"]) for r in rows][0] == (board, first_bad, "28010203")
    # drop one, then the rest: the rows stay, sync no longer names them, the games do not change
    assert cli.main(["sync", "--damaged", "--drop", str(first_bad + 2), "--db", db]) == 0
    assert "dropped: board %s, record %d" % (board, first_bad + 2) in capsys.readouterr().out
    assert cli.main(["sync", "--damaged", "--drop", "999", "--db", db]) == 2
    assert "no damaged record 999" in capsys.readouterr().err
    assert cli.main(["sync", "--damaged", "--drop", "all", "--db", db]) == 0
    assert "4 set aside" in capsys.readouterr().out
    assert cli.main(["sync", "--damaged", "--db", db]) == 0
    assert "No damaged journal record" in capsys.readouterr().out
    with Store(db) as s:
        assert s.journal(board) == records
        after = rebuild.games_from_journal(s.journal(board), [], s.dropped(board))
    assert [g["rounds"] for g in after] == [g["round_details"] for g in doc["games"]]


def test_an_abort_in_the_summary_plays_the_same_day_again():
    t, events = played(["Ada", "Ben", "Cy"], abort_in_summary=(0, 2))
    [game] = rebuild.games_from_journal(journal_of(events))
    assert [r["day"] for r in game["rounds"]] == ["friday", "saturday", "sunday"]
    assert game["over"] and t.phase == 7
    record = rebuild.game_record(game)
    assert len(record["rounds"]) == 3
    # a sync while the aborted summary still shows: the round counts, then goes when aborted
    cut = [i for i, ev in enumerate(events) if ev[0] == E.ABORT][0]
    [showing] = rebuild.games_from_journal(journal_of(events[:cut]))
    [aborted] = rebuild.games_from_journal(journal_of(events[: cut + 1]))
    assert len(showing["rounds"]) == 1 and aborted["rounds"] == []
    # and a draft synced while it showed loses it again (nothing was typed for it)
    draft = rebuild.game_record(showing)
    assert len(draft["rounds"]) == 1
    assert rebuild.game_record(aborted, draft)["rounds"] == []


def _config_with_game_code(code, names=("Hal", "Ivy")):
    payload = bytearray(E.encode((E.CONFIG, normalise({"players": list(names)}))))
    payload[13] = code  # kind, then <BBIHHBBBBBIB: the game code is the 8th field
    assert struct.unpack_from(E._CFG, bytes(payload), 1)[7] == code
    return bytes(payload)


def test_a_set_up_from_a_newer_firmware_starts_its_own_game():
    _, one = played(["Ada", "Ben"])
    _, foreign = played(["Hal", "Ivy"])
    records = journal_of(one, [_config_with_game_code(9)] + foreign[1:])
    damaged = []
    games = rebuild.games_from_journal(records, damaged)
    assert len(games) == 2 and len(games[0]["rounds"]) == 3  # nothing added to the first game
    assert games[1]["newer"] and "game code 9" in games[1]["unreadable"]
    [d] = damaged
    assert (d["seq"], d["last"]) == (len(one) + 1, len(records)) and d["newer"]


def _unstorable(names):
    cfg = normalise({"players": ["A", "B"]})
    cfg["names"] = list(names)
    cfg["colours"] = [(1, 2, 3)] * len(names)
    return E.encode((E.CONFIG, cfg))


@pytest.mark.parametrize(
    "names, says",
    [
        (["Ada", "Ada"], "Ada is named twice"),
        (["Ada", ""], "seat 2: a name cannot be empty"),
        ([chr(65 + i) for i in range(40)], "takes 1 to 6 players (got 40)"),
    ],
)
def test_a_set_up_that_can_never_be_stored_is_told_at_sync(tmp_path, capsys, runtime, names, says):
    path = str(tmp_path / "journal.bin")
    write_journal(path, journal_of([_unstorable(names), (E.START, 10)]))
    db = str(tmp_path / "h.sqlite3")
    sim = Simulator(journal=path).start()
    try:
        doc = sync(capsys, sim.path, db)
    finally:
        sim.stop()
    [g] = doc["games"]
    assert "draft" not in g and "can never be stored" in g["problem"] and says in g["problem"]
    with Store(db) as s:
        assert s.list_drafts() == []


def test_a_discarded_board_draft_stays_discarded_until_the_board_plays_on(
    tmp_path, capsys, runtime
):
    _, events = played(["Ada", "Ben"], days=3)
    half = [i for i, ev in enumerate(events) if ev[0] == E.NEXT][0] + 1
    path = str(tmp_path / "journal.bin")
    write_journal(path, journal_of(events[:half]))
    db = str(tmp_path / "h.sqlite3")
    sim = Simulator(journal=path).start()
    try:
        key = sync(capsys, sim.path, db)["games"][0]["draft"]
        assert cli.main(["enter", "--discard", key, "--yes", "--db", db]) == 0
        capsys.readouterr()
        [g] = sync(capsys, sim.path, db)["games"]
        assert g["discarded"] and "draft" not in g
        assert cli.main(["sync", "--port", sim.path, "--db", db]) == 0
        assert "its draft was discarded" in capsys.readouterr().out
        with Store(db) as s:
            assert s.list_drafts() == []
    finally:
        sim.stop()


def test_a_discarded_draft_comes_back_when_its_game_has_new_records(tmp_path):
    _, events = played(["Ada", "Ben"])
    records = journal_of(events)
    half = len(records) // 2
    from presstime.history.keeping import store_board_games

    with Store(str(tmp_path / "h.sqlite3")) as s:
        s.add_journal("b", records[:half])
        [g] = store_board_games(s, "b", rebuild.games_from_journal(s.journal("b")))
        s.discard_draft(g["draft"], s.last_seq("b"))
        [g] = store_board_games(s, "b", rebuild.games_from_journal(s.journal("b")))
        assert g.get("discarded") and s.list_drafts() == []
        s.add_journal("b", records[half:])
        [g] = store_board_games(s, "b", rebuild.games_from_journal(s.journal("b")))
        assert g.get("redrafted") and g["draft"] and len(s.list_drafts()) == 1


class _Board:
    """A board's link for pull(): pages of `records`; `skip` makes one mid-sync page start late."""

    def __init__(self, records, skip=None, **hello):
        self.recs = records
        self.seq = hello["seq"] if "seq" in hello else records[-1][0]
        self.skip = skip

    def hello(self):
        return {"id": "b1", "seq": self.seq}

    def pages(self, after):
        while True:
            recs = [r for r in self.recs if r[0] > after][:4]
            if self.skip and after > 0 and recs and recs[0][0] == self.skip[0]:
                recs = [r for r in self.recs if r[0] > self.skip[1]][:4]
                self.skip = None
            gone = recs[0][0] - 1 if recs and recs[0][0] != after + 1 else 0
            yield {"records": recs, "last": self.recs[-1][0], "gone": gone}
            if not recs or recs[-1][0] >= self.recs[-1][0]:
                return
            after = recs[-1][0]


def test_a_gap_in_the_middle_of_a_sync_skips_nothing(tmp_path):
    records = journal_of(played(["Ada", "Ben"])[1])
    with Store(str(tmp_path / "h.sqlite3")) as s:
        with pytest.raises(Failure, match="skipped records 9-12 in the middle of the sync"):
            pull(_Board(records, skip=(9, 12)), s)
        assert s.last_seq("b1") == 8
        assert pull(_Board(records), s) == ("b1", len(records) - 8)
        assert s.journal("b1") == records


@pytest.mark.parametrize("seq", ["12", 1.5, None, -3, True])
def test_a_hello_whose_last_record_is_not_a_whole_number_is_refused(tmp_path, seq):
    with Store(str(tmp_path / "h.sqlite3")) as s:
        with pytest.raises(BadInput, match="not a whole number: nothing was changed"):
            pull(
                _Board([(1, b"\x03\x00\x00\x00\x00")], seq=seq),
                s,
                progress=lambda done, total: None,
            )
        assert s.last_seq("b1") == 0


@pytest.mark.parametrize("pid", [0, -1, 2**40])
def test_a_simulator_advert_with_an_impossible_pid_is_ignored(tmp_path, monkeypatch, capsys, pid):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(run))
    pty = tmp_path / "fake-pty"
    pty.write_text("")
    (run / "sim-1-x.json").write_text(json.dumps({"pty": str(pty), "pid": pid}))
    os.chmod(str(run / "sim-1-x.json"), 0o600)
    assert cli.main(["devices"]) == 0
    out, err = capsys.readouterr()
    assert "no board or simulator found" in out
    assert "ignored the advert" in err and "not a process id" in err


@pytest.mark.parametrize("pid", [0, -1, 2**40])
def test_a_link_owner_advert_with_an_impossible_pid_is_ignored(tmp_path, monkeypatch, capsys, pid):
    """The adverts of processes sharing a board are read by the same reader as the simulators'."""
    from presstime.board import share

    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(run))
    (run / "link-1-0.json").write_text(
        json.dumps({"port": "/dev/ttyACM0", "sock": str(run / "s"), "pid": pid})
    )
    os.chmod(str(run / "link-1-0.json"), 0o600)
    assert share.holders() == []
    assert "ignored the advert" in capsys.readouterr().err


def test_drop_names_the_board_when_two_boards_have_the_same_record(tmp_path, capsys):
    db = str(tmp_path / "h.sqlite3")
    records = journal_of([(E.CONFIG, normalise({"players": ["Ada", "Ben"]})), (E.UNDO,)])
    with Store(db) as s:
        s.add_journal("pico-a", records)
        s.add_journal("pico-b", records)
    assert cli.main(["sync", "--damaged", "--drop", "2", "--db", db]) == 2
    assert (
        "boards pico-a, pico-b both have a damaged record 2: add --board ID"
        in capsys.readouterr().err
    )
    assert cli.main(["sync", "--damaged", "--board", "pico-c", "--db", db]) == 2
    assert "--board pico-c: no journal of that board" in capsys.readouterr().err
    assert cli.main(["sync", "--drop", "2", "--db", db]) == 2
    assert "go with --damaged" in capsys.readouterr().err
    assert cli.main(["sync", "--damaged", "--drop", "2", "x", "--db", db]) == 2
    assert "--drop x: a record's sequence number" in capsys.readouterr().err
    assert cli.main(["sync", "--damaged", "--board", "pico-b", "--drop", "2", "--db", db]) == 0
    capsys.readouterr()
    assert cli.main(["sync", "--damaged", "--json", "--db", db]) == 0
    assert [(r["board"], r["seq"]) for r in json.loads(capsys.readouterr().out)] == [("pico-a", 2)]
