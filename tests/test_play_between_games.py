"""Between rounds each player's round score; at the end the winner, then the same seats again."""

import argparse
import json

from presstime import records
from presstime.commands import play
from presstime.tableside.play_loop import same_players_again
from presstime.tableside.play_session import round_scores


def test_round_scores_show_each_players_round_best_total_first():
    result = records.tally(json.load(open("examples/fit-to-print.json")))
    lines = round_scores(result, 1)
    assert lines[0].split() == ["player", "round", "total", "ads", "$"]
    assert [line.split()[:3] for line in lines[1:]] == [
        ["Ada", "+19", "52"],
        ["Ben", "+11", "37"],
        ["Cy", "+14", "32"],
    ]


def test_round_scores_fit_80_columns_with_long_names():
    result = {
        "players": [
            {"name": "N" * 60, "total": 5, "ad_revenue": 1, "rounds": [{"score": 5}]},
            {"name": "Bo", "total": 3, "ad_revenue": 0, "rounds": []},
        ]
    }
    lines = round_scores(result, 0)
    assert all(len(line) <= 80 for line in lines) and "-" in lines[2]


def test_same_players_again_is_asked_on_a_terminal_only(monkeypatch):
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self):
            return True

    said = []
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    assert same_players_again(lambda p: "y", said.append, demo=False) is False
    monkeypatch.setattr(sys, "stdin", Tty())
    assert same_players_again(lambda p: "y", said.append, demo=False) is True
    assert same_players_again(lambda p: "", said.append, demo=False) is False
    assert same_players_again(lambda p: "y", said.append, demo=True) is False


def test_the_next_game_keeps_the_seats():
    args = argparse.Namespace(players=None, game="fit-to-print", duration="3:00")
    again = play._same_seats(args, ["Ada", "Ben", "Cy"])
    assert again.players == "Ada,Ben,Cy" and again.duration == "3:00" and args.players is None
