"""Every stored game has a stable `uuid`: typed games are distinct games whatever their numbers;
an import finds the games it already holds by uuid (or, without one, by content) and nothing
else; the uuid is given when a game is drafted and kept through edits, exports and imports."""

import json
import os

from enter_runner import run_enter
from presstime import cli
from presstime.history.store import Store, without_uuid
from presstime.records import is_uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAT = os.path.join(ROOT, "examples", "heat.json")


def _uuids(db):
    with Store(db) as s:
        return [s.game_uuid(g["id"]) for g in s.list_games()]


def test_three_typed_games_with_the_same_numbers_are_three_games(tmp_path):
    db = str(tmp_path / "h.db")
    for n in (1, 2, 3):  # Heat, everybody arrested: the very same record each time
        code, out = run_enter([], ["heat", "Ada", "Ben", "Cy", "", "y", "done"], db)
        assert code == 0 and "Stored as game #%d" % n in out
    uuids = _uuids(db)
    assert len(uuids) == 3 == len(set(uuids)) and all(is_uuid(u) for u in uuids)


def test_a_typed_game_equal_to_an_imported_one_is_not_swallowed(tmp_path, capsys):
    db = str(tmp_path / "h.db")
    assert cli.main(["import", HEAT, "--db", db]) == 0
    with open(HEAT, encoding="utf-8") as f:
        record = json.load(f)
    with Store(db) as s:
        assert s.add_game(record, "enter") == 2
        assert s.add_games([record], "import") == [1]  # a re-import finds the first, by content


def test_the_draft_uuid_becomes_the_game_uuid_and_survives_edits_and_export(tmp_path, capsys):
    db, other = str(tmp_path / "h.db"), str(tmp_path / "other.db")
    with open(HEAT, encoding="utf-8") as f:
        record = json.load(f)
    with Store(db) as s:
        s.save_draft("k", {"game": "heat"})
        s.save_draft("k", record)  # saved again: the same draft, same uuid
        [drafted] = s.conn.execute("SELECT uuid FROM drafts WHERE key = 'k'").fetchone()
        game_id = s.add_game(record, "enter", draft_key="k")
        assert s.load_draft("k") is None and s.game_uuid(game_id) == drafted
        s.update_game(game_id, dict(record, notes="edited"))
        assert s.game_uuid(game_id) == drafted and "uuid" not in s.get_game(game_id)
        s.add_game(record, "enter")  # a typed twin: its own uuid
    out = str(tmp_path / "all.json")
    assert cli.main(["export", "-o", out, "--db", db]) == 0
    with open(out, encoding="utf-8") as f:
        exported = json.load(f)
    assert exported[0]["uuid"] == drafted and exported[1]["uuid"] != drafted
    assert without_uuid(exported[1]) == record
    assert cli.main(["import", out, "--db", other]) == 0
    assert _uuids(other) == [drafted, exported[1]["uuid"]]
    capsys.readouterr()
    assert cli.main(["import", out, "--db", other]) == 0  # again: both found by their uuids
    assert "already in the history: #1, #2" in capsys.readouterr().out
    assert cli.main(["export", "-o", str(tmp_path / "all.csv"), "--db", db]) == 0
    assert cli.main(["import", str(tmp_path / "all.csv"), "--db", other]) == 0
    assert "already in the history: #1, #2" in capsys.readouterr().out


def test_an_import_with_a_malformed_uuid_is_refused(tmp_path, capsys):
    with open(HEAT, encoding="utf-8") as f:
        record = json.load(f)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(dict(record, uuid="game-1")), encoding="utf-8")
    assert cli.main(["import", str(path), "--db", str(tmp_path / "h.db")]) == 2
    assert "uuid: must be a game's id as `presstime export` writes it" in capsys.readouterr().err
