"""Hypothesis strategies for valid game records (any mode of Fit to Print, and the other games),
shared by the history tests. Every record drawn passes records.check_record."""

from hypothesis import strategies as st

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Zoë", "O'Neil", "Ann, Jr."]
CHARACTERS = ["wilbur", "danae", "renaud", "benoit", "ursule", "jazz"]
DAYS = ["friday", "saturday", "sunday"]


@st.composite
def fit_to_print(draw):
    mode = draw(st.sampled_from(["standard", "solo", "family", "turn-based", "puzzle", None]))
    n = 1 if mode == "solo" else draw(st.integers(2, 6))
    names = draw(st.permutations(NAMES))[:n]
    players = []
    for name in names:
        kind = draw(st.integers(0, 1 if mode in ("family", "turn-based") else 2))
        if kind == 0:
            players.append(name)
        elif kind == 1:
            players.append({"name": name})
        else:
            players.append({"name": name, "character": draw(st.sampled_from(CHARACTERS))})
    rounds_max = 1 if mode in ("turn-based", "puzzle") else 3
    rounds = []
    for r in range(draw(st.integers(0, rounds_max))):
        pads = {}
        for name in names:
            pad = {
                "articles": draw(st.integers(0, 20)),
                "photos": draw(st.integers(0, 8)),
                "centerpiece": draw(st.integers(-2, 4)),
                "white_space": draw(st.integers(0, 12)),
                "smiles": draw(st.integers(0, 6)),
                "frowns": draw(st.integers(0, 6)),
            }
            if mode == "puzzle":
                pad["unplaced_ads"] = draw(st.integers(0, 2))
            else:
                pad["unplaced"] = draw(st.integers(0, 4))
                pad["ads"] = draw(st.integers(0, 6))
            pads[name] = pad
        rnd = {}
        if mode != "puzzle" and draw(st.booleans()):
            rnd["day"] = "saturday" if mode == "turn-based" else DAYS[r]
        if mode not in ("puzzle", "family") and draw(st.booleans()):
            rnd["finish"] = draw(st.permutations(names))
        if mode not in ("puzzle", "family", "turn-based") and draw(st.booleans()):
            rnd["breaking_news"] = draw(
                st.sampled_from(
                    [[], [{"effect": "mood-doubled"}], [{"effect": "white-space-best", "value": 5}]]
                )
            )
        rnd["players"] = pads
        rounds.append(rnd)
    record = {"game": "fit-to-print"}
    if mode is not None:
        record["mode"] = mode
    edition = draw(st.sampled_from(["published", "draft", None]))
    if edition is not None:
        record["edition"] = edition
    record["players"] = players
    record["rounds"] = rounds
    if draw(st.booleans()):
        record["notes"] = draw(st.text(max_size=12))
    return record


OTHERS = [
    {
        "game": "mini-fits",
        "players": ["Ada", "Ben"],
        "rounds": [
            {"players": {"Ada": {"lines": 7}, "Ben": {"lines": 5}}},
            {
                "players": {
                    "Ada": {"lines": 8, "colour_sets": 2},
                    "Ben": {"lines": 8, "colour_sets": 1},
                }
            },
        ],
    },
    {
        "game": "heat",
        "heat_value": 3,
        "players": ["Ada", "Ben", "Cy"],
        "final": {
            "Ada": {"money": 40, "heat": 3},
            "Ben": {"money": 30, "heat": 0},
            "Cy": {"money": 20, "heat": 1},
        },
        "arrested": False,
    },
    {"game": "heat", "players": ["Ada", "Ben", "Cy"], "arrested": True},
    {
        "game": "myth-fits",
        "players": ["Ada", "Ben", "Cy"],
        "photo_tokens": {"Ada": 3, "Ben": 1},
        "gathered": None,
    },
]
