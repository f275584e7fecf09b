"""Laws of the Mini FITS, Heat and Myth Fits scoring (hypothesis).

- check() never raises, whatever JSON it is given, and score() accepts what check() accepts;
- seating players in another order never changes anyone's result or who wins;
- Mini FITS: a total is the sum of its rounds, each round 0..19, the game 0..29;
- Heat: the winners have the highest total, and among those the least heat;
- Myth Fits: at most one winner, and only in a complete game.
"""

import json

import pytest
from hypothesis import given, settings, strategies as st

from presstime.core import games

NAMES = st.sampled_from(["Ada", "Ben", "Cy", "Dee", "Eve", "Zed"])
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 50)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | NAMES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | NAMES, inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "players",
                    "rounds",
                    "lines",
                    "colour_sets",
                    "final",
                    "money",
                    "heat",
                    "heat_value",
                    "arrested",
                    "photo_tokens",
                    "gathered",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    game=st.sampled_from(["mini-fits", "heat", "myth-fits"]),
    body=st.dictionaries(
        st.sampled_from(
            ["players", "rounds", "final", "heat_value", "arrested", "photo_tokens", "gathered"]
        ),
        JSON,
        max_size=5,
    ),
    names=st.lists(NAMES, max_size=6),
)
def test_check_never_raises(game, body, names):
    for record in (dict(body, game=game), dict(body, game=game, players=names)):
        problems = games.check(record)
        assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
        if not problems:
            json.dumps(games.score(record))


def _seated(record, order):
    """The same game with the players seated in `order` (a permutation of indexes)."""
    out = dict(record)
    out["players"] = [record["players"][i] for i in order]
    return out


def _by_name(result):
    return {p["name"]: p for p in result["players"]}, sorted(result["winners"])


@st.composite
def mini_fits(draw):
    names = ["Ada", "Ben", "Cy", "Dee"][: draw(st.integers(1, 4))]
    rounds = []
    for r in range(draw(st.integers(0, 2))):
        entries = {}
        for n in names:
            entries[n] = {"lines": draw(st.integers(0, 10))}
            if r == 1:
                entries[n]["colour_sets"] = draw(st.integers(0, 3))
        rounds.append({"players": entries})
    return {"game": "mini-fits", "players": names, "rounds": rounds}


@st.composite
def heat(draw):
    names = ["Ada", "Ben", "Cy", "Dee", "Eve"][: draw(st.integers(3, 5))]
    final = {}
    left = 15
    for n in names:
        h = draw(st.integers(0, left))
        left -= h
        final[n] = {"money": draw(st.integers(0, 80)), "heat": h}
    return {
        "game": "heat",
        "heat_value": draw(st.integers(0, 6)),
        "players": names,
        "final": final,
        "arrested": draw(st.booleans()),
    }


@st.composite
def myth_fits(draw):
    n = draw(st.integers(2, 4))
    names = ["Ada", "Ben", "Cy", "Dee"][:n]
    target = n + 1
    tokens = {}
    holder = draw(st.none() | st.sampled_from(names))
    for name in names:
        tokens[name] = target if name == holder else draw(st.integers(0, target - 1))
    gathered = draw(st.none() | st.sampled_from(names))
    if holder is not None and gathered is not None:
        gathered = holder
    return {"game": "myth-fits", "players": names, "photo_tokens": tokens, "gathered": gathered}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(record=st.one_of(mini_fits(), heat(), myth_fits()), data=st.data())
def test_seating_never_changes_results(record, data):
    assert games.check(record) == []
    order = data.draw(st.permutations(range(len(record["players"]))))
    assert _by_name(games.score(record)) == _by_name(games.score(_seated(record, order)))


@settings(max_examples=200, deadline=None)
@given(record=mini_fits())
def test_mini_fits_totals(record):
    result = games.score(record)
    for p in result["players"]:
        assert p["total"] == sum(r["score"] for r in p["rounds"])
        assert all(0 <= r["score"] <= 19 for r in p["rounds"]) and 0 <= p["total"] <= 29
    if result["winners"]:
        assert result["complete"] and len(result["players"]) > 1
        top = max(p["total"] for p in result["players"])
        assert sorted(result["winners"]) == sorted(
            p["name"] for p in result["players"] if p["total"] == top
        )


@settings(max_examples=200, deadline=None)
@given(record=heat())
def test_heat_winners(record):
    result = games.score(record)
    players = result["players"]
    if record["arrested"]:
        assert result["winners"] == []
        return
    top = max(p["total"] for p in players)
    least = min(p["heat"] for p in players if p["total"] == top)
    assert sorted(result["winners"]) == sorted(
        p["name"] for p in players if p["total"] == top and p["heat"] == least
    )
    for p in players:
        assert p["total"] == p["money"] - p["heat"] * record["heat_value"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(record=myth_fits())
def test_myth_fits_one_winner_at_most(record):
    result = games.score(record)
    assert len(result["winners"]) <= 1
    assert bool(result["winners"]) == result["complete"]
