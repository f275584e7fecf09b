"""presstime export --format bgstats: a BGStatsExport.json the BG Stats app and the projects that
read it accept. The schema below is the field names and JSON types those projects use (e.g. the
Go BGStatsUpload structs of servus-extapi, the C# PlayerScore of BGStats.Bot, a BGA-to-BG Stats
converter): ids are integers, a player's `score` a string, `winner` a boolean, `playDate`
"YYYY-MM-DD HH:MM:SS"; a play links its game, its location and its players by those ids."""

import json
import os
import re

import pytest

from presstime import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = [
    os.path.join(ROOT, "examples", n)
    for n in ("fit-to-print.json", "heat.json", "mini-fits.json", "myth-fits.json")
]

SCHEMA = {
    "games": {
        "id": int,
        "uuid": str,
        "name": str,
        "modificationDate": str,
        "cooperative": bool,
        "highestWins": bool,
        "noPoints": bool,
        "usesTeams": bool,
        "bggId": int,
    },
    "players": {
        "id": int,
        "uuid": str,
        "name": str,
        "isAnonymous": bool,
        "modificationDate": str,
        "bggUsername": str,
    },
    "locations": {"id": int, "uuid": str, "name": str, "modificationDate": str},
    "plays": {
        "uuid": str,
        "modificationDate": str,
        "playDate": str,
        "usesTeams": bool,
        "durationMin": int,
        "ignored": bool,
        "manualWinner": bool,
        "rounds": int,
        "gameRefId": int,
        "rating": int,
        "scoringSetting": int,
        "playerScores": list,
    },
}
PLAYER_SCORE = {
    "score": str,
    "winner": bool,
    "newPlayer": bool,
    "startPlayer": bool,
    "playerRefId": int,
    "rank": int,
    "seatOrder": int,
}
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def typed(value, kind):
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_DB", str(tmp_path / "h.sqlite3"))
    partial = json.load(open(EXAMPLES[0], encoding="utf-8"))
    partial["rounds"] = partial["rounds"][:1]
    partial["place"] = "Ada's kitchen"
    partial["date"] = "2026-02-14 20:30"
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(partial))
    assert cli.main(["import"] + EXAMPLES + [str(path)]) == 0
    return tmp_path


def export(capsys, *argv):
    code = cli.main(["export", "--format", "bgstats"] + list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_the_file_has_the_fields_and_types_bg_stats_uses(db, capsys):
    data = export(capsys)
    assert set(data) >= {"games", "players", "locations", "plays"}
    for section, fields in SCHEMA.items():
        assert data[section], section
        for item in data[section]:
            for field, kind in fields.items():
                assert typed(item[field], kind), (section, field, item[field])
            for field in ("modificationDate", "playDate"):
                if field in item:
                    assert STAMP.match(item[field]), item[field]
        ids = [item["id"] for item in data[section] if "id" in item]
        assert len(set(ids)) == len(ids)
    games = dict((g["id"], g) for g in data["games"])
    players = dict((p["id"], p) for p in data["players"])
    locations = dict((loc["id"], loc) for loc in data["locations"])
    for play in data["plays"]:
        assert play["gameRefId"] in games
        if "locationRefId" in play:
            assert play["locationRefId"] in locations
        for score in play["playerScores"]:
            for field, kind in PLAYER_SCORE.items():
                assert typed(score[field], kind), (field, score)
            assert score["playerRefId"] in players


def test_the_mapping(db, capsys):
    data = export(capsys)
    names = dict((g["id"], g["name"]) for g in data["games"])
    who = dict((p["id"], p["name"]) for p in data["players"])
    assert sorted(names.values()) == [
        "Fit to Print",
        "Heat (the heist card game, Asmadi Games)",
        "Mini FITS",
        "Myth Fits",
    ]
    bgg = dict((g["name"], g["bggId"]) for g in data["games"])
    assert bgg["Fit to Print"] == 352574 and bgg["Heat (the heist card game, Asmadi Games)"] == 0
    by_game = {}
    for play in data["plays"]:
        by_game.setdefault(names[play["gameRefId"]].split(" (")[0], []).append(play)
    partial, full = by_game["Fit to Print"]  # oldest first: the partial game was played in February
    assert (
        partial["playDate"] == "2026-02-14 20:30:00"
        and partial["ignored"] is True
        and partial["rounds"] == 1
    )
    assert [loc["name"] for loc in data["locations"]] == ["Ada's kitchen"]
    assert "locationRefId" not in full and full["ignored"] is False
    scores = [
        (who[s["playerRefId"]], s["score"], s["winner"], s["rank"], s["seatOrder"])
        for s in full["playerScores"]
    ]
    assert scores == [
        ("Ada", "52", True, 1, 1),
        ("Ben", "37", False, 2, 2),
        ("Cy", "32", False, 3, 3),
    ]
    [heat] = by_game["Heat"]
    scores = [
        (who[s["playerRefId"]], s["score"], s["winner"], s["rank"]) for s in heat["playerScores"]
    ]
    assert scores == [
        ("Ada", "31", False, 2),
        ("Ben", "31", True, 1),
        ("Cy", "30", False, 3),
        ("Dee", "28", False, 4),
    ]
    assert "fewest heat tokens" in heat["comments"]
    assert heat["manualWinner"] is True  # the rules (fewest heat), not the score, decided
    assert full["manualWinner"] is False and partial["manualWinner"] is False
    assert data["userInfo"]["meRefId"] in who


def test_uuids_are_stable_and_the_selection_applies(db, capsys, tmp_path):
    first, again = export(capsys), export(capsys)
    assert first == again
    target = tmp_path / "BGStatsExport.json"
    assert (
        cli.main(["export", "--game", "heat", "-o", str(target)]) == 0
    )  # the format from the file name
    capsys.readouterr()
    heat = json.loads(target.read_text(encoding="utf-8"))
    assert [g["name"] for g in heat["games"]] == ["Heat (the heist card game, Asmadi Games)"]
    assert len(heat["plays"]) == 1
    assert heat["plays"][0]["uuid"] in [p["uuid"] for p in first["plays"]]


def test_a_play_keeps_its_uuid_through_an_edit_and_is_the_games_own(db, capsys):
    from presstime.history.store import open_store

    before = export(capsys)
    with open_store(str(db / "h.sqlite3")) as store:
        record = store.get_game(1)
        record["notes"] = "corrected later"
        store.update_game(1, record)
        uuids = [store.game_uuid(i) for i in range(1, 6)]
    after = export(capsys)
    assert (
        sorted(p["uuid"] for p in after["plays"])
        == sorted(p["uuid"] for p in before["plays"])
        == sorted(uuids)
    )


def test_one_date_convention_the_local_time_of_this_computer(db, capsys, monkeypatch):
    import time

    from presstime.history.store import open_store

    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30 all year
    time.tzset()
    try:
        with open_store(str(db / "h.sqlite3")) as store:
            record = store.get_game(2)
            record["date"] = "2026-03-01T18:00:00+01:00"
            store.update_game(2, record)
            added = store.conn.execute("SELECT added_at FROM games WHERE id = 1").fetchone()[0]
        data = export(capsys)
        plays = dict((p["comments"].split(":")[0], p) for p in data["plays"])
        assert plays["presstime game #2"]["playDate"] == "2026-03-01 22:30:00"  # converted
        assert (
            plays["presstime game #5"]["playDate"] == "2026-02-14 20:30:00"
        )  # typed, no offset: as is
        from presstime.history.bgstats import local_stamp

        assert plays["presstime game #1"]["entryDate"] == local_stamp(added)
        assert local_stamp("2026-01-01T00:00:00+00:00") == "2026-01-01 05:30:00"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_play_file_is_the_recommended_route(db, capsys, tmp_path):
    target = tmp_path / "presstime.bgsplay"
    assert cli.main(["export", "--me", "Ben", "-o", str(target)]) == 0  # the format from the name
    capsys.readouterr()
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["about"].startswith("This is a Play file that can be read by Board Game Stats")
    backup = export(capsys, "--me", "Ben")
    assert dict((k, v) for k, v in data.items() if k != "about") == backup
    who = dict((p["id"], p["name"]) for p in data["players"])
    assert who[data["userInfo"]["meRefId"]] == "Ben"
    assert cli.main(["export", "--format", "bgsplay", "--me", "Zed"]) == 2
    assert "--me 'Zed': not a player" in capsys.readouterr().err


def test_the_one_tap_link_follows_the_documented_play_data(db, capsys):
    import urllib.parse

    assert cli.main(["show", "2", "--bgstats", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    link = shown["bgstats_link"]
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(urllib.parse.unquote(link.split("?data=", 1)[1]))
    assert data["sourceName"] == "presstime" and STAMP.match(data["playDate"])
    assert (
        data["game"]["name"] == "Heat (the heist card game, Asmadi Games)"
        and "bggId" not in data["game"]
    )
    assert data["manualWinner"] is True
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ada", 31, False, 2),
        ("Ben", 31, True, 1),
        ("Cy", 30, False, 3),
        ("Dee", 28, False, 4),
    ]
    backup = export(capsys)
    assert data["sourcePlayId"] in [p["uuid"] for p in backup["plays"]]
    assert cli.main(["show", "1", "--bgstats"]) == 0
    out = capsys.readouterr().out
    assert "BG Stats, one tap on a phone" in out and "%22bggId%22%3A352574" in out


def test_importing_a_bg_stats_file_says_once_what_it_is(db, capsys, tmp_path):
    target = tmp_path / "BGStatsExport.json"
    assert cli.main(["export", "-o", str(target)]) == 0
    capsys.readouterr()
    assert cli.main(["import", str(target)]) == 2
    err = capsys.readouterr().err
    assert "a BG Stats file" in err and "unknown field" not in err
    assert len([line for line in err.splitlines() if "BG Stats" in line]) == 1
