"""Score entry: scripted sessions (mistakes refused and re-asked, corrections, resume, play-style
use)."""

import argparse
import copy
import json

import pytest

from helpers import GOOD_PAD
from presstime import records
from presstime.entry.answers import EntryStopped
from presstime.entry.engine import Entry
from presstime.entry.rounds import questions
from presstime.games.fit_to_print import ask_setup

# The rulebooks' worked example (docs/rules.md §1) as a scorepad line, in the order the entry asks
# the rest: articles, photos, centerpiece, smiles, frowns, unplaced, ads (white space is asked
# first).
ADA = ["8", "5", "2", "3", "5", "2", "3"]
BEN = ["6", "2", "1", "2", "2", "0", "4"]


class Script:
    """Scripted answers for `ask`; records every prompt and every line said."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.prompts = []
        self.said = []

    def ask(self, prompt):
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def say(self, line=""):
        self.said.append(line)

    def text(self):
        return "\n".join(self.said)


def new_record(players=("Ada", "Ben"), mode="standard"):
    return {
        "game": "fit-to-print",
        "mode": mode,
        "edition": "published",
        "players": list(players),
        "rounds": [],
    }


def entry(record, answers):
    script = Script(answers)
    saves = []
    e = Entry(record, lambda r: saves.append(copy.deepcopy(r)), ask=script.ask, say=script.say)
    return e, script, saves


def round_answers(news="", finish="", ws=("4", "7"), pads=(ADA, BEN)):
    out = [finish, news] + list(ws)
    for pad in pads:
        out += pad
    return out


def test_round_is_scored_by_the_core_and_shown_per_player():
    rec = new_record()
    e, s, saves = entry(rec, round_answers(finish="Ben Ada"))
    e.enter_round(0)
    pads = rec["rounds"][0]["players"]
    assert pads["Ada"] == GOOD_PAD
    assert rec["rounds"][0]["finish"] == ["Ben", "Ada"]
    assert rec["rounds"][0]["day"] == "friday"
    # the published worked example: 14 points, $3 (smallest white space +3)
    assert any(line.startswith("  Ada, round 1 (Friday): 14 points, $3") for line in s.said)
    assert any(line.startswith("  Ben, round 1 (Friday): 8 points, $4") for line in s.said)
    # saved after every accepted answer: finish, news, 2 areas, 14 numbers
    assert len(saves) == 2 + 2 + 14
    assert saves[-1] == rec


def test_typing_mistakes_are_refused_and_asked_again():
    rec = new_record()
    answers = (
        [
            "",
            "",
            "four",
            "-3",
            "99",
            "4",  # not a number, negative, more squares than a front page has
            "7",
        ]
        + ["8", "5", "-11", "2", "3", "5", "2.5", "2", "3"]
        + BEN
    )
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    text = s.text()
    assert "'four' is not a number or a command" in text
    assert "white space: must not be negative (got -3)" in text
    assert "white space: 99 squares is more than a front page has" in text
    assert "centerpiece: -11 is outside" in text
    assert "'2.5' is not a number or a command" in text
    assert rec["rounds"][0]["players"]["Ada"]["white_space"] == 4
    assert rec["rounds"][0]["players"]["Ada"]["centerpiece"] == 2
    assert rec["rounds"][0]["players"]["Ada"]["unplaced"] == 2
    # every refused answer was asked again with the same prompt
    ws_prompts = [p for p in s.prompts if "Ada · largest white space" in p]
    assert len(ws_prompts) == 4


def test_negative_centerpiece_is_accepted():
    rec = new_record()
    ada = list(ADA)
    ada[2] = "-2"
    e, s, _ = entry(rec, round_answers(pads=(ada, BEN)))
    e.enter_round(0)
    assert rec["rounds"][0]["players"]["Ada"]["centerpiece"] == -2


def test_back_goes_to_the_previous_question_and_enter_keeps_values():
    rec = new_record()
    answers = ["", "", "4", "7", "8", "5", "2", "back", "back", "6", "", "3", "5", "2", "3"] + BEN
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert rec["rounds"][0]["players"]["Ada"]["photos"] == 6
    assert rec["rounds"][0]["players"]["Ada"]["centerpiece"] == 2
    assert any("Ada · centerpiece (its value, may be negative) [2]" in p for p in s.prompts)
    # after back, the photos prompt shows the current value
    assert any("Ada · photos (points earned) [5]" in p for p in s.prompts)


def test_back_at_the_first_question_says_so():
    rec = new_record()
    e, s, _ = entry(rec, ["", "", "back"] + ["4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert "first question here" in s.text()


def test_fix_player_corrects_an_earlier_player_then_continues():
    rec = new_record()
    # while entering Ben, fix Ada's articles (8 -> 9), then carry on with Ben
    answers = (
        ["", "", "4", "7"] + ADA + ["6", "fix ada", "", "9", "", "", "", "", "", "", ""] + BEN[1:]
    )
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert rec["rounds"][0]["players"]["Ada"]["articles"] == 9
    assert rec["rounds"][0]["players"]["Ben"] == {
        "white_space": 7,
        "articles": 6,
        "photos": 2,
        "centerpiece": 1,
        "smiles": 2,
        "frowns": 2,
        "unplaced": 0,
        "ads": 4,
    }
    assert any(line.startswith("  Ada, round 1 (Friday): 15 points") for line in s.said)


def test_fix_by_seat_number_and_unknown_player():
    rec = new_record()
    answers = ["", "", "4", "7"] + ADA + ["fix Zed", "fix 1"] + [""] * 8 + BEN
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert "no player 'Zed'" in s.text()
    assert "re-entering Ada" in s.text()


def test_round_n_corrects_an_earlier_round():
    rec = new_record()
    e, s, _ = entry(
        rec,
        round_answers()
        + round_answers()[:3]
        + ["round 1", "", "", "", "", "10"]
        + [""] * 13
        + ["7"]
        + ADA
        + BEN,
    )
    # round 1 complete, then in round 2 go back to round 1 and change Ada's articles to 10
    e.enter_round(0)
    e.enter_round(1)
    assert rec["rounds"][0]["players"]["Ada"]["articles"] == 10
    assert rec["rounds"][1]["players"]["Ada"]["articles"] == 8
    assert "going through round 1 (Friday) again" in s.text()
    assert records.check_record(rec) == []


def test_a_round_walked_again_from_its_first_question_goes_on_from_there():
    # `round 1` typed at round 1's first number: the round is gone through (set-up and numbers),
    # then its walk goes on where it was, every question from there asked (Enter keeps each)
    rec = new_record()
    numbers = ["4", "7"] + ADA + BEN
    e, s, _ = entry(rec, ["", "", "round 1", "", ""] + numbers + [""] * len(numbers))
    e.enter_round(0)
    first = "round 1 (Friday) · Ada · largest white space (squares)"
    assert [p for p in s.prompts if p.startswith(first)] == [first + ": "] * 2 + [first + " [4]: "]
    assert s.said.count("  back to round 1 (Friday)") == 1 and s.answers == []
    assert records.check_record(rec) == []


def test_a_round_walked_again_asks_on_only_the_questions_it_still_has():
    # the card that asked each player's tiles is taken back in `round 1`: the walk goes on with
    # the round's questions as they are now, no tile count is asked or kept
    rec = new_record()
    numbers = ["4", "7"] + ADA + BEN
    script = ["", "most-tiles-ads", "round 1", "", "none"] + numbers + [""] * len(numbers)
    e, s, _ = entry(rec, script)
    e.enter_round(0)
    assert rec["rounds"][0]["breaking_news"] == [] and s.answers == []
    assert not [p for p in s.prompts if "tiles on the front page" in p]
    assert "tiles" not in rec["rounds"][0]["players"]["Ada"]
    assert records.check_record(rec) == []


def test_round_n_refuses_a_round_not_started():
    rec = new_record()
    e, s, _ = entry(rec, ["", "", "round 3", "4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert "round N: N is a round already started, 1 to 1" in s.text()


def test_help_lists_the_commands():
    rec = new_record()
    e, s, _ = entry(rec, ["", "", "?", "4", "7"] + ADA + BEN)
    e.enter_round(0)
    text = s.text()
    for command in ("back", "fix NAME", "round N", "show", "quit"):
        assert command in text


def test_eof_stops_with_everything_saved_and_resume_continues():
    rec = new_record()
    answers = round_answers()
    e, s, saves = entry(rec, answers[:9])  # stops in the middle of Ada's numbers
    with pytest.raises(EntryStopped) as stop:
        e.enter_game()
    assert stop.value.eof
    saved = json.loads(json.dumps(saves[-1]))  # as the store keeps it
    assert saved["rounds"][0]["players"]["Ada"]["articles"] == 8
    assert "photos" in saved["rounds"][0]["players"]["Ada"]
    # resume: only what is missing is asked (no news/finish question again)
    rest = answers[9:] + round_answers() + round_answers() + ["done"]
    e2, s2, _ = entry(saved, rest)
    result = e2.enter_game()
    assert "Breaking News" not in s2.prompts[0]
    assert "Ada · tiles left on the desk" in s2.prompts[0]
    assert result["complete"]
    assert [p["total"] for p in result["players"]] == [42, 24]


def test_quit_stops_without_eof():
    rec = new_record()
    e, s, _ = entry(rec, ["", "", "4", "quit"])
    with pytest.raises(EntryStopped) as stop:
        e.enter_round(0)
    assert not stop.value.eof
    assert rec["rounds"][0]["players"]["Ada"]["white_space"] == 4


def test_play_style_use_with_the_finish_order_from_the_board():
    rec = new_record()
    answers = ["", "4", "7"] + ADA + BEN  # only the news card is asked, not the order
    e, s, saves = entry(rec, answers)
    e.enter_round(0, finish=["Ben", "Ada"])
    assert rec["rounds"][0]["finish"] == ["Ben", "Ada"]
    assert not any("finishing order" in p for p in s.prompts)
    assert records.check_record(rec) == []


def test_breaking_news_most_tiles_asks_tiles_first_and_checks_values():
    rec = new_record()
    answers = ["", "most-tiles-ads", "4", "7", "12", "11"] + ADA + BEN
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    rnd = rec["rounds"][0]
    assert rnd["breaking_news"] == [{"effect": "most-tiles-ads", "value": 4}]
    assert rnd["players"]["Ada"]["tiles"] == 12
    assert any(line.startswith("  Ada, round 1 (Friday): 14 points, $7") for line in s.said)


def test_breaking_news_unknown_card_refused():
    rec = new_record()
    answers = ["", "bigfoot", "white-space-best", "white-space-best 5"] + ["4", "7"] + ADA + BEN
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert "unknown card 'bigfoot'" in s.text()
    assert "white-space-best needs the bonus" in s.text()
    assert rec["rounds"][0]["breaking_news"] == [{"effect": "white-space-best", "value": 5}]


def test_bad_finishing_order_refused():
    rec = new_record()
    answers = ["Ada Ada", "Ada Zed", "2 1", ""] + ["4", "7"] + ADA + BEN
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert "Ada already has token 1" in s.text()
    assert "unknown player 'Zed'" in s.text()
    assert rec["rounds"][0]["finish"] == ["Ben", "Ada"]


def test_family_mode_asks_only_what_it_scores():
    rec = new_record(mode="family")
    answers = ["8", "5", "1", "3", "6", "2", "0", "4"]
    e, s, _ = entry(rec, answers)
    e.enter_round(0)
    assert rec["rounds"][0]["players"]["Ada"] == {
        "articles": 8,
        "photos": 5,
        "unplaced": 1,
        "ads": 3,
    }
    assert not any(
        "white space" in p
        or "smiley" in p
        or "centerpiece" in p
        or "Breaking" in p
        or "finishing" in p
        for p in s.prompts
    )


def test_puzzle_mode_asks_unplaced_ads():
    rec = new_record(players=("Ada",), mode="puzzle")
    answers = ["8", "5", "2", "1", "3", "3", "0"]
    e, s, _ = entry(rec, answers + ["done"])
    result = e.enter_game()
    assert rec["rounds"][0]["players"]["Ada"]["unplaced_ads"] == 0
    assert "day" not in rec["rounds"][0]
    assert result["complete"] and not result["incomplete"]


def test_solo_game_uses_the_table_and_no_order():
    rec = new_record(players=("Ada",), mode="solo")
    ada = ADA[:3] + ["4"] + ADA[3:]  # no comparison: white space comes in scorepad order
    e, s, _ = entry(rec, [""] + ada)
    e.enter_round(0)
    assert not any("finishing" in p for p in s.prompts)
    # solo white space table: 4 squares -> +1, so 8+5+2+1-2-2 = 12
    assert any(line.startswith("  Ada, round 1 (Friday): 12 points") for line in s.said)


def test_review_done_reports_problems_and_show_prints_standings():
    rec = new_record()
    answers = round_answers() * 3 + ["show", "nonsense", "done"]
    e, s, _ = entry(rec, answers)
    result = e.enter_game()
    assert "Ada" in s.text() and "'nonsense' is not a number or a command" in s.text()
    assert result["complete"]


def test_setup_refuses_unknown_characters_and_duplicates():
    s = Script(
        [
            "s",
            "",
            "bogus",
            "draft",
            "Ada",
            "Ben:wizard",
            "Ben:Jazz",
            "Ada",
            "",
        ]
    )
    rec = ask_setup(s.ask, s.say)
    text = s.text()
    assert "'s' is not one of" in text  # ambiguous: standard / solo
    assert "'bogus' is not one of" in text
    assert "unknown character 'wizard'" in text
    assert "Ada is named twice" in text
    assert rec["mode"] == "standard" and rec["edition"] == "draft"
    assert rec["players"] == ["Ada", {"name": "Ben", "character": "jazz"}]


def test_setup_mode_rules_for_players():
    s = Script(["family", "", "Ada", "", "Ben:jazz", "Ben", ""])
    rec = ask_setup(s.ask, s.say)
    assert "needs at least 2 players" in s.text()
    assert "characters are not used in family mode" in s.text()
    assert rec["players"] == ["Ada", "Ben"]
    s = Script(["solo", "", "Ada"])
    assert ask_setup(s.ask, s.say)["players"] == ["Ada"]  # solo stops after one player


def test_setup_eof_stops():
    s = Script(["standard"])
    with pytest.raises(EntryStopped):
        ask_setup(s.ask, s.say)


# ------------------------------------------------------------------ the command


def run_enter(tmp_path, answers, *flags):
    from presstime.commands import enter

    parser = argparse.ArgumentParser()
    enter.configure(parser)
    args = parser.parse_args(["--db", str(tmp_path / "h.sqlite3")] + list(flags))
    s = Script(answers)
    return enter.run(args, ask=s.ask, say=s.say), s


SETUP = ["", "", "", "Ada", "Ben", ""]  # game (Enter: Fit to Print), mode, edition, players


def test_enter_command_stores_the_game_and_prints_standings(tmp_path):
    from presstime.history.store import open_store

    rc, s = run_enter(tmp_path, SETUP + round_answers() * 3 + ["done"])
    assert rc == 0
    assert "Stored as game #1" in s.text()
    with open_store(str(tmp_path / "h.sqlite3")) as st:
        assert st.load_draft("enter") is None
        assert len(st.list_games()) == 1


def test_enter_command_resumes_after_eof(tmp_path):
    answers = SETUP + round_answers() * 3 + ["done"]
    rc, s = run_enter(tmp_path, answers[:20])
    assert rc == 1
    assert "run `presstime enter` to continue" in s.text()
    rc, s = run_enter(tmp_path, [""] + answers[20:])  # "Resume it? [Y/n]" -> Enter
    assert rc == 0, s.text()
    assert "A game is in progress" in s.text()
    assert "Stored as game #1" in s.text()


def test_enter_command_resume_without_draft_is_bad_input(tmp_path):
    from presstime.errors import BadInput

    with pytest.raises(BadInput):
        run_enter(tmp_path, [], "--resume")


def test_enter_command_quit_exits_0_and_new_discards(tmp_path):
    rc, s = run_enter(tmp_path, SETUP + ["", "", "quit"])
    assert rc == 0
    rc, s = run_enter(tmp_path, ["quit"], "--new")
    assert rc == 0
    assert "A game is in progress" not in s.text()


@pytest.mark.slow
def test_enter_as_a_process_resumes_after_the_input_ends(tmp_path):
    import subprocess
    import sys

    db = str(tmp_path / "h.sqlite3")
    answers = SETUP + round_answers() * 3 + ["done"]

    def run(lines):
        return subprocess.run(
            [sys.executable, "-m", "presstime.cli", "enter", "--db", db],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            timeout=60,
        )

    first = run(answers[:30])
    assert first.returncode == 1, first.stderr
    assert "run `presstime enter` to continue" in first.stdout
    assert "Traceback" not in first.stderr
    second = run(["y"] + answers[30:])
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Resuming" in second.stdout and "Stored as game #1" in second.stdout
    assert "Ada" in second.stdout.split("Stored as game")[0].rsplit("done", 1)[-1]  # the standings


def test_setup_saves_every_answer_and_resumes():
    saves = []
    s = Script(["family", "", "Ada"])
    with pytest.raises(EntryStopped):
        ask_setup(s.ask, s.say, save=lambda r: saves.append(copy.deepcopy(r)))
    draft = saves[-1]
    assert draft == {
        "game": "fit-to-print",
        "mode": "family",
        "edition": "published",
        "players": ["Ada"],
    }
    s = Script(["Ben", ""])
    rec = ask_setup(s.ask, s.say, record=draft)
    assert rec["players"] == ["Ada", "Ben"] and rec["rounds"] == []
    assert "so far: Ada" in s.text()
    assert not any("Game mode" in p for p in s.prompts)


def test_enter_command_resumes_an_interrupted_setup(tmp_path):
    rc, s = run_enter(tmp_path, ["", "", "", "Ada"])
    assert rc == 1
    rc, s = run_enter(tmp_path, ["", "Ben", ""] + round_answers() * 3 + ["done"])
    assert rc == 0, s.text()
    assert "Resuming the set-up" in s.text()


# ------------------------------------------------------------------ laws


def _full_game_answers():
    """A complete 3-player game with a character, a news card and finishing orders."""
    out = []
    ws = (["4", "7", "5"], ["3", "5", "6"], ["2", "4", "2"])
    pads = (
        [ADA, BEN, ["7", "3", "0", "4", "1", "1", "2"]],
        [
            ["10", "4", "3", "4", "4", "1", "2"],
            ["9", "6", "-2", "3", "5", "2", "3"],
            ["11", "2", "2", "2", "2", "0", "1"],
        ],
        [
            ["12", "6", "2", "5", "3", "0", "3"],
            ["11", "5", "4", "3", "3", "1", "5"],
            ["13", "3", "1", "6", "2", "1", "4"],
        ],
    )
    news = ("", "", "mood-doubled")
    finish = ("2 1 3", "Ada Cy Ben", "3 2 1")
    for r in range(3):
        out += [finish[r], news[r]] + ws[r]
        for pad in pads[r]:
            out += pad
    return out + ["done"]


def _three_players():
    return new_record(players=("Ada", {"name": "Ben", "character": "jazz"}, "Cy"))


@pytest.mark.slow
def test_resume_after_a_cut_at_every_answer_gives_the_same_game():
    answers = _full_game_answers()
    e, s, _ = entry(_three_players(), answers)
    whole = e.enter_game()
    reference = e.record
    for k in range(len(answers)):
        saves = []
        first = Entry(
            _three_players(),
            lambda r: saves.append(json.loads(json.dumps(r))),
            ask=Script(answers[:k]).ask,
            say=lambda line: None,
        )
        with pytest.raises(EntryStopped):
            first.enter_game()
        draft = saves[-1] if saves else _three_players()
        # typed answers already saved are not asked again: the rest of the script finishes the game
        e2, s2, _ = entry(draft, answers[k:])
        assert e2.enter_game() == whole, "cut after %d answers" % k
        assert e2.record == reference, "cut after %d answers" % k


from hypothesis import given, settings, strategies as st  # noqa: E402

JUNK = {
    "white_space": ["-1", "65", "four", "2.5", "", "?x"],
    "centerpiece": ["-11", "21", "x", "", "1,5"],
    "default": ["-1", "100", "abc", "", "3 4", "++2"],
}


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_mistakes_never_change_what_is_stored(data):
    """Any refused answer before any valid one: the record and the tally are as if typed cleanly."""
    clean = round_answers(finish="2 1")
    rec_clean = new_record()
    e, _, _ = entry(rec_clean, clean)
    e.enter_round(0)
    steps = [None, None] + questions(rec_clean, 0)  # finish and news first: no junk there
    noisy = []
    for answer, step in zip(clean, steps):
        if step is not None:
            junk = JUNK.get(step[1], JUNK["default"])
            noisy += data.draw(st.lists(st.sampled_from(junk), max_size=2))
        noisy.append(answer)
    rec = new_record()
    e, s, _ = entry(rec, noisy)
    e.enter_round(0)
    assert rec == rec_clean
    assert records.tally(rec) == records.tally(rec_clean)
