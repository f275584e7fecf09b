"""presstime play: a game at the table, with the board (or the simulator) and this terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import games as faces
from presstime.board.ports import add_port_argument
from presstime.core import games
from presstime.entry.answers import EntryStopped, player_names
from presstime.history.store import add_db_argument
from presstime.scorepad.options import add_arguments as add_scorepad_arguments, resolve_bind
from presstime.tableside.play_loop import (
    open_board,  # noqa: F401 (the board or the simulator, as play uses it)
    play_game,
    played_elsewhere,
)
from presstime.tableside.play_session import scripted_ask

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime play --demo                   a scripted game on the simulator, no typing
  presstime play --sim --players Ada,Ben,Cy
  presstime play --players Ada,Ben,Cy,Dee --duration 3:00
  presstime play --port /dev/ttyACM0 --mode family --players Ada,Ben
  presstime play --game heat --players Ada,Ben,Cy   Heat, Mini FITS (mini-fits) or Myth Fits (myth-fits)
  presstime play --demo --game myth-fits

Each round starts from the board's control button or by pressing Enter here. When it ends,
the finishing order comes from the board and you type each player's scorepad numbers
(`?` for help, `back`/`fix NAME` to correct); the standings are shown and sent to the board's
lights. With no board attached, the simulator is started on a pty (as with --sim).

--game heat / mini-fits: the board runs the ready check and reveal (each player presses when
ready, all ready reveals the stage or card); --game myth-fits: turns (press to end your turn,
hold 0.8 s for a photo token). The numbers the board cannot know are typed at the end (Heat:
heat value, money, heat; Mini FITS: lines per round, colour sets; Myth Fits: who gathered)."""  # noqa: E501 (the examples as the terminal shows them)


def configure(parser: argparse.ArgumentParser) -> None:
    default = faces.core_of(games.GAMES[0])

    add_port_argument(parser)
    parser.add_argument(
        "--sim", action="store_true", help="play against the simulator, started on a pty"
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="a scripted game on the simulator: simulated presses, example scorepad numbers",
    )
    parser.add_argument(
        "--game",
        default=default.GAME,
        choices=games.GAMES,
        help="the game (default %s); the others run in their own table mode" % default.GAME,
    )
    parser.add_argument(
        "--turn-limit",
        metavar="M:SS",
        help="%s: a per-turn limit (the board warns when a turn runs over)"
        % " or ".join(faces.core_of(g).TITLE for g in faces.in_turns()),
    )
    parser.add_argument(
        "--players", metavar="A,B,…", help="player names in seat order, comma-separated"
    )
    parser.add_argument(
        "--duration",
        default="4:00",
        metavar="M:SS",
        help="round time: 3:00 frantic, 4:00 standard (default), 5:00 relaxed, or any",
    )
    parser.add_argument(
        "--mode",
        default=default.MODES[0],
        choices=default.MODES,
        help="%s's game mode" % default.TITLE,
    )
    parser.add_argument(
        "--edition",
        default=default.EDITIONS[0],
        choices=default.EDITIONS,
        help="rulebook edition (default %s)" % default.EDITIONS[0],
    )
    parser.add_argument(
        "--warn",
        metavar="S,S,S",
        default=None,
        help="the board's warnings, in seconds left (default 60,30,10; none: no warning)",
    )
    parser.add_argument(
        "--mute",
        action="store_true",
        help="no sound from this computer (by default it sounds the simulator's beeps)",
    )
    parser.add_argument(
        "--save",
        action="store_true",
        help="--demo: keep the demo game in the history (by default a demo leaves it alone)",
    )
    parser.add_argument("--seed", type=int, default=2024, help=argparse_suppress())

    add_scorepad_arguments(parser)
    add_db_argument(parser)


def argparse_suppress() -> str:
    import argparse

    return argparse.SUPPRESS


def run(args: argparse.Namespace) -> int:
    if args.scorepad:
        args.bind = resolve_bind(args.bind)  # a wrong address is refused before the game
    return _play(args)


def _play(args: argparse.Namespace) -> int:
    """One game, whatever the game: what its face (games/<game>.py) takes of play's options,
    its set-up and the board's, then the one play loop; again with the same seats if asked."""
    viewed = played_elsewhere(args, print)
    if viewed is not None:
        return viewed
    face = faces.face_of(args.game)
    face.play_options(args)
    say = print
    ask = scripted_ask if args.demo else input
    try:
        record = face.play_setup(args, ask, say)
        code, again = play_game(args, record, face.play_config(record, args), say, ask)
    except EntryStopped as stop:
        return stop.status
    if again:
        return _play(_same_seats(args, player_names(record)))
    return code


def _same_seats(args: argparse.Namespace, names: list[str]) -> argparse.Namespace:
    """play's options for the next game: the same players in the same seats."""
    import argparse

    return argparse.Namespace(**dict(vars(args), players=",".join(names)))
