"""Which stored games a history command is about: --game, --mode, --player, --since, --until.

    add_arguments(parser)                    # the options, with their help
    sel = Selection.from_args(args)          # BadInput (exit 2) naming the valid choices
    where, params = sel.sql("r")             # an SQL condition on the results table aliased r
    sel.describe()                           # "Heat games with Ada", for an empty selection

Filters read the stored results (docs/history.md), never the records.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.errors import BadInput
from presstime.history import game_words
from presstime.names import typed

if TYPE_CHECKING:
    import argparse


def _modes():
    """{mode: [games whose records carry it]}, in the faces' order."""
    out = {}
    for game in games.with_modes():
        for mode in games.face_of(game).RECORD_MODES:
            out.setdefault(mode, []).append(game)
    return out


def _titles(names):
    return " or ".join(game_words.title(g) for g in names)


def add_arguments(parser: argparse.ArgumentParser, player: bool = True, dates: bool = True) -> None:
    parser.add_argument(
        "--game", metavar="GAME", help="only this game: %s" % ", ".join(games.names())
    )
    parser.add_argument(
        "--mode",
        metavar="MODE",
        help="only %s games of this mode: %s" % (_titles(games.with_modes()), ", ".join(_modes())),
    )
    if player:
        parser.add_argument(
            "--player", metavar="NAME", help="only games NAME played in (ASCII letters in any case)"
        )
    if dates:
        parser.add_argument(
            "--since", metavar="YYYY-MM-DD", help="only games played on or after this day"
        )
        parser.add_argument(
            "--until", metavar="YYYY-MM-DD", help="only games played on or before this day"
        )


def _day(text, option):
    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except (ValueError, AttributeError):
        raise BadInput("%s %r: a day is written YYYY-MM-DD, e.g. 2026-03-14" % (option, text))


class Selection:
    def __init__(
        self,
        game: str | None = None,
        mode: str | None = None,
        player: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> None:
        problems = []
        if game is not None:
            game = game.strip().lower()
            if game not in games.names():
                problems.append(
                    "--game %r: unknown game (one of %s)" % (game, ", ".join(games.names()))
                )
        if mode is not None:
            mode = mode.strip().lower()
            modes = _modes()
            if mode not in modes:
                problems.append(
                    "--mode %r: unknown %s mode (one of %s)"
                    % (mode, _titles(games.with_modes()), ", ".join(modes))
                )
            elif game is not None and game not in modes[mode]:
                problems.append(
                    "--mode %s: modes are %s's; %s has none"
                    % (mode, _titles(modes[mode]), game_words.title(game))
                )
        if problems:
            raise BadInput(problems)
        if player is not None:
            player = typed(
                player
            )  # as every name is stored: stripped, NFC (SQL compares without case)
        self.game, self.mode, self.player = game, mode, player
        self.since = _day(since, "--since") if since is not None else None
        self.until = _day(until, "--until") if until is not None else None
        if self.since and self.until and self.since > self.until:
            raise BadInput(
                "--since %s is after --until %s: no day is both" % (self.since, self.until)
            )

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Selection:
        return cls(
            getattr(args, "game", None),
            getattr(args, "mode", None),
            getattr(args, "player", None),
            getattr(args, "since", None),
            getattr(args, "until", None),
        )

    def sql(self, alias: str = "r") -> tuple[str, list[Any]]:
        """(condition, params) on the results table `alias` ("1" when nothing is filtered)."""
        where, params = [], []
        if self.game:
            where.append("%s.game = ?" % alias)
            params.append(self.game)
        if self.mode:
            where.append(
                "%s.game IN (%s) AND %s.mode = ?"
                % (alias, ", ".join("?" * len(self.mode_games())), alias)
            )
            params += self.mode_games() + [self.mode]
        if self.player:
            where.append(
                "%s.game_id IN (SELECT game_id FROM result_players WHERE name = ? COLLATE NOCASE)"
                % alias
            )
            params.append(self.player)
        if self.since:
            where.append("%s.played >= ?" % alias)
            params.append(self.since)
        if self.until:
            where.append("%s.played < ?" % alias)
            params.append(self.until + " 99")  # every time of that day
        return (" AND ".join("(%s)" % w for w in where) or "1"), params

    def mode_games(self) -> list[str]:
        """The games whose records carry the --mode selected."""
        return list(_modes().get(self.mode, []))

    def is_everything(self) -> bool:
        return not (self.game or self.mode or self.player or self.since or self.until)

    def describe(self) -> str:
        """What was selected, in words: "Fit to Print (solo) games with Ada since 2026-01-01"."""
        if self.mode:
            what = "%s (%s) games" % (_titles(self.mode_games()), self.mode)
        elif self.game:
            what = "%s games" % game_words.title(self.game)
        else:
            what = "games"
        if self.player:
            what += " with %s" % self.player
        if self.since and self.until:
            what += " from %s to %s" % (self.since, self.until)
        elif self.since:
            what += " since %s" % self.since
        elif self.until:
            what += " until %s" % self.until
        return what
