"""What most games' desktop faces say the same way; a face takes from here what it shares
(games/__init__.py lists what every face declares)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.entry.answers import EntryStopped, read_answer, refused
from presstime.entry.walk_style import WalkStyle
from presstime.errors import BadInput
from presstime.games import core_of, default, face, face_of, of, title
from presstime.history.game_words import amount, label, unit
from presstime.names import parse_players, typed
from presstime.report import generic_text
from presstime.tableside.round_time import round_time_ms, warnings_ms

if TYPE_CHECKING:
    import argparse

    from presstime.entry.engine import Save
    from presstime.hints import Ask, Json, Record, Result, Say

BGG = None
BG_STATS_NAME = None
RECORD_MODES = ()
ROUND_SETUP = None  # no round has a set-up of its own: the core face's `fields` are typed
SCOREPAD_LINES = ()  # each question's own order is kept
BOARD_COUNTED = ()  # no number of the record is counted by a board
# the questions typed in order, each prompt with the game's title; Enter at the end stores
ENTRY_STYLE = WalkStyle(
    help="""At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  y / n       for a yes-or-no question
  back        go back to the previous question
  fix NAME    answer one player's questions again (name or seat number)
  round N     go through round N's questions again (Enter keeps each value)
  show        the standings so far
  quit        stop here: everything typed is kept as a draft
  ?           this help""",
    intro="{title}: `?` help, `back`, `fix NAME`{round}, `show`, `quit` at any question.",
)
POINT_CATEGORIES = ()
LEADERS = ()
STATS_COLUMNS = ()
RECORD_WORDS = {}
MONEY = None  # no money beside the total
OUT = None  # no player is put out of the game
DEMO_SETUP = {}  # no round has a set-up of its own
BOARD_ENDS = None  # the board counts nothing that ends a game
CHART_SKIPS = ()  # every round field a chart finds numbers in is summed over the game


def title_notes(mode: str | None, edition: str | None) -> list[str]:
    return []


def played(result: Result, rounds: int) -> str:
    """ "3 rounds", "1 duel": the rounds in the face's words."""
    one, many = face_of(of(result)).ROUND_WORDS
    return "%d %s" % (rounds, one if rounds == 1 else many)


def top_of(result: Result) -> tuple[list[str], list[dict[str, Any]], list[dict[str, Any]], Any]:
    """(winners, players, the winners' player entries, the first winner's total) of a result."""
    winners = result.get("winners") or []
    players = result.get("players") or []
    won = [p for p in players if p.get("name") in winners]
    return winners, players, won, (won[0].get("total") if won else None)


def decided_by(result: Result) -> str | None:
    """'tie at $31: shared' when more than one player won, else None (the highest total
    decided)."""
    winners, _, _, top = top_of(result)
    return "tie at %s: shared" % amount(of(result), "total", top) if len(winners) > 1 else None


def standings_text(result: Result, record: Record | None = None) -> str:
    return generic_text(result)


def card_columns(result: Result) -> list[tuple[str, Any]]:
    """The result's own number columns, each with its unit when it is dollars."""
    game = of(result)
    return [
        (label(game, c) + (" $" if unit(game, c) == "$" else ""), c)
        for c in result.get("columns") or []
        if c != "total"
    ]


def players_only(config: dict[str, Any], game: dict[str, Any], base: Record | None) -> Record:
    """The record of a game whose numbers are all typed: its players (the board knows no more)."""
    record = dict(base) if base else {}

    record.setdefault("game", of(config))
    record.setdefault("players", list(config.get("names", [])))
    return record


def by_rounds(
    config: dict[str, Any],
    game: dict[str, Any],
    base: Record | None,
    measured: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Record:
    """The record with one round per round the board played (its day and finishing order, and
    measured(round) as its `table` when given), the players' numbers typed; a round the board no
    longer counts, with nothing typed, goes."""
    record = players_only(config, game, base)
    rounds = list(record.get("rounds") or [])
    for i, r in enumerate(game["rounds"]):
        while len(rounds) <= i:
            rounds.append({"players": {}})
        rnd = dict(rounds[i])
        if r.get("day"):
            rnd["day"] = r["day"]
        if r["finish"]:
            rnd["finish"] = r["finish"]
        if measured is not None:
            rnd["table"] = measured(r)
        rnd.setdefault("players", {})
        rounds[i] = rnd
    while len(rounds) > len(game["rounds"]) and not (rounds[-1].get("players") or {}):
        rounds.pop()  # a round the board no longer counts (aborted in its summary), nothing typed
    record["rounds"] = rounds
    return record


def rounds_played(record: Record) -> int:
    """How many rounds the record holds."""
    rounds = record.get("rounds")
    return len(rounds) if isinstance(rounds, list) else 0


def answered(record: Record, path: tuple[Any, ...], value: Json) -> None:
    """Nothing more to do once a question is answered."""


def counted(record: Record, status: dict[str, Any]) -> bool:
    """Nothing a board counts goes into the record as a round ends."""
    return False


def play_mode(record: Record) -> str:
    """The core's mode of the game: its first (the game is played in one)."""
    return core_of(of(record)).MODES[0]


def entered(record: Record) -> None:
    """Nothing more is kept once every question is asked."""


def record_facts(record: Record) -> tuple[str, str]:
    return "", ""


def mode_scores(mode: str | None, key: str) -> bool:
    return True


def set_up(record: Record) -> bool:
    """The set-up is complete once the players are in (saved once the list is complete)."""
    return "players" in record


def ask_setup(ask: Ask, say: Say, record: Record, save: Save | None = None) -> Record:
    """The players of a new game (its name in the record) in seat order, each checked by the
    core as typed. The players are saved once the list is complete, so a draft with `players`
    has its set-up done. Raises EntryStopped on EOF or `quit`."""

    def read(prompt: str) -> str:
        return read_answer(ask, prompt)

    if set_up(record):
        return record
    names: list[str] = []
    say("Players in seat order, one a line. An empty line ends the list.")
    while True:
        text = typed(read("Player %d: " % (len(names) + 1)))
        if text == "?":
            say("  a name, e.g. Ada (the seat order is the order typed)")
            continue
        probe = (
            {"game": record["game"], "players": names + [text]}
            if text
            else {"game": record["game"], "players": list(names)}
        )
        problems = [m for m in records.check_record(probe) if m.startswith("players")]
        if text == "":
            if problems:
                for m in problems:
                    say(refused("  " + m))
                continue
            break
        before = [
            m
            for m in records.check_record({"game": record["game"], "players": list(names)})
            if m.startswith("players:")
        ]
        mine = [
            m
            for m in problems
            if m.startswith("players, seat %d" % (len(names) + 1))
            or (m.startswith("players:") and not before)
        ]
        if mine:
            for m in mine:
                say(refused("  " + m))
            continue
        names.append(text)
    record["players"] = names
    if save is not None:
        save(record)
    return record


# ---------------------------------------------------------------------- `play` at the table

DEMO_NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve", "Fay")  # `play --demo`'s players, in seat order


def given_players(args: argparse.Namespace, demo_seats: int | None = None) -> list[str] | None:
    """The players `play`'s options give: --players, or the demo's (`demo_seats` of them; None:
    one more than the fewest the game takes); None when they are to be asked."""
    if args.players:
        return parse_players(args.players)
    if args.demo:
        if demo_seats is None:
            core = core_of(args.game)
            demo_seats = min(core.MIN_PLAYERS + 1, core.MAX_PLAYERS)
        return list(DEMO_NAMES[:demo_seats])
    return None


def play_options(args: argparse.Namespace) -> None:
    """A game played in its own table mode takes none of the default game's --mode and
    --edition."""
    first = core_of(default())
    if args.mode != first.MODES[0] or args.edition != first.EDITIONS[0]:
        raise BadInput(
            "--mode and --edition are %s's; %s runs in its own table mode"
            % (title(default()), args.game)
        )


def play_setup(args: argparse.Namespace, ask: Ask, say: Say) -> Record:
    """The record `play` starts: the players given (--players, the demo's) or typed on one line,
    comma-separated, until they are right. Raises EntryStopped when the input ends."""
    names = given_players(args)
    while names is None:
        try:
            text = ask("players, in seat order (comma-separated): ")
        except EOFError:
            raise EntryStopped(eof=True)
        try:
            names = parse_players(text)
        except BadInput as e:
            for m in e.messages:
                say("  " + m)
    return {"game": args.game, "players": names}


def play_config(record: Record, args: argparse.Namespace) -> dict[str, Any]:
    """The board's set-up: the players (as many as the game takes), the turn limit of a game
    played in turns, the warnings."""
    game = of(record)
    core = core_of(game)
    names = record["players"]
    lo, hi = core.players(core.MODES[0])
    if not lo <= len(names) <= hi:
        raise BadInput(
            "players: %s takes %d to %d players (got %d)" % (core.TITLE, lo, hi, len(names))
        )
    cfg: dict[str, Any] = {"game": game, "players": [{"name": n} for n in names]}
    if getattr(args, "turn_limit", None):
        if "turns" not in core.MODES:
            raise BadInput(
                "--turn-limit: only a game played in turns has a turn limit (not %s)" % game
            )
        cfg["turn_ms"] = round_time_ms(args.turn_limit, "--turn-limit", lo_ms=1000)
    return with_warnings(cfg, args)


def with_warnings(cfg: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The board's set-up with play's --warn (seconds left), when given."""
    if getattr(args, "warn", None) is not None:
        cfg["warn_ms"] = warnings_ms(args.warn)
    return cfg
