"""presstime history / show / import / export: the commands end to end, through cli.main."""

import csv
import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import example, example_path, run_cli
from history_records import OTHERS, fit_to_print
from presstime import cli, records
from presstime.errors import BadInput
from presstime.history import csv_rows, game_files
from presstime.history.store import Store, without_uuid
from presstime.records import is_uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = example_path()
MY_COMMANDS = ["history", "show", "import", "export", "stats", "chart", "card"]


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = str(tmp_path / "history.sqlite3")
    monkeypatch.setenv("PRESSTIME_DB", path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return path


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


# --- help and start-up ----------------------------------------------------------------------


@pytest.mark.parametrize("name", MY_COMMANDS)
def test_every_command_has_help_with_an_example(capsys, name):
    code, out, err = run_cli(capsys, name, "--help")
    assert code == 0
    assert "example" in out and "presstime " + name in out
    assert "--db" in out


def test_nothing_heavy_is_imported_for_help():
    script = (
        "import sys; from presstime import cli\n"
        "for c in %r: cli.command_parser(c)\n"
        "heavy = [m for m in ('matplotlib', 'numpy', 'sqlite3', 'hypothesis') if m in "
        "sys.modules]\n"
        "print(heavy)" % (MY_COMMANDS,)
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# --- history and show -----------------------------------------------------------------------


def test_empty_history(db, capsys):
    code, out, err = run_cli(capsys, "history")
    assert code == 0 and "history is empty" in out
    code, out, err = run_cli(capsys, "history", "--json")
    assert json.loads(out) == []


def test_import_then_history_and_show_as_score_does(db, capsys):
    code, out, err = run_cli(capsys, "import", EXAMPLE)
    assert code == 0 and "1 game added (#1)" in out, err
    code, out, err = run_cli(capsys, "history")
    assert code == 0
    assert "Ada, Ben, Cy" in out and "winner: Ada" in out and "\x1b[" not in out
    code, out, err = run_cli(capsys, "history", "--json")
    [game] = json.loads(out)
    assert game["id"] == 1 and game["players"] == ["Ada", "Ben", "Cy"] and game["rounds"] == 3
    assert game["complete"] is True and game["winners"] == ["Ada"]
    for extra in ([], ["--json"]):
        code, shown, _ = run_cli(capsys, "show", "1", *extra)
        assert code == 0
        code, scored, _ = run_cli(capsys, "score", EXAMPLE, *extra)
        assert shown == scored
    code, out, err = run_cli(capsys, "show", "--json", "1")
    result = json.loads(out)
    assert [p["total"] for p in result["players"]] == [52, 37, 32]


def test_show_an_unknown_game_is_bad_input(db, capsys):
    code, out, err = run_cli(capsys, "show", "7")
    assert code == 2 and "no game #7" in err and "Traceback" not in err
    code, out, err = run_cli(capsys, "show", "seven")
    assert code == 2 and "a game id is a number" in err


def test_history_in_progress_and_shared(db, capsys, tmp_path):
    partial = example()
    partial["rounds"] = partial["rounds"][:1]
    run_cli(capsys, "import", write(tmp_path, "p.json", partial))
    code, out, err = run_cli(capsys, "history", "--json")
    [game] = json.loads(out)
    assert game["complete"] is False and game["winners"] == [] and game["status"] == "in progress"


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(db, capsys, monkeypatch):
    run_cli(capsys, "import", EXAMPLE)
    monkeypatch.setattr(sys, "stdout", FakeTTY())
    cli.main(["history"])
    assert "\x1b[" in sys.stdout.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdout", FakeTTY())
    cli.main(["history"])
    cli.main(["stats"])
    assert "\x1b[" not in sys.stdout.getvalue()


def test_a_database_that_is_not_one_is_a_failure(tmp_path, capsys):
    path = write(tmp_path, "notes.txt", "not a database " * 100)
    code, out, err = run_cli(capsys, "history", "--db", path)
    assert code == 1 and "not a usable presstime history database" in err


# --- import ---------------------------------------------------------------------------------


def test_import_several_files_each_whole_or_not_at_all(db, capsys, tmp_path):
    good = write(tmp_path, "good.json", example())
    not_json = write(tmp_path, "broken.json", '{"game": "fit-to-print",\n "players": [}')
    bad_list = example()
    bad_list["rounds"][1]["players"]["Ada"]["photos"] = -3
    partly = write(tmp_path, "partly.json", [OTHERS[0], bad_list])
    missing = str(tmp_path / "missing.json")
    code, out, err = run_cli(capsys, "import", not_json, good, partly, missing)
    assert code == 2
    assert "good.json: 1 game added (#1)" in out
    assert "broken.json: line 2 column" in err
    assert "partly.json: record 2: round 2" in err and "Ada" in err and "photos" in err
    assert "missing.json: no such file" in err
    assert "Traceback" not in err
    with Store(db) as s:
        assert [g["id"] for g in s.list_games()] == [1]  # nothing of partly.json, not even record 1


def test_import_twice_adds_nothing_new(db, capsys):
    run_cli(capsys, "import", EXAMPLE)
    code, out, err = run_cli(capsys, "import", EXAMPLE, "--json")
    assert code == 0
    assert json.loads(out) == [{"file": EXAMPLE, "status": "imported", "added": [], "already": [1]}]


@pytest.mark.parametrize(
    "text, where",
    [
        ("[]", "an empty list"),
        ("42", "a game record is a JSON object"),
        ("[1, {}]", "record 1: a game record is a JSON object"),
    ],
)
def test_import_bad_json_shapes(db, capsys, tmp_path, text, where):
    code, out, err = run_cli(capsys, "import", write(tmp_path, "x.json", text))
    assert code == 2 and "x.json: " + where in err


def test_import_a_bad_csv_names_line_and_column(db, capsys, tmp_path):
    text = game_files.csv_text([(1, example())])
    lines = text.splitlines()
    cells = next(csv.reader([lines[3]]))
    cells[csv_rows.COLUMNS.index("articles")] = "eight"
    lines[3] = ",".join(cells)
    code, out, err = run_cli(capsys, "import", write(tmp_path, "bad.csv", "\n".join(lines) + "\n"))
    assert code == 2 and "bad.csv: line 4: column articles: 'eight' is not a whole number" in err
    code, out, err = run_cli(capsys, "import", write(tmp_path, "nohead.csv", "a,b\n1,2\n"))
    assert code == 2 and "nohead.csv: line 1: the CSV header lacks the column(s) game_id" in err
    # a rule problem in a CSV game names the game
    cells = next(csv.reader([text.splitlines()[1]]))
    cells[csv_rows.COLUMNS.index("smiles")] = "-1"
    fixed = text.splitlines()
    fixed[1] = ",".join(cells)
    code, out, err = run_cli(capsys, "import", write(tmp_path, "rule.csv", "\n".join(fixed) + "\n"))
    assert code == 2 and "rule.csv: game 1: " in err and "smiles" in err
    with Store(db) as s:
        assert s.list_games() == []


# --- export ---------------------------------------------------------------------------------


def test_export_json_one_or_several_and_import_it_back(db, capsys, tmp_path):
    partial = example()
    partial["rounds"] = partial["rounds"][:2]
    run_cli(
        capsys,
        "import",
        EXAMPLE,
        write(tmp_path, "o.json", OTHERS),
        write(tmp_path, "p.json", partial),
    )
    code, out, err = run_cli(capsys, "export", "1")
    assert (
        code == 0
        and without_uuid(json.loads(out)) == example()
        and is_uuid(json.loads(out)["uuid"])
    )
    target = str(tmp_path / "all.json")
    code, out, err = run_cli(capsys, "export", "-o", target)
    assert code == 0 and out == "" and "6 games written" in err
    with open(target, encoding="utf-8") as f:
        exported = json.load(f)
    bare = [without_uuid(r) for r in exported]
    assert bare[0] == example() and bare[1:5] == OTHERS and bare[5] == partial
    code, out, err = run_cli(capsys, "import", target, "--db", str(tmp_path / "other.sqlite3"))
    assert code == 0 and "6 games added" in out
    with Store(str(tmp_path / "other.sqlite3")) as s:
        assert [r for _, r in s.games(uuids=True)] == exported  # every game keeps its uuid
    code, out, err = run_cli(capsys, "import", target, "--db", str(tmp_path / "other.sqlite3"))
    assert code == 0 and "already in the history: #1, #2, #3, #4, #5, #6" in out


def test_export_csv_and_import_it_back(db, capsys, tmp_path):
    run_cli(capsys, "import", EXAMPLE, write(tmp_path, "o.json", OTHERS))
    target = str(tmp_path / "all.csv")
    code, out, err = run_cli(capsys, "export", "-o", target)  # the format follows the suffix
    assert code == 0
    with open(target, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == csv_rows.COLUMNS
    ada = [r for r in rows if r["game_id"] == "1" and r["player"] == "Ada"]
    assert [r["round"] for r in ada] == ["1", "2", "3"]
    assert [r["round_score"] for r in ada] == ["14", "19", "19"] and ada[0]["total"] == "52"
    assert (
        ada[0]["token"] == "2" and ada[0]["white_space"] == "4" and ada[0]["pts_white_space"] == "3"
    )
    assert ada[0]["winner"] == "1" and ada[0]["out_of_business"] == "0"
    code, out, err = run_cli(capsys, "import", target, "--db", str(tmp_path / "other.sqlite3"))
    assert code == 0 and "5 games added" in out
    with Store(db) as a, Store(str(tmp_path / "other.sqlite3")) as b:
        assert [r for _, r in a.games(uuids=True)] == [r for _, r in b.games(uuids=True)]
    code, out, err = run_cli(capsys, "export", "2", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == ",".join(csv_rows.COLUMNS)


def test_export_bad_requests(db, capsys, tmp_path):
    code, out, err = run_cli(capsys, "export")
    assert code == 2 and "history is empty" in err
    run_cli(capsys, "import", EXAMPLE)
    code, out, err = run_cli(capsys, "export", "1", "9")
    assert code == 2 and "no game #9" in err
    code, out, err = run_cli(capsys, "export", "--format", "xml")
    assert code == 2
    code, out, err = run_cli(capsys, "export", "-o", str(tmp_path / "no" / "such" / "dir.json"))
    assert code == 1 and "cannot write" in err


def test_vectors_round_trip_through_csv():
    """Every good vector record of the scoring core comes back from CSV unchanged."""
    import glob

    games = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "*", "*.json"))):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        record = data.get("record", data)
        if isinstance(record, dict) and not records.check_record(record):
            games.append((len(games) + 1, record))
    assert len(games) > 20
    back = game_files.parse_csv("v.csv", game_files.csv_text(games))
    assert [r for _, r in back] == [r for _, r in games]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(fit_to_print(), st.sampled_from(OTHERS)), min_size=1, max_size=4))
def test_any_valid_records_survive_csv_and_json(games):
    numbered = [(i + 1, r) for i, r in enumerate(games)]
    back = game_files.parse_csv("g.csv", game_files.csv_text(numbered))
    assert [r for _, r in back] == games
    assert [r for _, r in game_files.parse_json("g.json", game_files.json_text(games))] in (games,)
    assert game_files.check_all("g.csv", back) == games


def test_odd_shapes_go_to_the_extra_columns_and_back():
    # not valid for the core, but the codec itself must not lose them
    odd = [
        {"game": "fit-to-print", "players": [], "rounds": []},
        {
            "players": [{"name": "A", "colour": "red"}, {"name": "B", "character": " jazz"}],
            "rounds": [
                {"day": "", "finish": [], "players": {}},
                {"finish": ["A", "A"], "players": {"A": {"articles": True}}},
                {"extra": 1},
            ],
        },
        {"game": "heat", "players": "Ada,Ben", "rounds": 3},
        {},
    ]
    numbered = [(i + 1, r) for i, r in enumerate(odd)]
    back = csv_rows.from_rows(list(csv.DictReader(io.StringIO(game_files.csv_text(numbered)))))
    assert [r for _, r in back] == odd


def test_csv_rows_with_a_gap_or_a_clash_are_refused():
    rows = csv_rows.to_rows([(1, example())])
    gap = [dict(r) for r in rows]
    for r in gap:
        if r["seat"] == 2:
            r["seat"] = 5
    with pytest.raises(BadInput, match="without a gap"):
        csv_rows.from_rows([dict((k, str(v)) for k, v in r.items()) for r in gap], "g.csv")
    twice = [dict((k, str(v)) for k, v in r.items()) for r in rows]
    twice[4]["token"] = twice[3]["token"]
    with pytest.raises(BadInput, match="line 6: game 1: round 2: finishing tokens"):
        csv_rows.from_rows(twice, "g.csv")


def test_csv_counts_outside_a_player_round_are_refused_not_dropped():
    rows = [dict((k, str(v)) for k, v in r.items()) for r in csv_rows.to_rows([(1, example())])]
    rows[0]["round"] = ""
    with pytest.raises(
        BadInput, match="line 2: column articles: a count belongs to a player in a round"
    ):
        csv_rows.from_rows(rows, "g.csv")


def test_board_times_in_csv_columns_and_a_spreadsheets_semicolons_read_back(db, capsys, tmp_path):
    with open(
        os.path.join(ROOT, "tests", "vectors", "fit_to_print", "board-table-kept.json"),
        encoding="utf-8",
    ) as f:
        record = json.load(f)["record"]
    run_cli(capsys, "import", write(tmp_path, "b.json", record))
    code, out, err = run_cli(capsys, "show", "1")
    assert code == 0 and "B 1:35.4 (reported 1:00.0, laid out 0:35.3)" in out and "tie: A, B" in out
    code, out, err = run_cli(capsys, "export", "1", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["round"], r["player"], r["print_ms"], r["layout_ms"], r["tied"]) for r in rows] == [
        ("1", "A", "171200", "120000", ""),
        ("1", "B", "95400", "60050", ""),
        ("2", "A", "88000", "", "1"),
        ("2", "B", "88000", "", "1"),
        ("3", "A", "179000", "", ""),
        ("3", "B", "", "", ""),
    ]
    # a spreadsheet in a locale with decimal commas saves with `;` (or tabs): read back the same
    grid = list(csv.reader(io.StringIO(out)))
    for name, delimiter in (("semi.csv", ";"), ("tabs.txt", "\t")):
        text = io.StringIO()
        csv.writer(text, delimiter=delimiter).writerows(grid)
        [(_, back)] = game_files.parse_csv(name, text.getvalue())
        assert without_uuid(back) == record
    assert game_files.is_csv("x.txt", "game_id;game;mode\n") and not game_files.is_csv(
        "x.txt", "gameid;x\n"
    )


def test_history_shows_every_player_within_80_columns():
    from presstime.commands.history import table_lines

    names = ["Alexandra", "Benedict", "Cyrano", "Dorothea", "Evangeline", "Fitzgerald"]
    games = [
        {
            "id": 7,
            "played": "2026-11-26",
            "added_at": "",
            "title": "Fit to Print",
            "players": names,
            "play": "3 days",
            "status": "winner: Alexandra, 52 pts",
            "state": "ok",
            "winners": ["Alexandra"],
        }
    ]
    lines = table_lines(games, 80)
    assert all(len(line) <= 80 for line in lines)
    text = " ".join(lines)
    assert all(n in text for n in names) and "\u2026" not in text
