"""presstime stats (numbers worked out by hand on known games) and presstime chart (real files)."""

import json
import sys
import xml.etree.ElementTree as ET

import pytest

from helpers import ZERO_PAD, run_cli
from history_records import OTHERS
from presstime import cli
from presstime.history import stats as history_stats


def pad(**kw):
    p = dict(ZERO_PAD)
    p.update(kw)
    return p


def game(pads, finish, rounds=3):
    names = list(finish)
    days = ["friday", "saturday", "sunday"]
    return {
        "game": "fit-to-print",
        "players": sorted(names),
        "rounds": [
            {"day": days[i], "finish": list(finish), "players": dict(pads)} for i in range(rounds)
        ],
    }


# Worked by hand (published edition, white space compared at the table: smallest +3, largest -1):
# G1: A 5 articles, area 1 (+3) = 8 a round, 24; B 3 articles, area 2 (-1) = 2 a round, 6. $6 each.
# A wins.
G1 = game(
    {"A": pad(articles=5, white_space=1, ads=2), "B": pad(articles=3, white_space=2, ads=2)},
    ["A", "B"],
)
# G2: the same with A and B swapped, B finishing first. B wins 24 to 6.
G2 = game(
    {"B": pad(articles=5, white_space=1, ads=2), "A": pad(articles=3, white_space=2, ads=2)},
    ["B", "A"],
)
# G3: A 4 + 3 = 7 a round (21), B 4 + 1 = 5 (15),
#     C 10 - 1 (area 5, largest) - 2 (mood) - 1 (unplaced) = 6 (18);
#     C has $0, the sole lowest: out of business. A wins.
G3 = game(
    {
        "A": pad(articles=4, white_space=1, ads=2),
        "B": pad(articles=4, white_space=3, ads=2),
        "C": pad(articles=10, white_space=5, smiles=2, unplaced=1),
    },
    ["A", "B", "C"],
)
# in progress: one round only, not counted
G4 = game(
    {"A": pad(articles=9, white_space=1, ads=5), "B": pad(articles=1, white_space=2, ads=1)},
    ["A", "B"],
    1,
)
MINI = OTHERS[0]  # Mini FITS: Ada 7 + 8 + 2x3 = 21, Ben 5 + 8 + 3 = 16


def test_stats_on_known_games():
    stats = history_stats.compute([G1, G2, G3, G4, MINI])
    ftp = stats["games"]["fit-to-print"]
    assert (ftp["games"], ftp["in_progress"]) == (3, 1) and "damaged" not in stats
    a, b, c = ftp["players"]["A"], ftp["players"]["B"], ftp["players"]["C"]
    assert (a["games"], a["wins"], a["average_score"], a["out_of_business"]) == (
        3,
        2,
        17.0,
        0,
    )  # (24+6+21)/3
    assert (b["games"], b["wins"], b["average_score"], b["out_of_business"]) == (
        3,
        1,
        15.0,
        0,
    )  # (6+24+15)/3
    assert (c["games"], c["wins"], c["average_score"], c["out_of_business"]) == (1, 0, 18.0, 1)
    assert a["average_token"] == 1.33  # tokens 1,1,1 2,2,2 1,1,1 → 12/9
    assert b["average_token"] == 1.67  # 2,2,2 1,1,1 2,2,2 → 15/9
    assert c["average_token"] == 3.0
    assert a["average_ad_revenue"] == 6.0 and c["average_ad_revenue"] == 0.0
    assert a["rounds"] == 9
    assert a["per_round"]["articles"] == 4.0  # (15 + 9 + 12) / 9
    assert a["per_round"]["white_space"] == 1.67  # (9 - 3 + 9) / 9
    assert a["per_round"]["score"] == 5.67  # 51 / 9
    assert a["per_round"]["ad_revenue"] == 2.0
    assert a["per_round"]["mood"] == 0.0
    assert c["per_round"] == {
        "articles": 10.0,
        "photos": 0.0,
        "centerpiece": 0.0,
        "white_space": -1.0,
        "white_space_area": 5.0,
        "mood": -2.0,
        "unplaced": -1.0,
        "score": 6.0,
        "ad_revenue": 0.0,
    }
    mini = stats["games"]["mini-fits"]
    assert mini["games"] == 1
    assert mini["players"]["Ada"]["wins"] == 1 and mini["players"]["Ada"]["average_score"] == 21.0
    assert mini["players"]["Ben"]["per_round"]["lines"] == 6.5  # (5 + 8) / 2
    assert mini["players"]["Ben"]["average_token"] is None


def test_other_games_per_game_columns():
    stats = history_stats.compute(OTHERS)
    heat = stats["games"]["heat"]
    assert heat["games"] == 2  # the arrested game is complete, with no winner
    assert heat["players"]["Ada"]["wins"] == 1
    assert heat["players"]["Ada"]["per_game"]["money"] == 40.0
    myth = stats["games"]["myth-fits"]
    assert myth["games"] == 0 and myth["in_progress"] == 1


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_DB", str(tmp_path / "h.sqlite3"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    path = tmp_path / "games.json"
    path.write_text(json.dumps([G1, G2, G3, G4, MINI, OTHERS[1]]))
    assert cli.main(["import", str(path)]) == 0
    return tmp_path


def test_stats_command_json_and_text(db, capsys):
    code, out, err = run_cli(capsys, "stats", "--json")
    assert code == 0
    assert json.loads(out) == history_stats.compute([G1, G2, G3, G4, MINI, OTHERS[1]])
    code, out, err = run_cli(capsys, "stats")
    assert code == 0 and "\x1b[" not in out
    assert "Fit to Print: 3 complete games (1 in progress, not counted)" in out
    assert "Mini FITS: 1 complete game" in out and "Heat: 1 complete game" in out
    line = [row for row in out.splitlines() if row.strip().startswith("A ")][0].split()
    # games, wins, win%, avg, best, streak longest/now (G1 won, G2 lost, G3 won), out, token, ads $
    assert line == ["A", "3", "2", "67%", "17.00", "24", "1/1", "0", "1.33", "6.00"]
    code, out, err = run_cli(capsys, "stats", "--game", "heat", "--json")
    assert list(json.loads(out)["games"]) == ["heat"]
    code, out, err = run_cli(capsys, "stats", "--mode", "standard", "--json")
    assert list(json.loads(out)["games"]) == ["fit-to-print"]
    code, out, err = run_cli(capsys, "stats", "--mode", "solo", "--json")
    assert json.loads(out) == {"games": {}, "overall": {}}


def test_stats_on_an_empty_history(tmp_path, capsys):
    code, out, err = run_cli(capsys, "stats", "--db", str(tmp_path / "e.sqlite3"))
    assert code == 0 and "No games" in out


PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "which", [["1"], ["3"], ["4"], ["5"], ["6"], ["--all"], ["--all", "--game", "mini-fits"]]
)
def test_chart_writes_a_real_png_and_svg(db, capsys, which):
    pytest.importorskip("matplotlib")
    import matplotlib.image

    png = str(db / "c.png")
    svg = str(db / "c.svg")
    code, out, err = run_cli(capsys, "chart", *which, "-o", png)
    assert code == 0, err
    with open(png, "rb") as f:
        assert f.read(8) == PNG
    height, width = matplotlib.image.imread(png).shape[:2]
    assert width > 500 and height > 200
    code, out, err = run_cli(capsys, "chart", *which, "-o", svg)
    assert code == 0, err
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    with open(svg, encoding="utf-8") as f:
        assert 'id="axes_2"' in f.read()  # two panels: progression and breakdown


@pytest.mark.slow
def test_chart_bad_requests(db, capsys):
    code, out, err = run_cli(capsys, "chart", "1", "-o", str(db / "c.gif"))
    assert code == 2 and "c.gif: a chart file ends in .png or .svg" in err
    code, out, err = run_cli(capsys, "chart", "99", "-o", str(db / "c.png"))
    assert code == 2 and "no game #99" in err
    code, out, err = run_cli(
        capsys, "chart", "--all", "--game", "myth-fits", "-o", str(db / "c.png")
    )
    assert code == 2 and "no complete myth-fits game" in err
    code, out, err = run_cli(capsys, "chart", "-o", str(db / "c.png"))
    assert code == 2  # neither an ID nor --all
    code, out, err = run_cli(capsys, "chart", "1", "-o", str(db / "missing" / "c.png"))
    assert code == 1 and "cannot write" in err


def test_chart_without_matplotlib_says_how_to_install_it(db, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    target = db / "c.png"
    code, out, err = run_cli(capsys, "chart", "1", "-o", str(target))
    assert code == 1
    from presstime.extras import ROOT

    assert (
        "pip install -e '%s[charts]'" % ROOT in err or "pip install -e '.[charts]'" in err
    ) and "Traceback" not in err
    assert not target.exists()


def test_install_hints_name_the_checkout(tmp_path, monkeypatch):
    from presstime.extras import ROOT, install_hint

    monkeypatch.chdir(ROOT)
    assert install_hint("charts") == "pip install -e '.[charts]'"
    monkeypatch.chdir(tmp_path)
    assert install_hint("flash") == "pip install -e '%s[flash]'" % ROOT
    assert install_hint("flash", root=str(tmp_path)) == "pip install 'presstime[flash]'"


def test_average_print_time_from_the_rounds_the_board_timed():
    import copy

    timed = copy.deepcopy(G1)
    timed["rounds"][0]["table"] = {
        "print_ms": {"A": 60000, "B": 90000},
        "end": "all printed",
        "elapsed_ms": 90000,
    }
    timed["rounds"][2]["table"] = {
        "print_ms": {"A": 121000},
        "end": "time-out",
        "elapsed_ms": 180000,
    }
    stats = history_stats.compute([timed, G2])
    a, b = (
        stats["games"]["fit-to-print"]["players"]["A"],
        stats["games"]["fit-to-print"]["players"]["B"],
    )
    assert a["average_print_ms"] == 90500 and b["average_print_ms"] == 90000  # (60000 + 121000) / 2
    assert (
        history_stats.compute([G1])["games"]["fit-to-print"]["players"]["A"]["average_print_ms"]
        is None
    )
    from presstime.commands.stats import stats_text

    text = stats_text(stats)
    assert "print: average Print! time" in text and "1:30.5" in text
    assert "Print!" not in stats_text(history_stats.compute([G1]))


@pytest.mark.parametrize("game_id", ["1", "5", "6"])
def test_card_writes_a_real_png_and_svg_with_the_table_and_the_winner(db, capsys, game_id):
    pytest.importorskip("matplotlib")
    import matplotlib.image

    png, svg = str(db / "card.png"), str(db / "card.svg")
    code, out, err = run_cli(capsys, "card", game_id, "-o", png)
    assert code == 0 and "result card written" in err, err
    with open(png, "rb") as f:
        assert f.read(8) == PNG
    height, width = matplotlib.image.imread(png).shape[:2]
    assert width > 400 and height > 250
    import matplotlib

    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text, so the test can read it
    try:
        code, out, err = run_cli(capsys, "card", game_id, "-o", svg)
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    text = open(svg, encoding="utf-8").read()
    assert code == 0 and "Winner: " in text and "player" in text and "total" in text


def test_chart_puts_each_unit_on_its_own_axis(db, capsys):
    pytest.importorskip("matplotlib")
    from presstime import records
    from presstime.commands.chart import unit_panels

    heat = records.tally(OTHERS[1])
    assert [u for u, _ in unit_panels("heat", heat)] == ["$", "heat tokens"]
    code, out, err = run_cli(capsys, "card", "99", "-o", str(db / "c.png"))
    assert code == 2 and "no game #99" in err


def test_a_family_mode_day_is_not_white_space_zero():
    # A: white space +3 a day in standard (G1); in family mode the day has no white space at all
    family = dict(
        game(
            {
                "A": {
                    "articles": 4,
                    "photos": 0,
                    "centerpiece": 0,
                    "smiles": 0,
                    "frowns": 0,
                    "unplaced": 0,
                    "ads": 1,
                },
                "B": {
                    "articles": 2,
                    "photos": 0,
                    "centerpiece": 0,
                    "smiles": 0,
                    "frowns": 0,
                    "unplaced": 0,
                    "ads": 1,
                },
            },
            ["A", "B"],
        ),
        mode="family",
    )
    for r in family["rounds"]:
        del r["finish"]  # family mode has no finishing tokens
    a = history_stats.compute([G1, family])["games"]["fit-to-print"]["players"]["A"]
    alone = history_stats.compute([G1])["games"]["fit-to-print"]["players"]["A"]
    assert a["per_round"]["white_space"] == alone["per_round"]["white_space"] == 3.0
    assert a["per_round"]["articles"] == 4.5  # (5 x 3 + 4 x 3) / 6: both modes have articles


def test_chart_axes_of_whole_numbers_have_whole_ticks():
    from presstime.commands import chart

    plt = chart.load_pyplot()
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [0, 1, 3])
    chart._headroom(ax, [0, 1, 3])
    fig.canvas.draw()
    assert all(float(t).is_integer() for t in ax.get_yticks())
    fig2, ax2 = plt.subplots()
    ax2.plot([0, 1], [0.5, 1.25])
    chart._headroom(ax2, [0.5, 1.25])  # averages keep their fractions
    fig2.canvas.draw()
    assert not all(float(t).is_integer() for t in ax2.get_yticks())
    plt.close("all")


def test_each_date_once():
    from presstime.commands.chart import date_labels

    assert date_labels(["2026-11-20", "2026-11-20", "2026-11-21", "2026-11-21", "2026-11-20"]) == [
        "2026-11-20",
        "",
        "2026-11-21",
        "",
        "2026-11-20",
    ]


def test_chart_and_card_give_the_same_install_hint(capsys):
    outs = []
    for name in ("chart", "card"):
        assert cli.main([name, "--help"]) == 0
        outs.append(" ".join(capsys.readouterr().out.split()))
    hint = "Needs matplotlib: pip install -e '.[charts]' in the presstime checkout."
    assert all(hint in out for out in outs)
