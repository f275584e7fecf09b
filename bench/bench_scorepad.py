"""Scorepad (issue 12): from the last player's submit to the standings on the big screen, and
how many phones one `presstime` serves within that time. CPython on this machine, real HTTP on
loopback through the real server (Starlette on uvicorn) and the core scoring the round.

Each run: a 6-player Fit to Print round open on the scorepad; PHONES clients hold a live event
stream each and re-read the state on every event, as the phone page does (the 6 players' phones
among them; the rest are watching phones and big screens); the 6 players submit their numbers;
a game thread does what `play` does (collect, the core's tally, the standings). The figure is
the time from sending the last submit to the big screen's stream delivering the standings.

scorepad_standings_ms:       median over ROUNDS rounds with 12 phones (target <= 200)
scorepad_phones_within_200ms: the most phones (of 12, 24, 48) whose median stays <= 200 ms
                              (target >= 12)
"""

import http.client
import json
import statistics
import threading
import time
import urllib.request

from targets import at_least, at_most

KEYS = ("scorepad_standings_ms", "scorepad_phones_within_200ms")
TARGETS = {"scorepad_standings_ms": at_most(200), "scorepad_phones_within_200ms": at_least(12)}
ROUNDS = 5
NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]
PAD = {
    "white_space": 3,
    "articles": 8,
    "photos": 4,
    "centerpiece": 1,
    "smiles": 2,
    "frowns": 1,
    "unplaced": 1,
    "ads": 3,
}


def _post(url, body, token=None):
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class _Watcher(threading.Thread):
    """A phone or a screen: a live event stream, and a state read on every event."""

    def __init__(self, server, on_event=None):
        super().__init__(daemon=True)
        self.server = server
        self.on_event = on_event
        self.stop = False

    def run(self):
        try:
            self._run()
        except OSError:  # the server stopped at the end of the run
            pass

    def _run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        conn.request("GET", "/%s/api/events" % self.server.session.secret)
        resp = conn.getresponse()
        state_url = self.server.url + "api/state"
        while not self.stop:
            line = resp.fp.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                state = json.loads(line[6:])
                if self.on_event is not None:
                    self.on_event(state)
                urllib.request.urlopen(state_url, timeout=30).read()
        conn.close()


def _one_run(phones):
    from presstime import records
    from presstime.entry.rounds import round_slot
    from presstime.scorepad.server import ScorepadServer, _Limiter
    from presstime.scorepad.session import ScorepadSession

    record = {
        "game": "fit-to-print",
        "mode": "standard",
        "edition": "published",
        "players": NAMES,
        "rounds": [],
    }
    session = ScorepadSession(record, lambda r: None)
    server = ScorepadServer(session).start()
    server.limiter = _Limiter(rate=1e6, burst=1e6)  # every client is on 127.0.0.1 here
    seen = {}
    cond = threading.Condition()

    def screen(state):
        st = state.get("standings")
        if st and st.get("round") is not None:
            with cond:
                seen[st["round"]] = time.perf_counter()
                cond.notify_all()

    watchers = [_Watcher(server, screen)] + [_Watcher(server) for _ in range(phones - 1)]
    for w in watchers:
        w.start()
    tokens = [_post(server.url + "api/claim", {"seat": s})["token"] for s in range(len(NAMES))]
    out = []
    try:
        for r in range(3):
            round_slot(record, r)["breaking_news"] = []
            record["rounds"][r]["finish"] = list(NAMES)
            game = threading.Thread(
                target=_game_round, args=(session, record, r, records), daemon=True
            )
            game.start()
            while session.round_index != r or not session.open:
                time.sleep(0.005)
            for s in range(len(NAMES) - 1):
                _post(server.url + "api/submit", {"seat": s, "values": PAD}, tokens[s])
            time.sleep(0.05)
            t0 = time.perf_counter()
            _post(server.url + "api/submit", {"seat": len(NAMES) - 1, "values": PAD}, tokens[-1])
            with cond:
                cond.wait_for(lambda: (r + 1) in seen, timeout=30)
            out.append((seen[r + 1] - t0) * 1000)
            game.join(30)
    finally:
        for w in watchers:
            w.stop = True
        server.stop()
    return out


def _game_round(session, record, r, records):
    session.open_round(r, "round %d" % (r + 1))
    while not session.wait(0.2):
        pass
    session.close_round()
    session.set_standings(records.tally(record))


def measure():
    medians = {}
    for phones in (12, 24, 48):
        times = []
        for _ in range(max(1, ROUNDS // 3 + 1)):
            times += _one_run(phones)
        medians[phones] = statistics.median(times)
    within = max([n for n, m in medians.items() if m <= 200] or [0])
    import sys

    print(
        "scorepad: median ms by phones %s" % dict((n, round(m, 1)) for n, m in medians.items()),
        file=sys.stderr,
    )
    return {"scorepad_standings_ms": round(medians[12], 1), "scorepad_phones_within_200ms": within}


if __name__ == "__main__":
    print(measure())
