"""Closing a round before every phone is in: the terminal asks only the numbers still missing,
and an accepted submission is never asked again nor typed over."""

import argparse
import copy

import pytest

from presstime.entry.answers import EntryStopped
from presstime.scorepad import at_table
from presstime.scorepad.at_table import TableScorepad, enter_with_phones

ADA = {
    "white_space": 2,
    "articles": 4,
    "photos": 1,
    "centerpiece": 1,
    "smiles": 2,
    "frowns": 1,
    "unplaced": 1,
    "ads": 1,
}


def test_the_terminal_asks_only_what_the_phones_did_not_send(monkeypatch):
    record = {
        "game": "fit-to-print",
        "mode": "standard",
        "edition": "published",
        "players": ["Ada", "Bo", "Cy"],
        "rounds": [],
    }
    pads = []
    start = TableScorepad.start

    def keep(self):
        pads.append(self)
        return start(self)

    def poll(timeout):
        s = pads[0].session
        if s.open and 0 not in s.submitted:
            assert s.submit(0, s.claim(0), dict(ADA)).get("preview")
            return None
        return "\n"  # the host presses Enter: the round closes early

    monkeypatch.setattr(TableScorepad, "start", keep)
    monkeypatch.setattr(at_table, "poll_stdin", poll)
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        if "round 2" in prompt:
            raise EOFError  # the test has seen round 1
        if "finishing order" in prompt or "Breaking News" in prompt:
            return ""
        return "0"

    saved = []
    args = argparse.Namespace(bind="127.0.0.1", scorepad_port=0)
    with pytest.raises(EntryStopped):
        enter_with_phones(
            record, lambda r: saved.append(copy.deepcopy(r)), args, ask, lambda line: None
        )
    numbers = [
        p
        for p in prompts
        if p.startswith("round 1") and "·" in p and "finishing" not in p and "Breaking" not in p
    ]
    assert len(numbers) == 16, numbers  # Bo's and Cy's 8 each, not Ada's again
    assert not [p for p in numbers if "Ada" in p]
    assert record["rounds"][0]["players"]["Ada"] == ADA
    assert record["rounds"][0]["players"]["Bo"]["articles"] == 0
