"""Fit to Print's desktop face (games/__init__.py lists what a face declares): its days, its
point categories and dollars, its modes and editions in the history, its standings round by
round with the Breaking News cards, and the tie-breaks that decide a winner."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.core import fit_to_print as core
from presstime.core.fit_to_print import MODES as RECORD_MODES
from presstime.core.fit_to_print_check import LABELS, round_fields, takes_finish, takes_news
from presstime.core.fit_to_print_score import MOST_TILES_DEFAULT, play_mode
from presstime.entry.answers import is_number, player_names, read_answer, refused
from presstime.entry.walk_style import WalkStyle
from presstime.errors import BadInput
from presstime.games import core_of, in_turns
from presstime.games.common import (
    BG_STATS_NAME,
    BOARD_COUNTED,
    BOARD_ENDS,
    RECORD_WORDS,
    answered,
    by_rounds,
    counted,
    entered,
    given_players,
    played,
    rounds_played,
    top_of,
    with_warnings,
)
from presstime.names import same, typed
from presstime.report import table, winner_line
from presstime.sync.rebuild import table_block
from presstime.tableside.round_time import round_time_ms, warnings_ms

if TYPE_CHECKING:
    import argparse

    from presstime.entry.engine import Entry, Save
    from presstime.hints import Ask, Record, Result, Say

GAME = "fit-to-print"
SCORE_UNIT = "pts"
ROUND_WORDS = ("day", "days")
ROUND_FIELDS = (
    ("articles", "articles", "pts"),
    ("photos", "photos", "pts"),
    ("centerpiece", "centerpiece", "pts"),
    ("white_space", "white space", "pts"),
    ("mood", "mood", "pts"),
    ("unplaced", "unplaced tiles", "pts"),
    ("score", "day score", "pts"),
    ("ad_revenue", "ad revenue", "$"),
    ("most_tiles_ads", "most tiles ads", "$"),
    ("white_space_area", "white space area", "squares"),
)
GAME_FIELDS = (("ad_revenue", "ad revenue", "$"),)
# stacked in a chart's breakdown (ad revenue is dollars: on its own axis)
POINT_CATEGORIES = ("articles", "photos", "centerpiece", "white_space", "mood", "unplaced")
LEADERS = (
    ("photos", "the photographer", "most photo points a day", "most"),
    ("white_space_area", "leaves the most white space", "most empty squares a day", "most"),
    ("articles", "the reporter", "most article points a day", "most"),
    ("mood", "the gloomiest front page", "most mood points lost a day", "least"),
)  # mood is lost
MONEY = ("ad_revenue", "ads", "ad revenue")  # the players' dollars beside their total
OUT = ("out_of_business", "out", "out of business")  # a player out of the game
STATS_COLUMNS = ("out_of_business", "average_token", "average_ad_revenue", "average_print_ms")
BGG = (352574, "Fit to Print")
# the scorepad numbers `play --demo` types, each drawn for every line in this order (lowest ==
# highest: that number, not drawn)
DEMO_ANSWERS = {
    "articles": (6, 14),
    "photos": (1, 6),
    "centerpiece": (-2, 4),
    "white_space": (1, 8),
    "smiles": (0, 5),
    "frowns": (0, 5),
    "unplaced": (0, 2),
    "ads": (1, 6),
    "tiles": (8, 14),
    "unplaced_ads": (0, 0),
}
DEMO_SETUP = {"breaking_news": []}  # a demo's day: no Breaking News card
# a chart sums none of these over the game: the day's total, a card's dollars (within the ad
# revenue), the largest white space in squares
CHART_SKIPS = ("score", "most_tiles_ads", "white_space_area")
SCOREPAD_LINES = tuple(f for f, _ in LABELS)  # a player's scorepad, top to bottom
ENTRY_WORDS = (
    "the mode, edition and players, then each day's finishing order and each player's scorepad"
)


def title_notes(mode: str | None, edition: str | None) -> list[str]:
    """ "solo", "draft edition": what the title says beside the game's name."""
    return [
        b
        for b in (
            mode if mode and mode != "standard" else None,
            "draft edition" if edition == "draft" else None,
        )
        if b
    ]


def record_facts(record: Record) -> tuple[str, str]:
    """(mode, edition) of a record, as the history keeps them."""
    return str(record.get("mode", "standard")), str(record.get("edition", "published"))


# a round category and the scorepad line it comes from, for the categories a mode may lack
_SCOREPAD_SOURCE = {
    "centerpiece": "centerpiece",
    "white_space": "white_space",
    "white_space_area": "white_space",
    "mood": "smiles",
}


def mode_scores(mode: str | None, key: str) -> bool:
    """Does a round of this mode score the category `key`? (family mode has no centerpiece, white
    space or mood: the core reports them as 0 there.)"""
    if key not in _SCOREPAD_SOURCE:
        return True

    return _SCOREPAD_SOURCE[key] in round_fields(mode, [])


def board_record(config: dict[str, Any], game: dict[str, Any], base: Record | None) -> Record:
    """Players, mode, edition, and each round's day, finishing order and `table` (print and
    layout times, ties, how the round ended)."""
    record = by_rounds(config, game, base, table_block)
    record.setdefault("mode", config.get("mode", "standard"))
    record.setdefault("edition", config.get("edition", "published"))
    return record


def decided_by(result: Result) -> str | None:
    """A player ahead but out of business, and the tie-breaks: most ad revenue (draft edition),
    then the earliest finishing token on the last day; a shared win says what tied."""
    winners, players, won, top = top_of(result)
    if not winners:
        return None
    parts = []
    ahead = [
        p
        for p in players
        if p.get("out_of_business")
        and isinstance(p.get("total"), int)
        and top is not None
        and p["total"] >= top
    ]
    if ahead:
        parts.append(
            "%s out of business despite %s"
            % (
                ", ".join(p["name"] for p in ahead),
                "more points" if all(p["total"] > top for p in ahead) else "as many points",
            )
        )
    able = [p for p in players if not p.get("out_of_business") and p.get("total") == top]
    if len(able) > len(winners):
        won = [p for p in able if p["name"] in winners]
        steps = []
        most = max(p.get("ad_revenue") or 0 for p in able)
        after_ads = able
        if result.get("edition") == "draft":
            after_ads = [p for p in able if (p.get("ad_revenue") or 0) == most]
            if len(after_ads) < len(able):
                steps.append("most ad revenue ($%d)" % most)
        if len(after_ads) > len(won):
            token = (won[0].get("rounds") or [{}])[-1].get("token")
            steps.append("the earliest finishing token on the last day (token %s)" % token)
        if len(winners) > 1:
            parts.append(
                "tie at %d pts%s: shared" % (top, (" and " + ", ".join(steps)) if steps else "")
            )
        else:
            parts.append("tie at %d pts broken by %s" % (top, ", then ".join(steps)))
    elif len(winners) > 1:
        parts.append("tie at %d pts: shared" % top)
    return "; ".join(parts) or None


def card_columns(result: Result) -> list[tuple[str, Any]]:
    """Each day's score, the end adjustments, ad revenue and who went out of business."""
    players = result.get("players") or []
    out: list[tuple[str, Any]] = [
        (label, ("round", i)) for i, label in enumerate(_day_labels(players))
    ]
    if any(p.get("adjustments") for p in players):
        out.append(("end adj.", "adjustments"))
    out.append(("ad revenue $", "ad_revenue"))
    if any(p.get("out_of_business") for p in players):
        out.append(("out of business", "out_of_business"))
    return out


def _day_labels(players):
    count = max([len(p.get("rounds") or []) for p in players] + [0])
    labels = []
    for i in range(count):
        day = next(
            (
                p["rounds"][i].get("day")
                for p in players
                if i < len(p.get("rounds") or []) and p["rounds"][i].get("day")
            ),
            None,
        )
        labels.append(day.capitalize() if day else "round %d" % (i + 1))
    return labels


_ROWS = (
    ("articles", "articles"),
    ("photos", "photos"),
    ("centerpiece", "centerpiece"),
    ("white_space", "white space"),
    ("mood", "mood"),
    ("unplaced", "unplaced tiles"),
    ("most_tiles_ads", "most tiles $"),
    ("score", "round score"),
    ("ad_revenue", "ad revenue $"),
    ("token", "finishing token"),
)

# a Breaking News card's scoring effect in the words a player reads (its value, if any, filled in)
NEWS_WORDS = {
    "mood-doubled": "the mood penalty is doubled",
    "white-space-best": "the best white-space bonus is %d",
    "most-tiles-ads": "the most tiles on the front page gain $%d",
}


def news_words(card: dict[str, Any]) -> str:
    words = NEWS_WORDS.get(card.get("effect") or "", str(card.get("effect")).replace("-", " "))
    return (
        words % card["value"]
        if "%d" in words and isinstance(card.get("value"), int)
        else words.replace(" %d", "")
    )


def _news_line(record, i):
    """Round i's Breaking News card(s) as a line, or None (no record, or no card with an effect)."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    rnd = (
        rounds[i]
        if isinstance(rounds, list) and i < len(rounds) and isinstance(rounds[i], dict)
        else {}
    )
    cards = [c for c in rnd.get("breaking_news") or [] if isinstance(c, dict)]
    if not cards:
        return None
    return "  Breaking News: " + "; ".join(news_words(c) for c in cards)


def standings_text(result: Result, record: Record | None = None) -> str:
    """Each day's scorepad lines (and its Breaking News, with the record), then the standings,
    the end adjustments and the winner."""
    players = result["players"]
    names = [p["name"] for p in players]
    width = max([len(n) for n in names] + [5]) + 2
    title = "%s - %s mode, %s edition" % (_core_title(), result["mode"], result["edition"])
    lines = [title, ""]
    for i in range(result["rounds_played"]):
        rounds = [p["rounds"][i] for p in players]
        day = rounds[0].get("day") or "puzzle"
        rows = []
        for key, label in _ROWS:
            cells = [r.get(key) for r in rounds]
            if key == "most_tiles_ads" and not any(cells):
                continue
            if key == "token" and all(c is None for c in cells):
                continue
            rows.append((label, cells))
        lines_of_day = table(["Round %d: %s" % (i + 1, day.capitalize())] + names, rows, width)
        news = _news_line(record, i)
        lines += lines_of_day[:1] + ([news] if news else []) + lines_of_day[1:] + [""]
    rows = [("rounds", [sum(r["score"] for r in p["rounds"]) for p in players])]
    if any(p["adjustments"] for p in players):
        rows.append(
            ("end adjustments", [sum(a["points"] for a in p["adjustments"]) for p in players])
        )
    rows.append(("TOTAL", [p["total"] for p in players]))
    rows.append(("ad revenue $", [p["ad_revenue"] for p in players]))
    if any(p["out_of_business"] for p in players):
        rows.append(("out of business", [p["out_of_business"] for p in players]))
    if result.get("incomplete"):
        rows.append(("incomplete", [p.get("incomplete") for p in players]))
    lines += table(["Standings"] + names, rows, width)
    for p in players:
        for a in p["adjustments"]:
            lines.append(
                "  %s: %+d points (%s)" % (p["name"], a["points"], a["reason"].replace("-", " "))
            )
    lines += ["", winner_line(result)]
    return "\n".join(lines) + "\n"


def _core_title():
    from presstime.games import title

    return title(GAME)


# ---------------------------------------------------------------------- what `enter` asks


def set_up(record: Record) -> bool:
    """The set-up is complete once the players are in: the record has its `rounds`."""
    return "rounds" in record


NEWS_HELP = """Breaking News cards with a scoring effect (one card per day):
  (Enter)              none, or a card without a scoring effect
  mood-doubled         the mood penalty is doubled
  white-space-best N   the best white-space bonus is N instead of 3
  most-tiles-ads [N]   the player(s) with the most tiles on the front page gain $N (default 4)
Or a command: back, fix NAME, show, round N, quit."""


def _uses_tokens(record: Record) -> bool:
    """Finishing tokens matter: 2+ players, in a mode that hands them out (not family, puzzle)."""
    return len(player_names(record)) > 1 and takes_finish(play_mode(record))


def _uses_news(record: Record) -> bool:
    """Breaking News cards are used (not in family, puzzle and turn-based)."""
    return takes_news(play_mode(record))


def round_setup(
    entry: Entry,
    round_index: int,
    rnd: dict[str, Any],
    finish: list[str] | None,
    review: bool,
    table: dict[str, Any] | None,
) -> None:
    """A day's own set-up, asked before the players' numbers (ROUND_SETUP): the finishing order
    (unless the board took it: `finish`) and the Breaking News card; the board's `table` kept.
    review: asked again (Enter keeps each)."""
    setup_done = "breaking_news" in rnd  # the round's set-up ends with the card (or [] for none)
    if table:
        rnd["table"] = table
    if finish and _uses_tokens(entry.record):
        rnd["finish"] = list(finish)
    if table or (finish and _uses_tokens(entry.record)):
        entry.keep()
    if (
        _uses_tokens(entry.record)
        and not finish
        and (review or (not setup_done and rnd.get("finish") is None))
    ):
        _ask_finish(entry, round_index, rnd)
    if review or not setup_done:
        asked = _uses_tokens(entry.record) and not finish  # `back` there: the finishing order again
        _ask_news(
            entry,
            round_index,
            rnd,
            back=(lambda: _ask_finish(entry, round_index, rnd)) if asked else None,
        )


def _ask_news(
    entry: Entry, ri: int, rnd: dict[str, Any], back: Callable[[], None] | None = None
) -> None:
    if not _uses_news(entry.record):
        if rnd.get("breaking_news") != []:
            rnd["breaking_news"] = []
            entry.keep()
        return
    current = rnd.get("breaking_news")
    shown = _news_text(current) if current else ""
    while True:
        answer = entry.read(
            "%s · Breaking News card (Enter: none%s; ? lists): "
            % (entry.round_title(ri), ", [%s] kept" % shown if shown else "")
        )
        text = answer.strip().lower()
        if text in ("?", "help"):
            entry.say(NEWS_HELP)
            continue
        if entry.setup_command(answer, ri, back=back):
            continue
        if text == "" and current:
            cards = current
        elif text in ("", "none", "-"):
            cards = []
        else:
            cards = _parse_news(text)
            if cards is None:
                entry.say(
                    refused(
                        "  unknown card %r: one of %s (? explains them)"
                        % (answer.strip(), ", ".join(core.EFFECTS))
                    )
                )
                continue
        if entry.refused_in_round(ri, "breaking_news", cards):
            continue
        rnd["breaking_news"] = cards
        entry.keep()
        return


def _ask_finish(entry: Entry, ri: int, rnd: dict[str, Any]) -> None:
    names = player_names(entry.record)
    current = rnd.get("finish")
    while True:
        answer = entry.read(
            "%s · finishing order, token 1 first (names or seat numbers; Enter: %s): "
            % (entry.round_title(ri), "keep " + " ".join(current) if current else "skip")
        )
        text = answer.strip()
        if text in ("?", "help"):
            entry.say(
                "  Type who took token 1, 2, 3... e.g. `%s` or `%s`. The order breaks ties in "
                "the last round."
                % (
                    " ".join(reversed(names)),
                    " ".join(str(k) for k in range(len(names), 0, -1)),
                )
            )
            entry.say("  Or a command: back, fix NAME, show, round N, quit.")
            continue
        first = text.split()[0].lower() if text else ""
        if first not in [n.lower() for n in names] and entry.setup_command(answer, ri):
            continue
        if text == "":
            if current is None:
                rnd.pop("finish", None)
            entry.keep()
            return
        order = []
        for w in text.replace(",", " ").split():
            if is_number(w) and 1 <= int(w) <= len(names):
                order.append(names[int(w) - 1])
            else:
                match = [n for n in names if same(n, w)]
                order.append(match[0] if match else w)
        if entry.refused_in_round(ri, "finish", order):
            continue
        rnd["finish"] = order
        entry.keep()
        return


def ask_setup(
    ask: Ask = input,
    say: Say = print,
    record: Record | None = None,
    save: Save | None = None,
) -> Record:
    """Ask mode, edition and players (with optional characters); returns a new game record.

    Raises EntryStopped on EOF or `quit`. Everything is checked by the core as it is typed.
    save(record), if given, is called after every answer; the record has no "rounds" key until
    the set-up is complete, and passing such a record back resumes the set-up where it stopped."""

    def read(prompt: str) -> str:
        return read_answer(ask, prompt)

    def choose(prompt: str, choices: list[str], default: str) -> str:
        while True:
            text = read("%s (%s) [%s]: " % (prompt, "/".join(choices), default)).lower()
            if text == "":
                return default
            if text in choices:
                return text
            match = [c for c in choices if c.startswith(text)]
            if len(match) == 1:
                return match[0]
            say(refused("  %r is not one of %s" % (text, ", ".join(choices))))

    if record is None:
        record = {"game": GAME}

    def keep() -> None:
        if save is not None:
            save(record)

    if "mode" not in record:
        record["mode"] = choose("Game mode", list(core.MODES), "standard")
        keep()
    if "edition" not in record:
        record["edition"] = choose("Edition", list(core.EDITIONS), "published")
        keep()
    record.setdefault("players", [])
    least, most = core.players(record["mode"])
    say(
        "Players in seat order: a name, or NAME:CHARACTER (%s). An empty line ends the list."
        % ", ".join(core.CHARACTERS)
    )
    if record["players"]:
        say("  so far: %s" % ", ".join(player_names(record)))
    while len(record["players"]) < most:
        text = read("Player %d: " % (len(record["players"]) + 1))
        if text == "":
            if len(record["players"]) >= least:
                break
            say(
                refused(
                    "  a %s game needs at least %d player%s"
                    % (record["mode"], least, "s" if least > 1 else "")
                )
            )
            continue
        if text == "?":
            say("  e.g. `Ada` or `Ben:jazz`. Characters: %s" % ", ".join(core.CHARACTERS))
            continue
        name, _, character = text.partition(":")
        name = typed(name)
        character = character.strip().lower()
        entry = {"name": name, "character": character} if character else name
        # the core's problems with this entry: those it finds with it and not with a blameless
        # stand-in in the same seat (the player count is the same in both)
        before = set(records.check_record(dict(record, players=record["players"] + ["\n"])))
        problems = [
            m
            for m in records.check_record(dict(record, players=record["players"] + [entry]))
            if m not in before
        ]
        if problems:
            for m in problems:
                say(refused("  " + m))
            continue
        record["players"].append(entry)
        keep()
    record["rounds"] = []
    keep()
    return record


def _news_text(cards: list[dict[str, Any]]) -> str:
    out = []
    for c in cards:
        out.append(c.get("effect", "?") + (" %d" % c["value"] if "value" in c else ""))
    return ", ".join(out)


def _parse_news(text: str) -> list[dict[str, Any]] | None:
    """Cards from `mood-doubled`, `white-space-best 4`, `most-tiles-ads [4]` (comma-separated)."""
    cards = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        effect = [
            e
            for e in core.EFFECTS
            if e == words[0] or (len(words[0]) >= 3 and e.startswith(words[0]))
        ]
        if len(effect) != 1 or len(words) > 2 or (len(words) == 2 and not is_number(words[1])):
            return None
        card = {"effect": effect[0]}
        if len(words) == 2:
            card["value"] = int(words[1])
        elif effect[0] == "most-tiles-ads":
            card["value"] = MOST_TILES_DEFAULT
        cards.append(card)
    return cards


ROUND_SETUP = round_setup

# the days are typed one at a time, each after its set-up (ROUND_SETUP), each player's day score
# shown as their last number is typed; a number is judged with the day's numbers not typed yet
# counted as 0, so a white-space comparison is refused as it is typed
ENTRY_STYLE = WalkStyle(
    help="""At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  back        go back to the previous question
  fix NAME    re-enter one player's numbers in this round (name or seat number)
  round N     go through round N again to correct it (Enter keeps each value)
  show        the standings so far
  quit        stop here: everything typed is saved as a draft (the line then says how to finish it)
  ?           this help
The same commands work at the finishing-order and Breaking News questions.""",
    title_in_prompt=False,
    by_round=True,
    scores_as_typed=True,
    untyped_as_zero=True,
    check_kept=False,
    loose_commands=True,
    review_standings=False,
    review_at_close=True,
    first_question="  this is the first question here; `round N` corrects an earlier round",
    first_in_command="  this is the first question here; `round N` corrects an earlier round",
    fix_start="  re-entering {name} in {round} (Enter keeps a value)",
    round_again="  going through {round} again (Enter keeps a value)",
    fix_done=None,
    round_done="  back to {here}",
)


# ---------------------------------------------------------------------- `play` at the table

DEMO_SEATS = 6  # `play --demo`'s players


def play_options(args: argparse.Namespace) -> None:
    """Its rounds are timed, not turns: --turn-limit is refused; the round time and the
    warnings are checked before the set-up is asked."""
    if args.turn_limit:
        raise BadInput(
            "--turn-limit: only %s has turns (use --game %s)"
            % (" or ".join(core_of(g).TITLE for g in in_turns()), " or --game ".join(in_turns()))
        )
    round_time_ms(args.duration)
    if args.warn is not None:
        warnings_ms(args.warn)


def play_setup(args: argparse.Namespace, ask: Ask, say: Say) -> Record:
    """The record `play` starts: --mode, --edition and the players given (--players, the
    demo's), checked by the core, or the whole set-up asked as `enter` asks it (ask_setup).
    Raises EntryStopped on EOF or `quit`."""
    names = given_players(args, DEMO_SEATS)
    if names is None:
        return ask_setup(ask, say, {"game": GAME})
    record = {
        "game": GAME,
        "mode": args.mode,
        "edition": args.edition,
        "players": list(names),
        "rounds": [],
    }
    problems = records.check_record(dict(record, rounds=[]))  # a set-up alone: its problems only
    if problems:
        raise BadInput(problems)
    return record


def play_config(record: Record, args: argparse.Namespace) -> dict[str, Any]:
    """The board's set-up: the record's mode, edition and players, play's round time and
    warnings."""
    cfg: dict[str, Any] = {
        "game": GAME,
        "mode": record["mode"],
        "edition": record["edition"],
        "duration_ms": round_time_ms(args.duration),
        "players": [{"name": n} for n in player_names(record)],
    }
    return with_warnings(cfg, args)
