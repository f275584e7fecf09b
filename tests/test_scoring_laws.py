"""Laws of Fit to Print scoring, checked with hypothesis over generated games."""

import pytest
from hypothesis import given, settings, strategies as st

from presstime.core import fit_to_print as ftp, games

MODES = ["standard", "solo", "puzzle", "family", "turn-based"]
NAMES = ["Ada", "Ben", "Cy", "Dee", "Eli", "Fay"]
count = st.integers(0, 20)


@st.composite
def pads(draw, mode, tiles):
    pad = {
        "articles": draw(count),
        "photos": draw(count),
        "centerpiece": draw(st.integers(-4, 6)),
        "white_space": draw(st.integers(0, 20)),
        "smiles": draw(count),
        "frowns": draw(count),
        "unplaced": draw(count),
        "ads": draw(st.integers(0, 8)),
    }
    if mode == "puzzle":
        pad["unplaced_ads"] = draw(st.integers(0, 1))
    if tiles:
        pad["tiles"] = draw(st.integers(0, 30))
    return pad


@st.composite
def records(draw):
    mode = draw(st.sampled_from(MODES))
    lo, hi = {"solo": (1, 1), "family": (2, 6), "turn-based": (2, 6)}.get(mode, (1, 6))
    n = draw(st.integers(lo, hi))
    if mode == "standard" and n == 1:
        n = 2
    names = NAMES[:n]
    timed = mode in ("standard", "solo")
    players = []
    for name in names:
        character = draw(st.sampled_from([None] + list(ftp.CHARACTERS))) if timed else None
        players.append({"name": name, "character": character} if character else name)
    rounds = []
    for _ in range(draw(st.integers(0, ftp.rounds_in(mode)))):
        news = []
        if timed:
            for effect in draw(
                st.lists(st.sampled_from(ftp.EFFECTS), max_size=1)
            ):  # one card a day
                card = {"effect": effect}
                if effect != "mood-doubled":
                    card["value"] = draw(st.integers(0, 6))
                news.append(card)
        tiles = any(c["effect"] == "most-tiles-ads" for c in news)
        rnd = {"players": {name: draw(pads(mode, tiles)) for name in names}, "breaking_news": news}
        if mode not in ("family", "puzzle"):
            rnd["finish"] = draw(st.permutations(names))
        rounds.append(rnd)
    record = {
        "game": "fit-to-print",
        "mode": mode,
        "edition": draw(st.sampled_from(ftp.EDITIONS)),
        "players": players,
        "rounds": rounds,
    }
    assert games.check(record) == [], games.check(record)
    return record


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(records())
def test_round_score_and_ad_revenue_never_negative(record):
    for p in games.score(record)["players"]:
        for r in p["rounds"]:
            assert r["score"] >= 0 and r["ad_revenue"] >= 0


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(records())
def test_total_is_sum_of_rounds_plus_adjustments(record):
    for p in games.score(record)["players"]:
        if p["total"] is None:  # an incomplete puzzle has no number
            continue
        assert p["total"] == sum(r["score"] for r in p["rounds"]) + sum(
            a["points"] for a in p["adjustments"]
        )


def _renamed(record, mapping):
    def rename(entry):
        if isinstance(entry, dict):
            return dict(entry, name=mapping[entry["name"]])
        return mapping[entry]

    out = dict(record, players=[rename(p) for p in record["players"]], rounds=[])
    for rnd in record["rounds"]:
        new = dict(rnd, players={mapping[k]: v for k, v in rnd["players"].items()})
        if "finish" in rnd:
            new["finish"] = [mapping[n] for n in rnd["finish"]]
        out["rounds"].append(new)
    return out


def _by_name(result, mapping=None):
    back = {v: k for k, v in (mapping or {}).items()}
    out = {}
    for p in result["players"]:
        p = dict(p, name=back.get(p["name"], p["name"]))
        out[p["name"]] = p
    return out, sorted(back.get(w, w) for w in result["winners"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(records(), st.randoms(use_true_random=False))
def test_renaming_or_reordering_players_changes_no_result(record, rnd):
    names = [p["name"] if isinstance(p, dict) else p for p in record["players"]]
    fresh = ["P%d" % i for i in range(len(names))]
    rnd.shuffle(fresh)
    mapping = dict(zip(names, fresh))
    moved = _renamed(record, mapping)
    rnd.shuffle(moved["players"])
    before = _by_name(games.score(record))
    after = _by_name(games.score(moved), mapping)
    assert before == after
