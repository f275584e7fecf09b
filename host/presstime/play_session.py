"""The play session: what `presstime play` does with a board for one game, and its helpers
(the board picked or the simulator started, the set-up sent, the rounds mirrored, the finished
game stored and its standings pushed to the lights). `commands/play.py` is the command-line
front; play_games.py the other games' rounds.
"""


def parse_players(text, mode):
    from .errors import BadInput

    names = [n.strip() for n in text.split(",")]
    problems = []
    if any(not n for n in names):
        problems.append("--players: an empty name in %r" % text)
    if len(set(n.lower() for n in names)) != len(names):
        problems.append("--players: every name must differ")
    if not 1 <= len(names) <= 6:
        problems.append("--players: 1 to 6 players, got %d" % len(names))
    for n in names:
        if len(n.encode()) > 24:
            problems.append("--players: %r is longer than 24 bytes" % n)
    if problems:
        raise BadInput(problems)
    return names


class PlaySession:
    """What `play` does with the board, for one game; the terminal side is in `say`/`ask`.

    (Not the core's round machine, core/table.py Table: this drives a board that runs one.)"""

    def __init__(self, client, store, record, key, say, ask, demo=None, live=None):
        self.client = client
        self.store = store
        self.record = record
        self.key = key
        self.say = say
        self.ask = ask
        self.demo = demo          # a Demo, or None (interactive)
        self.live = live          # a stream for the \r live line (a terminal), or None

    def save(self, record):
        self.store.save_draft(self.key, record)

    def wait_round(self, index):
        """Start (desktop or control button), mirror the round, return the final status."""
        from . import mirror

        st = self.client.status()
        if st.get("phase") == "ready":
            if self.demo:
                self.client.start()
            else:
                self.say("%s: press the board's control button, or Enter here to start"
                         " (? for help)." % mirror.headline(st))
        import time

        last = None
        script = None
        while True:
            st = self.client.status()
            phase = st.get("phase")
            if phase in ("summary", "over"):
                break
            if self.demo and phase == "running":
                if script is None:
                    script = self.demo.schedule(len(st.get("players", [])), time.monotonic())
                while script and script[0][0] <= time.monotonic():
                    self.client.press(script.pop(0)[1])
            elif not self.demo:
                line = _poll_line(0.0)
                if line is not None:
                    self._typed(line.strip().lower(), phase)
            if self.live is not None:
                text = mirror.one_line(st, self.live)
                if text != last:
                    self.live.write("\r\x1b[K" + text)
                    self.live.flush()
                last = text
            else:
                key = (phase, [(p.get("state"), p.get("token")) for p in st.get("players", [])])
                if key != last and phase != "countdown":
                    self.say(mirror.one_line(st))
                last = key
            time.sleep(0.1 if self.demo else 0.2)
        if self.live is not None:
            self.live.write("\r\x1b[K")
            self.live.flush()
        for line in mirror.lines(st):
            self.say(line)
        return st

    def _typed(self, word, phase):
        from .core import wire
        from .link import BoardError

        try:
            if word.isdigit() and 1 <= int(word) <= 6:
                try:
                    self.client.press(int(word) - 1)  # the simulator's virtual buttons
                except BoardError as e:
                    if e.code != wire.E_UNKNOWN:
                        raise
                    self.say("  a real board takes presses on its buttons only")
            elif word in ("", "s", "start") and phase == "ready":
                self.client.start()
            elif word in ("p", "pause") and phase == "running":
                self.client.pause()
            elif word in ("", "r", "resume") and phase == "paused":
                self.client.resume()
            elif word in ("a", "abort"):
                self.client.abort()
            elif word in ("?", "help"):
                self.say("  Enter: start/resume · p: pause · a: abort the round (it restarts)"
                         " · 1-6: press that player's button (simulator)")
        except BoardError as e:
            self.say("  the board refused: %s" % e.board_message)

    def score_round(self, index, st):
        from . import mirror, rebuild, records
        from .entry import ScoreEntry

        finish = mirror.finish_order(st)
        if self.demo:
            self.demo.fill(self.record, index)
        entry = ScoreEntry(self.record, self.save, ask=self.ask, say=self.say)
        entry.enter_round(index, finish=finish, table=rebuild.table_block(rebuild.round_of(st)))
        try:
            return records.tally(self.record)
        except Exception:
            return None

    def push(self, result):
        from .link import BoardError

        names = [p["name"] for p in result["players"]]
        winners = result.get("winners") or []
        standings = {
            "totals": [p["total"] for p in result["players"]],
            "out": [i for i, p in enumerate(result["players"]) if p.get("out_of_business")],
            "winner": names.index(winners[0]) if result.get("complete") and len(winners) == 1 else None,
        }
        try:
            self.client.push_standings(standings)
        except BoardError as e:
            self.say("  (the board did not take the standings: %s)" % e.board_message)

    def next_round(self):
        from .link import BoardError

        st = self.client.status()
        if st.get("phase") != "summary":
            return st  # already moved on from the control button
        try:
            self.client.next_round()
        except BoardError as e:
            self.say("  (next round refused: %s)" % e.board_message)
        return self.client.status()


class Demo:
    """Scripted presses and example scorepad numbers (seeded, so every demo is the same game)."""

    def __init__(self, seed):
        import random

        self.rnd = random.Random(seed)

    def schedule(self, players, now):
        """[(monotonic time, button)]: every player presses once, in a shuffled order."""
        order = list(range(players))
        self.rnd.shuffle(order)
        out = []
        t = now
        for b in order:
            t += self.rnd.uniform(0.2, 0.6)
            out.append((t, b))
        return out

    def fill(self, record, index):
        from .entry import needed_fields, player_names, round_slot

        rnd = round_slot(record, index)
        rnd.setdefault("breaking_news", [])
        r = self.rnd
        pads = rnd.setdefault("players", {})
        for name in player_names(record):
            pad = {}
            for field in needed_fields(record, index):
                pad[field] = {
                    "articles": r.randint(6, 14), "photos": r.randint(1, 6), "centerpiece": r.randint(-2, 4),
                    "white_space": r.randint(1, 8), "smiles": r.randint(0, 5), "frowns": r.randint(0, 5),
                    "unplaced": r.randint(0, 2), "ads": r.randint(1, 6), "tiles": r.randint(8, 14),
                    "unplaced_ads": 0,
                }.get(field, 0)
            pads[name] = pad


def _poll_line(timeout):
    """A line typed on stdin within `timeout` seconds, or None (POSIX select; EOF: None)."""
    import select
    import sys

    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    return line if line else None


def scripted_ask(prompt):
    # the demo pre-fills every number; a question means the entry wants something unexpected:
    # Enter keeps/skips it, and a runaway loop is stopped
    scripted_ask.calls += 1
    if scripted_ask.calls > 200:
        raise EOFError()
    return ""


scripted_ask.calls = 0


def configure_board(client, cfg, say):
    """Show the board, send it the set-up, and return the history key of the game it starts."""
    from . import rebuild

    info = client.info or {}
    say("Board: %s (firmware %s, id %s)" % (info.get("board"), info.get("fw"), info.get("id")))
    client.configure(cfg)
    hello = client.hello()
    gid = hello.get("gid")
    return rebuild.game_key(hello.get("id"), {"seq": gid if isinstance(gid, int) else hello.get("seq", 0)})


def store_played_game(store, table, record, key, result, say):
    """The finished game into the history under the board's key (its draft dropped), the
    standings shown here and pushed to the board's lights."""
    from . import report

    game_id = store.add_game(record, source=key)
    store.drop_draft(key)
    say("")
    say(report.standings_text(result).rstrip("\n"))
    say("Saved as game %d in the history." % game_id)
    table.push(result)


def open_board(args, say):
    """(client, simulator or None) for --port / the only board / a new simulator."""
    from . import boards

    sim = None
    port = None
    if args.port or not (args.sim or args.demo):
        port = boards.pick_port(args.port, allow_none=True)
        if port is None:
            say("No board found: playing against the simulator (a board on USB is used automatically).")
    if port is None:
        from .simserve import Simulator

        sim = Simulator().start()
        port = sim.path
        say("Simulator started on %s" % port)
    try:
        client = boards.connect(port)
    except Exception:
        if sim is not None:
            sim.stop()
        raise
    return client, sim
