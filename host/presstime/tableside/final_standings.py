"""The final standings after a game played at the table (`presstime play`): a banner with the
winner in their seat colour, then one line per player by rank with the total, the ad revenue,
`★ WINNER` and `out of business`. Plain (no colour) when the output is not a terminal or NO_COLOR
is set; names through display.safe."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from presstime import games, records, term
from presstime.core.config import PALETTE
from presstime.tableside.display import safe

if TYPE_CHECKING:
    from presstime.hints import Result


def final_table(result: Result, stream: TextIO | None = None) -> None:
    """The final standings as a table: rank, seat colour, total, ad revenue, the winner and who
    is out of business marked (written to `stream`; plain when it is not a terminal)."""
    stream = stream or sys.stdout
    colour = term.colour_enabled(stream)
    console = Console(
        file=stream,
        color_system="auto" if colour else None,
        force_terminal=colour or None,
        no_color=not colour,
        highlight=False,
    )
    players = result.get("players") or []
    winners = set(result.get("winners") or [])
    t = Table(
        title="Final standings" if result.get("complete", True) else "Standings so far",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        title_style="bold",
    )
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("player", no_wrap=True, overflow="ellipsis", max_width=24)
    t.add_column("total", justify="right", no_wrap=True)
    face = games.face_of(games.of(result))  # its MONEY beside the total, its OUT players
    money = face.MONEY[0] if face.MONEY and any(face.MONEY[0] in p for p in players) else None
    if money:
        t.add_column("ad $", justify="right", no_wrap=True)
    t.add_column("", no_wrap=True)
    seats = [p["name"] for p in players]
    for rank, p in records.ranked(players, winners):
        seat = seats.index(p["name"])
        r, g, b = PALETTE[seat % len(PALETTE)]
        marks = []
        if p["name"] in winners:
            marks.append(Text("\u2605 WINNER", style="bold green"))
        if face.OUT and p.get(face.OUT[0]):
            marks.append(Text(face.OUT[2], style="red"))  # "out of business"
        row = [
            str(rank),
            Text(safe(p["name"]), style="bold rgb(%d,%d,%d)" % (r, g, b)),
            str(p.get("total", "")),
        ]
        if money:
            row.append(str(p.get(money, "")))
        row.append(Text(" ").join(marks) if marks else "")
        t.add_row(*row)
    banner, seat = _final_banner(result, seats)
    if banner:
        r, g, b = PALETTE[seat % len(PALETTE)] if seat is not None else (255, 255, 255)
        console.print(
            Panel(
                Text(
                    banner,
                    justify="center",
                    style="bold" if seat is None else "bold rgb(%d,%d,%d)" % (r, g, b),
                ),
                box=box.DOUBLE,
                width=min(console.width, max(30, len(banner) + 8)),
            )
        )
    console.print(t)


def _final_banner(result, seats):
    """(the banner's words, the winner's seat or None)."""
    if not result.get("complete", True):
        return None, None
    winners = list(result.get("winners") or [])
    if len(winners) == 1:
        w = winners[0]
        return "\u2605 %s WINS \u2605" % safe(w), seats.index(w) if w in seats else None
    if winners:
        return "\u2605 shared win: %s \u2605" % ", ".join(safe(w) for w in winners), None
    return "no winner" + (": " + safe(result["no_winner"]) if result.get("no_winner") else ""), None
