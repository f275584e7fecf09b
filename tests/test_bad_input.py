"""Hostile input at the CLI boundary (issue 10, items 3-6, 10, 12): every bad file is exit 2 with
a message, never a traceback, never a raw control character on the terminal.

The classes closed here, each with its regressions:
- JSON a parser cannot take whole (nesting, huge numbers, NaN, a key twice, a huge file), in
  `score`, `import` and the JSON cells of a CSV (records.loads, the one JSON reader);
- fields a game does not know, at every level of every game (Fit to Print like the others);
- control characters: refused in names wherever they enter, escaped wherever text is printed;
- CSV cells a spreadsheet would run as a formula (quoted, and the round trip stays lossless);
- a history database that cannot be written (read-only, locked).
The property at the end: any bytes given to `score` and `import` give exit 0 or 2, no traceback,
no raw control character.
"""

import copy
import json
import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import example, example_path, run_cli
from presstime import records, term
from presstime.history import store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = example_path()
RAW = [chr(c) for c in list(range(0, 9)) + list(range(11, 32)) + list(range(127, 160))] + [
    "\u2028",
    "\u202e",
]


def no_raw_control(text):
    """True when `text` holds no control character except newlines, tabs and presstime's own
    colour codes (NO_COLOR is set in these tests, so none at all)."""
    return not [c for c in text if c in RAW]


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_DB", str(tmp_path / "history.sqlite3"))
    monkeypatch.setenv("NO_COLOR", "1")


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(p)


# --- item 10: JSON a parser cannot take ------------------------------------------------------

DEEP = ["[" * 5000 + "]" * 5000, '{"a":' * 1200 + "1" + "}" * 1200, "[" * 100000]


@pytest.mark.parametrize(
    "text",
    DEEP
    + [
        "1" * 5000,
        '{"players": [1' + "0" * 5000 + "]}",
        '{"players": NaN}',
        '{"players": 1e999}',
        "-Infinity",
    ],
)
def test_json_nobody_can_parse_is_refused_in_score_and_import(tmp_path, capsys, text):
    path = write(tmp_path, "bad.json", text)
    for argv in (["score", path], ["import", path]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2, (argv, err)
        assert "Traceback" not in err and err.strip()


def test_import_goes_on_with_the_next_file_after_a_deep_one(tmp_path, capsys):
    deep = write(tmp_path, "deep.json", DEEP[0])
    code, out, err = run_cli(capsys, "import", deep, EXAMPLE)
    assert code == 2
    assert "1 game added" in out and "deep.json: refused" in err


def test_a_deep_json_cell_in_a_csv_is_refused_with_its_line(tmp_path, capsys):
    run_cli(capsys, "import", EXAMPLE)
    code, out, err = run_cli(capsys, "export", "--format", "csv")
    assert code == 0
    lines = out.splitlines()
    cells = lines[1].split(",")
    cells[-4] = '"' + "[" * 3000 + "]" * 3000 + '"'  # game_extra
    path = write(tmp_path, "deep.csv", "\n".join([lines[0], ",".join(cells)] + lines[2:]) + "\n")
    code, out, err = run_cli(capsys, "import", path)
    assert code == 2 and "line 2: column game_extra" in err and "nested more than" in err


def test_a_key_twice_in_one_object_is_refused(tmp_path, capsys):
    text = json.dumps(example())[:-1] + ', "rounds": []}'
    code, out, err = run_cli(capsys, "score", write(tmp_path, "twice.json", text))
    assert code == 2 and 'the key "rounds" appears twice' in err


def test_a_file_past_the_size_limit_is_refused_unread(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(records, "MAX_FILE_BYTES", 1000)
    path = write(tmp_path, "big.json", json.dumps(example()) + " " * 2000)
    for argv in (["score", path], ["import", path]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and "larger than" in err


def test_records_nested_too_deep_to_export_and_read_back_are_refused():
    deep = []
    for _ in range(records.MAX_DEPTH):
        deep = [deep]
    record = dict(example(), notes=deep)
    assert records.check_record(record) == [
        "nested more than %d deep (a game record is a few levels deep)" % (records.MAX_DEPTH - 1)
    ]


# --- item 6: unknown fields, everywhere, in every game ----------------------------------------


def _ftp_typos():
    good = example()
    cases = []
    r = copy.deepcopy(good)
    r["rounds"][2]["breakingnews"] = [{"effect": "mood-doubled"}]
    cases.append((r, "round 3, field breakingnews: unknown field"))
    r = copy.deepcopy(good)
    r["rounds"][0]["finsh"] = r["rounds"][0].pop("finish")
    cases.append((r, "round 1, field finsh: unknown field"))
    r = copy.deepcopy(good)
    r["edtion"] = "draft"
    cases.append((r, "field edtion: unknown field"))
    r = copy.deepcopy(good)
    r["mdoe"] = "family"
    cases.append((r, "field mdoe: unknown field"))
    r = copy.deepcopy(good)
    r["players"][0] = {"name": r["players"][0], "charcter": "jazz"}
    cases.append((r, "players[1], field charcter: unknown field"))
    r = copy.deepcopy(good)
    r["rounds"][2]["breaking_news"] = [{"effect": "white-space-best", "valeu": 5}]
    cases.append((r, "breaking_news[1], field valeu: unknown field"))
    r = copy.deepcopy(good)
    r["rounds"][2]["breaking_news"] = [
        {"effect": "mood-doubled"},
        {"effect": "white-space-best", "value": 5},
    ]
    cases.append((r, "one Breaking News card is drawn per day"))
    for v in (10**29, -50, 11):
        r = copy.deepcopy(good)
        r["rounds"][2]["breaking_news"] = [{"effect": "white-space-best", "value": v}]
        cases.append((r, "white-space-best needs the bonus as a whole number 0 to 10"))
    r = copy.deepcopy(good)
    r["rounds"][1]["breaking_news"] = [{"effect": "most-tiles-ads", "value": 10**9}]
    cases.append((r, "most-tiles-ads needs a whole number of dollars 0 to 20"))
    for blank in ("", "   "):
        r = copy.deepcopy(good)
        r["players"][1] = blank
        cases.append((r, "players[2]: a name cannot"))
    return cases


@pytest.mark.parametrize("record,message", _ftp_typos())
def test_fit_to_print_refuses_what_it_does_not_know(tmp_path, capsys, record, message):
    code, out, err = run_cli(capsys, "score", write(tmp_path, "typo.json", json.dumps(record)))
    assert code == 2 and message in err, err


@pytest.mark.parametrize("game", ["fit-to-print", "heat", "mini-fits", "myth-fits"])
def test_every_game_refuses_an_unknown_field_at_the_top(game):
    with open(os.path.join(ROOT, "examples", game + ".json"), encoding="utf-8") as f:
        record = json.load(f)
    assert records.check_record(record) == []
    record["scroe"] = 1
    assert [m for m in records.check_record(record) if "field scroe: unknown field" in m]


# --- item 3: control characters --------------------------------------------------------------


@pytest.mark.parametrize("game", ["fit-to-print", "heat", "mini-fits", "myth-fits"])
@pytest.mark.parametrize("bad", ["\x1b[2J", "\r", "\b", "\x85", "\u202e", "\x7f"])
def test_a_name_with_a_control_character_is_refused_and_never_printed_raw(
    tmp_path, capsys, game, bad
):
    with open(os.path.join(ROOT, "examples", game + ".json"), encoding="utf-8") as f:
        text = f.read()
    record = json.loads(text)
    first = record["players"][0]
    first = first["name"] if isinstance(first, dict) else first
    path = write(tmp_path, "ctl.json", text.replace('"%s"' % first, json.dumps("X" + bad + "Y")))
    for argv in (["score", path], ["import", path]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and "a name cannot hold U+" in err, err
        assert no_raw_control(out + err)


def test_the_board_refuses_control_characters_and_twin_names_at_configure():
    from presstime.core.table import normalise

    with pytest.raises(ValueError, match="control"):
        normalise({"players": ["Ada", "B\x1b[31mn"]})
    with pytest.raises(ValueError, match="twice"):
        normalise({"players": ["Ada", "Ada"]})
    with pytest.raises(ValueError, match="twice"):
        normalise({"players": ["P2", ""]})  # the blank seat 2 is named P2 too


def test_file_content_in_an_error_message_is_escaped(tmp_path, capsys):
    record = example()
    record["x\x1b[2J\r\b"] = 1
    code, out, err = run_cli(capsys, "score", write(tmp_path, "key.json", json.dumps(record)))
    assert code == 2 and "\\u001b[2J\\u000d\\u0008" in err and no_raw_control(err)
    cells = (
        "game_id,game,mode,edition,seat,player,character,round,day,token\n1,,,,x\r\x1b[1A,,,,,\n"
    )
    code, out, err = run_cli(capsys, "import", write(tmp_path, "cells.csv", cells))
    assert code == 2 and no_raw_control(err)


def test_escaping_keeps_presstimes_own_colour_and_json_valid():
    assert term.safe_text("\x1b[1;32mwin\x1b[0m\n") == "\x1b[1;32mwin\x1b[0m\n"
    assert term.safe_text("a\x1b]0;title\x07b") == "a\\u001b]0;title\\u0007b"
    doc = json.dumps({"name": "a\x85b\u202e"}, ensure_ascii=False)
    assert json.loads(term.safe_text(doc)) == {"name": "a\x85b\u202e"}


def test_history_printed_from_an_old_database_is_escaped(tmp_path, capsys):
    # a record stored before names were checked (the history engineer's rows stay as they are)
    s = store.open_store(str(tmp_path / "history.sqlite3"))
    s.conn.execute(
        "INSERT INTO games (record, source, added_at, updated_at, players) VALUES (?, '', '', '', "
        "?)",
        (json.dumps({"players": ["A\x1b[2J", "B"], "rounds": []}), json.dumps(["A\x1b[2J", "B"])),
    )
    s.close()
    for argv in (
        ["history"],
        ["history", "--damaged"],
        ["show", "1"],
        ["export", "--format", "csv"],
    ):
        code, out, err = run_cli(capsys, *argv)
        assert code in (0, 1, 2) and no_raw_control(out + err), argv


# --- items 4, 5: CSV export is spreadsheet-safe and lossless ---------------------------------

FORMULAS = ["=cmd|' /C calc'!A0", "+1+1", "-2", "@SUM(A1)", "'quoted", "''=x", "Ada"]


def test_csv_export_quotes_formulas_and_reads_back_the_very_names(tmp_path, capsys):
    record = {"players": FORMULAS[:6], "rounds": []}
    run_cli(capsys, "import", write(tmp_path, "f.json", json.dumps(record)))
    code, out, err = run_cli(capsys, "export", "--format", "csv")
    assert code == 0
    for line in out.splitlines()[1:]:
        player = line.split(",")[5]
        assert not player.startswith(("=", "+", "-", "@")), line
    csv_path = write(tmp_path, "f.csv", out)
    os.environ["PRESSTIME_DB"] = str(tmp_path / "second.sqlite3")
    code, out2, err = run_cli(capsys, "import", csv_path)
    assert code == 0, err
    code, out3, err = run_cli(capsys, "export", "1")
    assert json.loads(out3)["players"] == FORMULAS[:6]


def test_a_carriage_return_in_a_name_is_refused_so_csv_always_reads_back(tmp_path, capsys):
    record = {"players": ["Ada\rBen", "Cy"], "rounds": []}
    code, out, err = run_cli(capsys, "import", write(tmp_path, "cr.json", json.dumps(record)))
    assert code == 2 and "a name cannot hold U+" in err


# --- item 10: a history database that cannot be written --------------------------------------


def test_a_locked_history_is_exit_2_for_import_and_delete(tmp_path, capsys, monkeypatch):
    assert run_cli(capsys, "import", EXAMPLE)[0] == 0
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.1)
    other = sqlite3.connect(os.environ["PRESSTIME_DB"], isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        for argv in (
            ["import", os.path.join(ROOT, "examples", "heat.json")],
            ["delete", "1", "--yes"],
        ):
            code, out, err = run_cli(capsys, *argv)
            assert code == 2 and "locked by another program" in err, err
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert "Fit to Print" in run_cli(capsys, "history")[1]  # nothing was lost


def test_a_read_only_history_is_exit_2_for_import_and_delete(tmp_path, capsys, monkeypatch):
    assert run_cli(capsys, "import", EXAMPLE)[0] == 0
    real = sqlite3.connect

    def read_only(*a, **k):  # SQLite's own read-only refusal (root ignores file modes)
        conn = real(*a, **k)
        conn.execute("PRAGMA query_only = 1")
        return conn

    monkeypatch.setattr(sqlite3, "connect", read_only)
    for argv in (["import", os.path.join(ROOT, "examples", "heat.json")], ["delete", "1", "--yes"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and "is read-only" in err, err


# --- the property at the CLI boundary --------------------------------------------------------


def _seeds():
    out = []
    for game in ("fit-to-print", "heat", "mini-fits", "myth-fits"):
        with open(os.path.join(ROOT, "examples", game + ".json"), "rb") as f:
            out.append(f.read())
    return out


SEEDS = _seeds()


@st.composite
def hostile_bytes(draw):
    """Bytes near a real record (a cut, a splice of control or odd characters, brackets) or
    anything at all."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        junk = draw(
            st.sampled_from(
                [
                    b"\x1b[2J",
                    b"\r",
                    b"\x08",
                    b"\xc2\x85",
                    b"[[[[",
                    b"}",
                    b'"',
                    b"99999999999999999999999999999999999",
                    b",",
                    b"\x00",
                    b"\xff",
                    b'"name": "\\u001b"',
                    b"NaN",
                    b"-",
                    b"=cmd|",
                ]
            )
        )
        if draw(st.booleans()):
            data[at:at] = junk
        else:
            del data[at : at + draw(st.integers(1, 40))]
    return bytes(data)


@pytest.mark.slow
@settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=hostile_bytes(), suffix=st.sampled_from([".json", ".csv", ""]))
def test_any_bytes_to_score_and_import_exit_0_or_2_without_raw_control(
    tmp_path, capsys, data, suffix
):
    path = str(tmp_path / ("any" + suffix))
    with open(path, "wb") as f:
        f.write(data)
    for argv in (["score", path], ["score", path, "--json"], ["import", path, "--json"]):
        code, out, err = run_cli(capsys, *argv)
        assert code in (0, 2), (argv, code, err)
        assert "Traceback" not in err
        assert no_raw_control(out + err), (argv, out, err)
