"""What the board measured in a round (`table` in the game record): rebuilt from the journal by
`presstime sync` and taken from the live status by `presstime play`, the two the same."""

from presstime import records, report
from presstime.core import events as E
from presstime.core.table import Table
from presstime.sync import rebuild

PAD = {
    "articles": 5,
    "photos": 1,
    "centerpiece": 0,
    "white_space": 3,
    "smiles": 1,
    "frowns": 0,
    "unplaced": 0,
    "ads": 2,
}


def _two_step_round_with_a_tie():
    t = Table()
    t.configure({"players": ["Ada", "Ben", "Cy"], "duration_ms": 180000, "two_step": True}, 0)
    t.control(1000)  # the control button starts: 3-2-1, running from 4 s
    for ms in range(1000, 4100, 100):
        t.tick(ms)
    t.press(0, 14000000)  # Ada: Layout! at 10 s of round time
    t.press(1, 16000000)  # Ben: Layout! at 12 s
    t.press(0, 34000000)  # Ada: Print! at 30 s
    t.press(1, 34000400)  # Ben: Print! 0.4 ms later: a tie (resolution 1 ms)
    t.press(2, 35000000)  # Cy: Layout! at 31 s
    t.tick(184000)  # time-out at 3:00, Cy still working
    t.tick(189100)  # the grace window closes: Cy is forced
    return t


def test_sync_rebuilds_layout_and_print_times_ties_and_the_end():
    t = _two_step_round_with_a_tie()
    live = rebuild.round_of(t.status(), t.step)
    journal = [(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())]
    [game] = rebuild.games_from_journal(journal)
    [rnd] = game["rounds"]
    assert rnd == live  # `play` (live status) and `sync` (journal) agree
    block = rebuild.table_block(rnd)
    assert block == {
        "print_ms": {"Ada": 30000, "Ben": 30000},
        "layout_ms": {"Ada": 10000, "Ben": 12000, "Cy": 31000},
        "tied": ["Ada", "Ben"],
        "end": "grace closed",
        "elapsed_ms": 180000,
    }
    assert rnd["finish"][2] == "Cy"  # forced: the last token, no print time
    record = rebuild.game_record(game)
    assert record["rounds"][0]["table"] == block and record["rounds"][0]["day"] == "friday"
    record["rounds"][0]["players"] = dict((n, dict(PAD)) for n in record["players"])
    assert records.check_record(record) == []


def test_show_and_score_print_the_table_times():
    t = _two_step_round_with_a_tie()
    [game] = rebuild.games_from_journal([(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())])
    record = rebuild.game_record(game)
    text = report.table_text(record)
    assert "round 1 (Friday), grace closed after 3:00.0" in text
    assert "Ada 0:30.0 (reported 0:10.0, laid out 0:20.0)" in text and "; tie: Ada, Ben" in text
    assert "Cy reported 0:31.0, no Print!" in text
    assert report.table_text({"players": ["Ada"], "rounds": [{"players": {}}]}) == ""
    assert report.with_table({"winners": []}, record)["table"] == [record["rounds"][0]["table"]]


def test_a_one_step_round_keeps_no_empty_fields():
    t = Table()
    t.configure({"players": ["Ada", "Ben"], "duration_ms": 60000}, 0)
    t.control(0)
    for ms in range(0, 3100, 100):
        t.tick(ms)
    t.press(1, 5000000)
    t.press(0, 9000000)
    [game] = rebuild.games_from_journal([(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())])
    assert rebuild.table_block(game["rounds"][0]) == {
        "print_ms": {"Ada": 6000, "Ben": 2000},
        "end": "all printed",
        "elapsed_ms": 6000,
    }
