"""The live mirror of a board (`presstime watch`, and a second `play` on a board being played)."""

from __future__ import annotations

import json
import sys
import time

from presstime.board import ports, share
from presstime.tableside import display, status_text


def watch_board(
    port: str | None,
    interval: float = 0.25,
    once: bool = False,
    as_json: bool = False,
    command: str = "watch",
) -> int:
    """Mirror the board on `port` (None: the only one) until Ctrl-C; the exit status."""
    port = ports.pick_port(port)
    client = share.connect(port, command=command)
    live = display.live_enabled(sys.stdout) and not as_json and not once
    view = display.View(
        "watch", keys="Ctrl-C stops watching (the board keeps running)", port="board on %s" % port
    )
    try:
        if once and not as_json:
            st = client.status()
            if display.live_enabled(sys.stdout):
                display.print_once(st, view)
            else:
                print(display.safe(status_text.one_line(st)))
            return 0
        with display.Screen(view, live=live) as screen:
            while True:
                st = client.status()
                if as_json:
                    print(
                        json.dumps(st, sort_keys=True, allow_nan=False), flush=True
                    )  # checked: JSON
                else:
                    screen.show(st)
                if once:
                    return 0
                time.sleep(interval)
    except KeyboardInterrupt:
        return 0
    finally:
        client.close()
