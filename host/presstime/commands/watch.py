"""presstime watch: a live terminal mirror of the board: countdown, each player's state and token,
and the other games' table modes (ready and reveal, turns and photo tokens)."""

EXAMPLE = """examples:
  presstime watch
  presstime watch --port /dev/ttyACM0 --interval 0.5
  presstime watch --once --json

On a terminal: the table view (big countdown, seat colours, tokens, the grace window, the
winner), redrawn on every change and when the terminal is resized; plain lines when the output
is not a terminal or NO_COLOR is set. Ctrl-C ends the mirror (the board keeps running). Symbols: . waiting, r ready, ~ reporting,
L layout, # printed, ! late (grace window), x forced at time-out; [n] is the finishing token.
Heat and Mini FITS (ready check and reveal): the heist/round, the stage or card and how many are
ready; Myth Fits (turns): > marks whose turn it is, with the turn time and limit, each player's
photo tokens out of the target, the set-up facts (grid, photographers) and the win."""


def configure(parser):
    from ..boards import add_port_argument

    add_port_argument(parser)
    parser.add_argument("--interval", type=float, default=0.25, metavar="S",
                        help="seconds between status requests (default 0.25)")
    parser.add_argument("--once", action="store_true", help="show the status once and exit")
    parser.add_argument("--json", action="store_true", help="print each status as one JSON line")


def run(args):
    import json
    import sys
    import time

    from .. import boards, mirror, tableview
    from ..errors import BadInput

    if not 0.05 <= args.interval <= 60:
        raise BadInput("--interval must be between 0.05 and 60 seconds")
    port = boards.pick_port(args.port)
    client = boards.connect(port, command="watch")
    live = tableview.live_enabled(sys.stdout) and not args.json and not args.once
    view = tableview.View("watch", keys="Ctrl-C stops watching (the board keeps running)",
                          port="board on %s" % port)
    try:
        if args.once and not args.json:
            st = client.status()
            if tableview.live_enabled(sys.stdout):
                tableview.print_once(st, view)
            else:
                print(tableview.safe(mirror.one_line(st)))
            return 0
        with tableview.Screen(view, live=live) as screen:
            while True:
                st = client.status()
                if args.json:
                    print(json.dumps(st, sort_keys=True), flush=True)
                else:
                    screen.show(st)
                if args.once:
                    return 0
                time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0
    finally:
        client.close()
