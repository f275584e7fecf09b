"""The `presstime` command: a table of small handlers, imported only when used.

Each command lives in `presstime.commands.<module>` and provides
`configure(parser)` (arguments, with an example in the epilog) and `run(args) -> int`.
Nothing heavy is imported at start, so `presstime --help` stays fast.
Exit status: 0 ok, 1 failure, 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TYPE_CHECKING

from presstime import __version__
from presstime.errors import BadInput, Failure
from presstime.term import SafeStream, printable

if TYPE_CHECKING:
    from types import ModuleType

# name: (module under presstime.commands, one-line summary)
COMMANDS = {
    "score": ("score", "tally a game record file and print the standings"),
    "play": ("play", "play a game at the table with the board (or the simulator)"),
    "sim": ("sim", "run the simulated board in this terminal"),
    "devices": ("devices", "list attached boards and running simulators"),
    "sync": ("sync", "pull the board's journal into the local history"),
    "repl": ("repl", "ask the app on the board to return to the REPL (for mpremote)"),
    "watch": ("watch", "live mirror of the board: countdown and players"),
    "enter": ("enter", "type in a game's scorepad, round by round"),
    "history": ("history", "list the games in the local history"),
    "show": ("show", "print one game from the history as `score` does"),
    "import": ("importing", "add game record files to the history"),
    "export": ("export", "write games from the history as JSON or CSV"),
    "delete": ("delete", "remove games from the history (asks first)"),
    "stats": ("stats", "per-player statistics over the history"),
    "chart": ("chart", "draw score progression and category charts"),
    "card": ("card", "draw a shareable result card of one game (PNG or SVG)"),
    "install-firmware": (
        "install_firmware",
        "copy the firmware to a MicroPython or CircuitPython board",
    ),
}


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The examples and notes as written when they fit the terminal; else each paragraph of
    plain lines is filled again and each indented line wraps under itself, always between words
    (never inside one)."""

    def _fill_text(self, text, width, indent):
        import textwrap

        lines = text.splitlines()
        if all(len(indent + line) <= width for line in lines):
            return "\n".join(indent + line for line in lines)
        out, prose = [], []

        def flush():
            if prose:
                out.extend(
                    textwrap.wrap(
                        " ".join(prose),
                        width,
                        initial_indent=indent,
                        subsequent_indent=indent,
                        break_long_words=False,
                        break_on_hyphens=False,
                    )
                )
                del prose[:]

        for line in lines:
            lead = line[: len(line) - len(line.lstrip())]
            if line.strip() and not lead and not (line.endswith(":") and len(line) < 40):
                prose.append(line.strip())
                continue
            flush()
            out.extend(
                textwrap.wrap(
                    line.strip(),
                    width,
                    initial_indent=indent + lead,
                    subsequent_indent=indent + lead + ("    " if lead else ""),
                    break_long_words=False,
                    break_on_hyphens=False,
                )
                or [""]
            )
        flush()
        return "\n".join(out)


def _error(text):
    """An error line on stderr; on a terminal wrapped between words to its width."""
    import shutil
    import textwrap

    if sys.stderr.isatty():
        width = shutil.get_terminal_size((80, 24)).columns - 1
        text = "\n".join(
            textwrap.wrap(
                text,
                max(40, width),
                subsequent_indent="  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    print(text, file=sys.stderr)


def _top_parser():
    lines = ["commands:"]
    for name in COMMANDS:
        lines.append("  %-17s %s" % (name, COMMANDS[name][1]))
    lines.append("")
    lines.append("`presstime COMMAND --help` shows a command's options and an example.")
    lines.append("example: presstime play --demo")
    p = argparse.ArgumentParser(
        prog="presstime",
        description="Table-side round timer and score keeper for tabletop games.",
        epilog="\n".join(lines),
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version="presstime " + __version__)
    p.add_argument("command", nargs="?", help="one of the commands below")
    return p


def command_parser(name: str) -> tuple[ModuleType, argparse.ArgumentParser]:
    """The argparse parser of one command (its module imported now)."""
    module = importlib.import_module("presstime.commands." + COMMANDS[name][0])
    p = argparse.ArgumentParser(
        prog="presstime " + name,
        description=COMMANDS[name][1],
        epilog=getattr(module, "EXAMPLE", None),
        formatter_class=HelpFormatter,
    )
    module.configure(p)
    return module, p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") or argv[0] not in COMMANDS:
        top = _top_parser()
        if argv and not argv[0].startswith("-"):
            top.print_usage(sys.stderr)
            print("presstime: unknown command %r (see presstime --help)" % argv[0], file=sys.stderr)
            return 2
        top.parse_args(argv)
        top.print_help()
        return 0

    # No control character from a name, a board or a file reaches the terminal raw (term.py).
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        module, parser = command_parser(argv[0])
        try:
            args = parser.parse_args(argv[1:])
        except SystemExit as e:  # argparse: 0 for --help, 2 for a usage error
            return e.code if isinstance(e.code, int) else 2
        return module.run(args) or 0
    except BadInput as e:
        for message in e.messages:
            _error("presstime %s: %s" % (argv[0], printable(message)))
        return 2
    except Failure as e:
        _error("presstime %s: %s" % (argv[0], printable(e)))
        return 1
    except _database_error() as e:  # the history failing under a command (damaged, disk full)
        from presstime.history.store import database_failure, db_path

        failure = database_failure(db_path(args), e)
        print("presstime %s: %s" % (argv[0], printable(failure)), file=sys.stderr)
        return 2 if isinstance(failure, BadInput) else 1
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `presstime history | head`: the reader left, nothing to report
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        sys.stdout, sys.stderr = saved


def _database_error():
    import sqlite3

    return sqlite3.DatabaseError


if __name__ == "__main__":
    sys.exit(main())
