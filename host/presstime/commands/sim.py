"""presstime sim: the simulated board in this terminal (the same firmware loop as the board)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games as faces
from presstime.board.ports import advert_dir
from presstime.board.share import open_client
from presstime.core import games
from presstime.device.app import App
from presstime.device.journal import Journal
from presstime.errors import BadInput, Failure
from presstime.tableside.round_time import round_time_ms, warnings_ms

if TYPE_CHECKING:
    import argparse

EXAMPLE = """\
keys:
  1-6    the players' buttons
  l 1-6  a long press (held 0.9 s: a Myth Fits photo token)
  space  the control button (start / next / resume)
  p      pause / resume
  u      undo the last press (or why not)
  x      abort the round
  q      quit
examples:
  presstime sim --players 4 --duration 3:00
  presstime sim --players 2 --mode family --pty
      also serves the link: play, watch and sync in other terminals attach to it
  presstime sim --game heat --players 4
      ready check and reveal (myth-fits: turns)
  presstime sim --players 3 --script "space +3500 2 +500 1 3 +100"
      no terminal needed: the keys on a virtual clock
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=4, metavar="N", help="players, 1 to 6 (default 4)"
    )
    parser.add_argument(
        "--duration",
        default="4:00",
        metavar="M:SS",
        help="round time: M:SS, seconds, or frantic (3:00) / standard (4:00) / relaxed (5:00)",
    )

    default = faces.core_of(games.GAMES[0])
    parser.add_argument(
        "--game",
        default=default.GAME,
        metavar="GAME",
        help="one of %s (default %s; the others in their own table modes)"
        % (", ".join(games.GAMES), default.GAME),
    )
    parser.add_argument(
        "--mode",
        default=None,
        help="%s mode, one of: %s (default %s)"
        % (default.TITLE, ", ".join(default.MODES), default.MODES[0]),
    )
    parser.add_argument(
        "--two-step", action="store_true", help='first press "Layout!", second "Print!"'
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds after time-out in which presses still take tokens (default 5)",
    )
    parser.add_argument(
        "--warn",
        metavar="S,S,S",
        default=None,
        help="warnings, in seconds left (default 60,30,10; none: no warning)",
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="keep the journal in FILE (a game in it resumes); default: a temporary file",
    )
    parser.add_argument(
        "--pty",
        action="store_true",
        help="also serve the serial link on a pseudo-terminal (path printed at start)",
    )
    parser.add_argument(
        "--script",
        metavar="KEYS",
        help="play these keys on a virtual clock and print each state change "
        "(words: 1-6, space, p, u, x, q, +MS, +M:SS)",
    )


def game_config(args: argparse.Namespace) -> dict[str, Any]:
    """The set-up the sim passes to the App, from the options (BadInput listing every problem)."""
    problems = []
    if not 1 <= args.players <= 6:
        problems.append("--players %d: expected 1 to 6" % args.players)
    try:
        duration = round_time_ms(args.duration)
    except BadInput as e:
        problems += e.messages

    face = games.module(args.game)
    if face is None:
        problems.append("--game %r: expected one of %s" % (args.game, ", ".join(games.GAMES)))
    if args.mode is not None and face is not None and args.mode not in face.MODES:
        known = [m for g in games.GAMES for m in faces.core_of(g).MODES]
        problems.append(
            "--mode %s: %s is played in %s"
            % (
                args.mode if args.mode in known else repr(args.mode),
                args.game,
                ", ".join(face.MODES),
            )
        )
    warn = None
    if args.warn is not None:
        try:
            warn = warnings_ms(args.warn)
        except BadInput as e:
            problems += e.messages
    if not 0 <= args.grace <= 60:
        problems.append("--grace %s: expected 0 to 60 seconds" % args.grace)
    if problems:
        raise BadInput(problems)
    config = {
        "players": args.players,
        "game": args.game,
        "duration_ms": duration,
        "options": {"two_step": bool(args.two_step), "grace_ms": int(args.grace * 1000)},
    }
    if face is not None:
        config["mode"] = args.mode or face.MODES[0]
    if warn is not None:
        config["options"]["warn_ms"] = warn
    return config


def _open_pty(port):
    import json
    import os
    import tty

    d = advert_dir()
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    port.serial_fd = master
    path = os.ttyname(slave)
    advert = os.path.join(d, "sim-%d-%s.json" % (os.getpid(), port.uid))
    with open(advert, "w") as f:
        json.dump({"pty": path, "pid": os.getpid(), "journal": port.journal_path()}, f)
    return path, (master, slave), advert


def _share_pty(path):
    """The simulator holds its own pty and shares it (presstime.board.share): every presstime
    command attaches to this process, none opens the pty itself, however many run at once."""
    return open_client(path, "sim --pty")


def run(args: argparse.Namespace) -> int:
    import os
    import shutil
    import sys
    import tempfile

    from presstime.sim import terminal

    config = game_config(args)
    script = None
    if args.script is not None:
        try:
            script = terminal.parse_script(args.script)
        except ValueError as e:
            raise BadInput("--script: %s" % e)
    elif not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise BadInput(
            "the simulator needs a terminal (stdin and stdout); use --script KEYS to run without "
            "one"
        )

    tmp = None
    path = args.journal
    if path is None:
        tmp = tempfile.mkdtemp(prefix="presstime-sim-")
        path = os.path.join(tmp, "journal.bin")
    elif os.path.isdir(path):
        raise BadInput("--journal %s: is a directory, expected a file" % path)
    port = terminal.TerminalPort(
        players=config["players"], journal_path=path, virtual=script is not None, uid="sim"
    )
    fds = ()
    advert = None
    holder = None
    try:
        try:
            journal = Journal(path)
        except OSError as e:
            raise Failure("cannot open the journal %s: %s" % (path, e))
        try:
            app = App(port, journal, config=config)
        except ValueError as e:
            raise BadInput(str(e))
        if app.table.cfg is not None and app.table.n != config["players"]:
            print(
                "presstime sim: resuming the game in %s (%d players)" % (path, app.table.n),
                file=sys.stderr,
            )
        pty_path = None
        if args.pty:
            from presstime.core import wire
            from presstime.device.link import Link
            from presstime.sim.headless import press_request

            link = Link(app, port, journal)
            # the firmware has no annotations: App.link (None until a link comes) reads as None
            app.link = link  # pyright: ignore[reportAttributeAccessIssue]
            # `play`'s keys press this simulator's buttons too, as they press play's own simulator
            link.extra[wire.PRESS] = lambda value: press_request(
                value, port.players, lambda b, ms: port.tap_now(b, hold_ms=ms)
            )
            port.uid = str(link.board_id())  # kept beside the journal: a restart is the same board
            pty_path, fds, advert = _open_pty(port)
            holder = _share_pty(pty_path)
            print("presstime sim: serving the link on %s" % pty_path, file=sys.stderr)
        if script is not None:
            terminal.run_script(app, port, str(args.script), sys.stdout)  # parsed above: a script
        else:
            try:
                terminal.run_live(
                    app,
                    port,
                    sys.stdin,
                    sys.stdout,
                    pty_path=pty_path,
                    grace_ms=config["options"]["grace_ms"],
                )
            except KeyboardInterrupt:
                pass
            except Exception as e:
                if type(e).__name__ != "ReplReturn":
                    raise
        journal.close()
    finally:
        if holder is not None:
            holder.close()
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass
        if advert:
            try:
                os.remove(advert)
            except OSError:
                pass
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0
