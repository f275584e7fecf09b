"""The stored results (schema 4): computed once, rescored on a SCORING_VERSION bump, damaged rows
named and skipped, running totals that always equal the detail rows, paging and filters, each
game's own words and tie-breaks."""

import json
import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import ZERO_PAD, run_cli
from history_records import OTHERS, fit_to_print
from presstime import cli, games
from presstime.history import game_words, scoring_version, select, stats
from presstime.history.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = [
    os.path.join(ROOT, "examples", n)
    for n in ("fit-to-print.json", "heat.json", "mini-fits.json", "myth-fits.json")
]


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = str(tmp_path / "history.sqlite3")
    monkeypatch.setenv("PRESSTIME_DB", path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert (
        cli.main(["import"] + EXAMPLES) == 0
    )  # games #1 Fit to Print, #2 Heat, #3 Mini FITS, #4 Myth Fits
    return path


def damage(path, game_id, text):
    """What a crash, a bad disk or a hand edit leaves: the stored record replaced behind
    presstime."""
    conn = sqlite3.connect(path)
    if isinstance(text, bytes):
        conn.execute("UPDATE games SET record = CAST(? AS TEXT) WHERE id = ?", (text, game_id))
    else:
        conn.execute("UPDATE games SET record = ? WHERE id = ?", (text, game_id))
    conn.commit()
    conn.close()


# --- one damaged row (the bad-input issue, item 7) -------------------------------------------


@pytest.mark.parametrize(
    "text, reason",
    [
        ('{"game": "heat", broken', "not valid JSON"),
        (b'{"game": "\xff"}', "not UTF-8"),
        ('{"game": "heat", "players": ["Ada"]}', "the core refuses it"),
        ("[1, 2]", "the core refuses it"),
    ],
)
def test_one_damaged_row_is_named_and_the_rest_carries_on(db, capsys, tmp_path, text, reason):
    damage(db, 2, text)
    code, out, err = run_cli(capsys, "history")
    assert code == 0 and "Traceback" not in err
    assert "winner: Ada, 52 pts" in out and "winner: Ben, 23 pts" in out  # the others are all there
    line = [row for row in out.splitlines() if row.startswith("2 ")][0]
    assert "damaged: " in line and reason in line
    assert "1 damaged game" in err and "presstime history --damaged" in err
    code, out, err = run_cli(capsys, "history", "--damaged")
    assert code == 0 and "#2 " in out and reason in out and "presstime delete 2" in out
    assert "\x1b" not in out and "\\x" in out if isinstance(text, bytes) else True  # shown escaped
    code, out, err = run_cli(capsys, "stats", "--json")
    assert code == 0 and [d["id"] for d in json.loads(out)["damaged"]] == [2]
    assert "heat" not in json.loads(out)["games"] and "game #2 left out" in err
    code, out, err = run_cli(capsys, "stats")
    assert code == 0 and "Fit to Print: 1 complete game" in out
    for other in ("1", "3", "4"):
        code, out, err = run_cli(capsys, "show", other)
        assert code == 0 and "Winner: " in out, err
    code, out, err = run_cli(capsys, "show", "2")
    assert (
        code == 1
        and "game #2 is damaged" in err
        and "presstime delete 2" in err
        and "Traceback" not in err
    )
    target = str(tmp_path / "all.json")
    code, out, err = run_cli(capsys, "export", "-o", target)
    assert code == 1 and "game #2 left out, it is damaged" in err and "3 games written" in err
    assert [r["game"] for r in json.load(open(target, encoding="utf-8"))] == [
        "fit-to-print",
        "mini-fits",
        "myth-fits",
    ]
    code, out, err = run_cli(capsys, "export", "--format", "csv")
    assert code == 1 and out.count("\n") > 3
    code, out, err = run_cli(capsys, "delete", "2", "--yes")
    assert code == 0 and "deleted 1 game: #2" in out
    code, out, err = run_cli(capsys, "history")
    assert code == 0 and err == "" and "damaged" not in out
    code, out, err = run_cli(capsys, "export", "-o", target)
    assert code == 0


def test_an_old_database_with_a_damaged_row_migrates(tmp_path):
    from presstime.history import store as store_mod

    path = str(tmp_path / "old.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None)
    store_mod.migrate(conn, target=1)
    conn.execute(
        "INSERT INTO games (record, source, added_at, updated_at) VALUES ('{oops', 'old', 't0', "
        "'t0')"
    )
    conn.close()
    with Store(path) as s:
        assert s.damaged() == [
            (
                1,
                "the stored record is not valid JSON: Expecting property name enclosed "
                "in double quotes",
            )
        ]


# --- computed once, rescored when the scoring changes ----------------------------------------


def test_history_and_stats_do_not_score_again(db, capsys, monkeypatch):
    from presstime.core import games

    def refuse(record):
        raise AssertionError("scored again")

    monkeypatch.setattr(games, "score", refuse)
    monkeypatch.setattr(games, "check", refuse)
    for argv in (
        ["history"],
        ["history", "--all", "--json"],
        ["stats"],
        ["stats", "--json", "--player", "Ada"],
        ["show", "2"],
    ):
        code, out, err = run_cli(capsys, *argv)
        assert code == 0 and "Traceback" not in err, (argv, err)


def test_a_scoring_version_bump_scores_every_stored_game_again(db, capsys, monkeypatch):
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE results SET status = 'stale' WHERE game_id = 1"
    )  # as an older scoring left it
    conn.commit()
    conn.close()
    code, out, err = run_cli(capsys, "history")
    assert (
        "stale" in out and "scored" not in err
    )  # same version: the stored result is read as it is
    monkeypatch.setattr(scoring_version, "SCORING_VERSION", scoring_version.SCORING_VERSION + 1)
    code, out, err = run_cli(capsys, "history")
    assert code == 0 and "stale" not in out and "winner: Ada, 52 pts" in out
    assert (
        "scored 4 stored games again: the scoring changed (version %d, was %d)"
        % (scoring_version.SCORING_VERSION, scoring_version.SCORING_VERSION - 1)
        in err
    )
    with Store(db) as s:
        assert s.conn.execute("SELECT DISTINCT scoring_version FROM results").fetchall() == [
            (scoring_version.SCORING_VERSION,)
        ]
    code, out, err = run_cli(capsys, "history")
    assert "scored" not in err  # once


def test_results_follow_an_update(db):
    with Store(db) as s:
        record = s.get_game(2)
        record["final"]["Dee"]["money"] = 50
        s.update_game(2, record)
        state, result, status, error = s.result(2)
        assert status == "winner: Dee, $50" and state == "complete"


# --- the running totals always equal the detail rows -----------------------------------------

OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("add"), st.one_of(fit_to_print(), st.sampled_from(OTHERS)), st.integers(0, 40)
        ),
        st.tuples(st.just("delete"), st.integers(0, 30), st.just(0)),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_running_totals_equal_the_detail_rows(ops):
    with Store(":memory:", notice=lambda m: None) as store:
        for op, value, n in ops:
            if op == "add":
                record = dict(value, date="2026-01-%02d" % (1 + n % 28), notes="%s" % n)
                store.add_game(record)
            else:
                ids = [g["id"] for g in store.list_games()]
                if ids:
                    store.delete_games([ids[value % len(ids)]])
        kept = stats.from_store(store)
        counted = stats.from_store(store, select.Selection(since="1900-01-01"))
        assert kept == counted
        for game in games.names():
            assert stats.from_store(store, select.Selection(game=game)) == stats.from_store(
                store, select.Selection(game=game, until="2999-12-31")
            )
        dirty = store.conn.execute("SELECT COUNT(*) FROM agg_streaks WHERE dirty").fetchone()[0]
        assert dirty == 0  # counted again once, and kept


def test_streaks_in_the_order_played(tmp_path):
    def heat(date, winner):
        money = dict(
            (n, {"money": 30 if n == winner else 10, "heat": 0}) for n in ("Ada", "Ben", "Cy")
        )
        return {
            "game": "heat",
            "heat_value": 1,
            "players": ["Ada", "Ben", "Cy"],
            "final": money,
            "date": date,
        }

    with Store(str(tmp_path / "s.sqlite3")) as store:
        # stored out of order: Ada won the 1st, 2nd, 4th and 5th of March, Ben the 3rd
        for date, winner in [
            ("2026-03-05", "Ada"),
            ("2026-03-01", "Ada"),
            ("2026-03-03", "Ben"),
            ("2026-03-02", "Ada"),
            ("2026-03-04", "Ada"),
        ]:
            store.add_game(heat(date, winner))
        ada = stats.from_store(store)["games"]["heat"]["players"]["Ada"]
        assert (ada["longest_streak"], ada["current_streak"], ada["wins"], ada["win_rate"]) == (
            2,
            2,
            4,
            0.8,
        )
        store.add_game(heat("2026-03-06", "Cy"))  # in order: kept by the triggers
        ada = stats.from_store(store)["games"]["heat"]["players"]["Ada"]
        assert (ada["longest_streak"], ada["current_streak"]) == (2, 0)


def test_head_to_head(db, capsys):
    code, out, err = run_cli(capsys, "stats", "--vs", "Ada", "Ben", "--json")
    h2h = json.loads(out)["head_to_head"]
    assert h2h["games"]["fit-to-print"] == {
        "games": 1,
        "wins": [1, 0],
        "ahead": [1, 0],
        "level": 0,
        "average_score": [52.0, 37.0],
    }
    assert h2h["games"]["heat"]["level"] == 1 and h2h["games"]["heat"]["wins"] == [0, 1]
    code, out, err = run_cli(capsys, "stats", "--vs", "Ada", "Ben")
    assert "Ada against Ben, Heat: 1 game together, level 1" in out


# --- paging, filters, unknown choices ---------------------------------------------------------


def test_history_pages_newest_first_and_filters(db, capsys, tmp_path):
    games = []
    for day in range(1, 31):
        record = json.load(open(EXAMPLES[0], encoding="utf-8"))
        record["date"] = "2026-04-%02d" % day
        games.append(record)
    path = tmp_path / "april.json"
    path.write_text(json.dumps(games))
    assert run_cli(capsys, "import", str(path))[0] == 0
    code, out, err = run_cli(capsys, "history", "--json")
    page = json.loads(out)
    assert len(page) == 20 and [g["id"] for g in page[:4]] == [
        4,
        3,
        2,
        1,
    ]  # played today, newest first
    assert page[4]["played"] == "2026-04-30 00:00:00" and "1–20 of 34 games" in err
    code, out, err = run_cli(
        capsys, "history", "--json", "--until", "2026-04-30", "--page", "2", "--limit", "10"
    )
    assert [g["played"][:10] for g in json.loads(out)][:2] == ["2026-04-20", "2026-04-19"]
    code, out, err = run_cli(capsys, "history", "--until", "2026-04-30")
    assert (
        out.count("\n") == 22 and "1–20 of 30 games until 2026-04-30, newest first: --page 2" in out
    )
    code, out, err = run_cli(capsys, "history", "--all", "--json")
    assert len(json.loads(out)) == 34 and err == ""
    code, out, err = run_cli(
        capsys, "history", "--json", "--since", "2026-04-10", "--until", "2026-04-12"
    )
    assert [g["played"][:10] for g in json.loads(out)] == ["2026-04-12", "2026-04-11", "2026-04-10"]
    code, out, err = run_cli(capsys, "history", "--json", "--game", "heat", "--player", "dee")
    assert [g["id"] for g in json.loads(out)] == [2]
    code, out, err = run_cli(capsys, "history", "--player", "Zed", "--game", "heat")
    assert code == 0 and out == "No Heat games with Zed in the history.\n"
    code, out, err = run_cli(capsys, "history", "--since", "2026-13-01")
    assert code == 2 and "a day is written YYYY-MM-DD" in err


@pytest.mark.parametrize(
    "argv", [["history"], ["stats"], ["export"], ["chart", "--all", "-o", "x.png"]]
)
def test_an_unknown_game_or_mode_lists_the_choices(db, capsys, argv):
    code, out, err = run_cli(capsys, *argv, "--game", "chess")
    assert code == 2 and "unknown game" in err and "fit-to-print, heat, mini-fits, myth-fits" in err
    if argv[0] != "chart":
        code, out, err = run_cli(capsys, *argv, "--mode", "speed")
        assert code == 2 and "standard, solo, puzzle, family, turn-based" in err


def test_an_empty_selection_says_what_was_selected(db, capsys):
    code, out, err = run_cli(capsys, "stats", "--mode", "family")
    assert code == 0 and out == "No Fit to Print (family) games in the history.\n"
    code, out, err = run_cli(capsys, "stats", "--game", "heat", "--since", "2030-01-01")
    assert out == "No Heat games since 2030-01-01 in the history.\n"
    code, out, err = run_cli(capsys, "export", "--game", "heat", "--player", "Zed")
    assert code == 2 and "no Heat games with Zed in the history" in err


def test_the_modes_are_the_cores():
    from presstime.core import fit_to_print

    assert set(games.face("fit-to-print").RECORD_MODES) == set(fit_to_print.MODES)
    assert games.with_modes() == ["fit-to-print"]


# --- each game's own words --------------------------------------------------------------------


def test_history_speaks_each_games_words(db, capsys):
    code, out, err = run_cli(capsys, "history")
    rows = {row.split()[0]: row for row in out.splitlines()[1:]}
    assert (
        "3 days" in rows["1"]
        and "3 heists" in rows["2"]
        and "2 rounds" in rows["3"]
        and "6x4 grid" in rows["4"]
    )
    assert "rounds 0" not in out
    assert "winner: Ben (tie at $31, fewest heat tokens: 2)" in rows["2"]
    assert "winner: Ben (first to 4 photo tokens)" in rows["4"]
    code, out, err = run_cli(capsys, "stats", "--game", "heat")
    assert "money ($)" in out and "heat (heat tokens)" in out and "articles" not in out
    assert "finishing token" not in out and "ad revenue" not in out


def _ftp(pads, finish, edition=None):
    record = {
        "game": "fit-to-print",
        "players": sorted(pads),
        "rounds": [
            {"day": d, "finish": finish, "players": pads} for d in ("friday", "saturday", "sunday")
        ],
    }
    if edition:
        record["edition"] = edition
    return record


@pytest.mark.parametrize(
    "pads, finish, edition, expected",
    [
        # the same scorepads: a tie on points broken by the finishing token on the last day
        (
            {
                "A": dict(ZERO_PAD, articles=5, white_space=1, ads=2),
                "B": dict(ZERO_PAD, articles=5, white_space=1, ads=2),
            },
            ["B", "A"],
            None,
            "tie at 24 pts broken by the earliest finishing token on the last day (token 1)",
        ),
        # draft edition: the ads decide first
        (
            {
                "A": dict(ZERO_PAD, articles=5, white_space=1, ads=2),
                "B": dict(ZERO_PAD, articles=5, white_space=1, ads=3),
            },
            ["A", "B"],
            "draft",
            "tie at 24 pts broken by most ad revenue ($9)",
        ),
    ],
)
def test_a_tie_break_is_explained(pads, finish, edition, expected):
    from presstime import records

    result = records.tally(_ftp(pads, finish, edition))
    assert game_words.decided_by(result) == expected
    from presstime.report import standings_text

    assert "(%s)" % expected in standings_text(result)


def test_a_shared_win_says_what_tied():
    from presstime import records

    result = records.tally(
        {
            "game": "mini-fits",
            "players": ["A", "B"],
            "rounds": [
                {"players": {"A": {"lines": 5}, "B": {"lines": 5}}},
                {
                    "players": {
                        "A": {"lines": 5, "colour_sets": 1},
                        "B": {"lines": 5, "colour_sets": 1},
                    }
                },
            ],
        }
    )
    assert game_words.decided_by(result) == "tie at 13 pts: shared"
