"""Whole games on the emulated Pico, and the same presses on the simulator.

A `Script` is a game's button actions in BOARD time (µs on the port's clock, which starts when
the app's port is made at boot). On the board (paused mode) each action becomes a pin drive at
the rig instant `board_us + origin_us` (see `board_origin`); on the simulator (the firmware App
under CPython with the FakePort, as `presstime sim` runs it) the same action is a FakePort edge at
`board_us`. Every press sits 300 µs into its millisecond, so the board's stamp (the PIO sample
that saw the edge: 0-16 µs after it, plus the capture's start bracket) falls in the same
millisecond as the edge. Presses at the same instant come out in seat order on both sides
(ports/debounce.py), so even a tie's journal is the same.

    origin = board_origin(rig, image)           # measured once per image, cached
    pico = boot_paused(rig, image)              # the same boot every time: the same origin
    client = pico.client(); client.configure(cfg)
    script = Script(start_ms=board_now_ms(pico, origin) + 50)
    script.tap(-1, 0)                           # control: a short press (start)
    ...
    run = play_on_board(pico, client, script, origin)    # statuses at script.checks, frames
    records = sim_records(cfg, script)                   # the simulator's journal
"""

import json
import os
import shutil
import time

from presstime.core import events as E
from presstime.core.lights_rgb import lights
from presstime.core.table import Table
from presstime.device.app import App
from presstime.device.memstore import MemJournal
from presstime.device.ports.fake import FakePort

from .pico import EmulatedPico, _firmware_digest, cache_dir, ring_layout
from .rp2emu import MS, RigError, timing_id

BOOT_NS = 450 * MS  # paused boot before the first request (the app answers by then)
PHASE_US = 300  # where in its millisecond every scripted edge falls
HOLD_MS = 80  # a player's tap
FRAME_LAG_MS = 30  # a frame reaches the pin at most this long after the loop's `now`


class Script:
    """Timed button actions, board time. `at` arguments are ms after `start_ms`."""

    def __init__(self, start_ms):
        self.start_ms = start_ms
        self.edges = []  # (t_us, button, down)
        self.checks = []  # board ms at which to ask the board's status (lights check)
        self.end_ms = start_ms

    def us(self, at_ms):
        return (self.start_ms + at_ms) * 1000 + PHASE_US

    def tap(self, button, at_ms, hold_ms=HOLD_MS):
        t = self.us(at_ms)
        self.edges.append((t, button, True))
        self.edges.append((t + hold_ms * 1000, button, False))
        self._end(at_ms + hold_ms)
        return self

    def same_instant(self, buttons, at_ms, hold_ms=HOLD_MS):
        """Several buttons down at the very same nanosecond (a tie)."""
        for b in buttons:
            self.tap(b, at_ms, hold_ms)
        return self

    def check(self, at_ms):
        self.checks.append(self.start_ms + at_ms)
        self._end(at_ms)
        return self

    def wait(self, at_ms):
        self._end(at_ms)
        return self

    def _end(self, at_ms):
        self.end_ms = max(self.end_ms, self.start_ms + at_ms)


# ---- the board -------------------------------------------------------------------------------
def boot_paused(rig, image):
    """The Pico booted from a copy of `image` in paused mode, always by the same commands (so
    the port's clock starts at the same rig instant every time: `board_origin`)."""
    pico = EmulatedPico.start(rig, image, pty=False, paused=True)
    pico.boot(BOOT_NS)
    return pico


def board_origin(rig, image):
    """The rig instant (µs) where the board's port clock reads 0, for `boot_paused` boots of
    `image`, measured from the board's own stamp of one press: a Fit to Print round is started
    by the control button, one player presses, and the status tells the round's go time (t_ms -
    elapsed_ms) and that press's round µs. That stamp's offset from its edge is inside the figure,
    so later stamps land where the script puts them. Cached per image, firmware and the rig's
    timing (the model makes the boot longer: another origin)."""
    key = os.path.join(
        cache_dir(),
        "origin-%s-%s-%s.json" % (os.path.basename(image), _firmware_digest(rig), timing_id()),
    )
    try:
        with open(key) as f:
            return int(json.load(f)["origin_us"])
    except (OSError, ValueError, KeyError):
        pass
    pico = boot_paused(rig, image)
    try:
        client = pico.client()
        client.configure({"players": ["A", "B"], "duration_ms": 10000})
        now = int(pico.now())
        pico.press(-1, at=now + 10 * MS)
        press_at = now + 4200 * MS + 300 * 1000  # the go comes ~3.5 s after the release
        pico.press(0, at=press_at)
        pico.run(press_at + 100 * MS - pico.now())
        st = client.status()
        p = st["players"][0]
        if st["phase"] not in ("running", "summary") or p.get("print_us") is None:
            raise RigError("origin: the calibration press was not taken (%s)" % st["phase"])
        go_ms = st["t_ms"] - st["elapsed_ms"] if st["phase"] == "running" else None
        if go_ms is None:
            raise RigError("origin: the round ended before the status")
        origin = int(press_at // 1000) - (go_ms * 1000 + p["print_us"])
    finally:
        pico.close()
    with open(key, "w") as f:
        json.dump({"origin_us": origin}, f)
    return origin


def board_now_ms(pico, origin_us):
    return int(pico.now() // 1000 - origin_us) // 1000


def schedule(pico, script, origin_us):
    """Every edge of the script as a pin drive at its rig instant (active low; released to the
    pull-up)."""
    for t_us, b, down in script.edges:
        pico.set(pico.pin(b), 0 if down else None, at=(t_us + origin_us) * 1000)


def play_on_board(pico, client, script, origin_us, tail_ms=600, saves=None):
    """Run the script on the paused board: the status at each check instant (with the rig
    instants the request went out and the reply came back), then every NeoPixel frame.
    `saves`: {board ms: path}: the flash image is saved there at that instant (a game's state
    to boot from later)."""
    schedule(pico, script, origin_us)
    checks = []
    todo = [(ms, "check", None) for ms in script.checks]
    todo += [(ms, "save", path) for ms, path in (saves or {}).items()]
    for ms, what, path in sorted(todo):
        target = (ms * 1000 + origin_us) * 1000
        if target > pico.now():
            pico.run(target - pico.now())
        if what == "save":
            pico.save(path)
            continue
        sent = pico.now()
        st = client.status()
        checks.append({"at_ms": ms, "status": st, "sent": sent, "got": pico.now()})
    end = ((script.end_ms + tail_ms) * 1000 + origin_us) * 1000
    if end > pico.now():
        pico.run(end - pico.now())
    return {"checks": checks, "frames": pico.frames(), "origin_us": origin_us}


# ---- the simulator ---------------------------------------------------------------------------
def sim_records(games, tail_ms=600, step_ms=1):
    """The simulator's journal after the same set-ups and presses at the same (board) times:
    the firmware App on a FakePort with the Pico's ring layout, stepped every `step_ms` of
    virtual time. `games`: [(cfg, script)], each configured when the one before has ended,
    as play_game does on the board."""
    ring, pp, size, cap = ring_layout()
    port = FakePort(players=6, pixels=size, ring=ring, player_pixels=pp)
    port.max_channel = cap
    journal = MemJournal()
    app = App(port, journal)
    for cfg, script in games:
        app.configure(cfg)
        for t_us, b, down in script.edges:
            port.edge(b, down, t_us)
        end = (script.end_ms + tail_ms) * 1000
        while port.t_us < end:
            app.step()
            port.advance(step_ms)
    app._write()
    return journal.records(0)


def play_game(rig, image, origin_us, games, saves=None, final=None):
    """Boot `image` (paused, the usual way), then for each (cfg, make_script) in `games`:
    configure the board over the link as `presstime play` does (BoardClient), build the script
    from the board's clock (make_script(start_ms)) and play it. `saves`: {(game index, ms after
    the script's start): path}; `final`: a path for the flash image after the last game.
    Returns [(cfg, script, run)]."""
    pico = boot_paused(rig, image)
    out = []
    try:
        client = pico.client()
        client.hello()
        for gi, (cfg, make_script) in enumerate(games):
            client.configure(cfg)
            script = make_script(board_now_ms(pico, origin_us) + 50)
            mine = dict(
                (script.start_ms + ms, path) for (g, ms), path in (saves or {}).items() if g == gi
            )
            run = play_on_board(pico, client, script, origin_us, saves=mine)
            out.append((cfg, script, run))
        if final:
            pico.save(final)
    finally:
        pico.close()
    return out


def fit_to_print_script(start_ms):
    """Fit to Print, three days of 10 s, six players: all print (day 1); a pause and a resume
    by 1.5 s holds of the control button, a time-out with a late press in the grace window and
    the tokens left forced in seat order (day 2); a same-instant tie and an undo by a double
    press (day 3). Each day starts, and the next comes, by a short press of the control button
    (acting 0.4 s after its release). Board-status checks in every phase."""
    s = Script(start_ms)
    s.check(500)  # ready check
    s.tap(-1, 800)  # start: release 880 -> START 1280 -> GO 4280
    s.check(2700)  # countdown
    g = 4280
    s.check(g + 900)  # running, nobody pressed yet
    for b, t in ((3, 1200), (1, 1400), (5, 1650), (0, 1900), (2, 2100), (4, 2350)):
        s.tap(b, g + t)
    s.check(g + 3000)  # summary: the pick order
    s.tap(-1, g + 3500)  # next day
    s.check(g + 4600)  # ready check, day 2
    s.tap(-1, g + 5000)  # start: GO at g + 8480
    g += 8480
    s.tap(0, g + 1500).tap(2, g + 1750)
    s.check(g + 2300)  # running, two printed
    s.tap(-1, g + 2500, hold_ms=1700)  # pause (at the down edge: round 2.5 s)
    s.check(g + 4600)  # paused
    s.tap(-1, g + 5500, hold_ms=1700)  # resume (from its down edge)
    s.check(g + 8000)  # running again
    s.check(g + 13600)  # grace window (time-out at g + 13000)
    s.tap(4, g + 13800)  # a late press: token 3
    s.check(g + 15600)  # summary: 1, 3, 5 forced in seat order
    s.tap(-1, g + 16000)  # next day
    s.tap(-1, g + 17000)  # start: GO at g + 20480
    g += 20480
    s.tap(1, g + 1300).tap(5, g + 1500)
    s.same_instant((0, 3), g + 1750)  # a tie: the same emulated nanosecond
    s.tap(2, g + 2000)
    s.check(g + 2450)
    s.tap(-1, g + 2500).tap(-1, g + 2750)  # double press: undo Cy's press
    s.tap(2, g + 3250).tap(4, g + 3500)
    s.check(g + 4100)  # summary
    s.tap(-1, g + 4500)  # next: the game is over
    s.check(g + 5600)
    return s


FTP_PLAYERS = ["Ada", "Ben", "Cy", "Dee", "Eli", "Fay"]
FTP_CONFIG = {"players": FTP_PLAYERS, "duration_ms": 10000, "grace_ms": 2000}
# instants (ms after the script's start) where play_game may save the flash for power cuts:
# day 1 running, day 1 summary, day 2 paused, day 2 grace, day 3 ready check
FTP_SAVES = (4280 + 1700, 4280 + 3200, 12760 + 4700, 12760 + 13700, 12760 + 16700)


# ---- comparing ---------------------------------------------------------------------------------
def plain(x):
    """JSON-plain form (tuples -> lists), for comparing a status over the link with a local one."""
    return json.loads(json.dumps(x))


def table_at(records, version):
    """The round machine after the first `version` events of a game's journal (the board's
    state version counts the events applied since its boot; its game began at record 1)."""
    t = Table()
    for _seq, payload in records[:version]:
        t.apply(E.decode(payload))
    t.drain()
    return t


def frame_checks(run, records):
    """For each status the board answered: (1) the round machine rebuilt from the board's own
    journal up to that status's version gives the very same status at its t_ms; (2) every
    NeoPixel frame on the pin in the 400 ms before the request, and the one on the ring when
    it came, equals core.lights.lights() of that state at the millisecond the board's loop
    computed it (searched in the FRAME_LAG_MS before the frame reached the pin). The checks
    are placed where no event happened in the 400 ms before. Returns [(check, frames compared)];
    AssertionError on
    a mismatch."""
    ring, pp, size, cap = ring_layout()
    origin = run["origin_us"]
    out = []
    since = 0
    for c in run["checks"]:
        st = c["status"]
        t = table_at(records, st["version"])
        t.standings = st.get("standings")
        # the undo window (the time of the last press) and the time of the last reveal are the
        # live machine's, not journaled: the board's word for them is taken
        live = {"undo": st.get("undo")}
        if st.get("reveal_ms") is not None:
            t.reveal_t = st["t_ms"] - st["reveal_ms"]

        def status(ms):
            d = t.status(ms)
            d.update(live)
            return d

        mine = plain(status(st["t_ms"]))
        assert mine == plain(st), "status at %d ms: board %r, its journal %r" % (
            st["t_ms"],
            st,
            mine,
        )
        n = 0
        shown = [f for f in run["frames"] if since <= f[0] <= c["sent"]]
        for t_ns, px in shown:
            # the frames of the last 400 ms, and the one on the ring when the request came
            if t_ns < c["sent"] - 400 * MS and t_ns != shown[-1][0]:
                continue
            tau = int((t_ns // 1000 - origin) // 1000)
            want = None
            for ms in range(tau, tau - FRAME_LAG_MS, -1):
                exp = lights(status(ms), ms, ring, pp, size, cap)
                if [tuple(p) for p in exp] == [tuple(p) for p in px]:
                    want = ms
                    break
            assert want is not None, (
                "frame on the pin at board %d ms (%s) is not lights(status) of the board's state "
                "(version %d) in the %d ms before: got %r, lights at %d ms: %r"
                % (
                    tau,
                    st["phase"],
                    st["version"],
                    FRAME_LAG_MS,
                    px,
                    tau,
                    lights(status(tau), tau, ring, pp, size, cap),
                )
            )
            n += 1
        out.append((c, n))
        since = c["got"]
    return out


def wall():
    return time.monotonic()


def fit_to_print_game(rig, image, origin_us):
    """The Fit to Print game of fit_to_print_script played once on the board, cached (per
    image, firmware, script and the way it is played) in the rig cache: {"cfg", "script", "run",
    "final": image
    after the game, "saves": {ms: image}} (the images are power-cut starting points)."""
    import hashlib
    import inspect
    import pickle

    what = repr(
        (
            inspect.getsource(fit_to_print_script),
            FTP_CONFIG,
            FTP_SAVES,
            BOOT_NS,
            PHASE_US,
            HOLD_MS,
            inspect.getsource(play_on_board),
        )
    )
    mine = hashlib.sha256(what.encode()).hexdigest()[:12]
    d = os.path.join(
        cache_dir(),
        "ftp-game-%s-%s-%s-%s"
        % (os.path.basename(image)[:-4], _firmware_digest(rig), mine, timing_id()),
    )
    meta = os.path.join(d, "game.pkl")
    if os.path.exists(meta):
        with open(meta, "rb") as f:
            return pickle.load(f)
    tmp = d + ".tmp%d" % os.getpid()
    os.makedirs(tmp, exist_ok=True)
    saves = dict(((0, ms), os.path.join(tmp, "at-%d.img" % ms)) for ms in FTP_SAVES)
    ((cfg, script, run),) = play_game(
        rig,
        image,
        origin_us,
        [(FTP_CONFIG, fit_to_print_script)],
        saves=saves,
        final=os.path.join(tmp, "final.img"),
    )
    game = {
        "cfg": cfg,
        "script": script,
        "run": run,
        "final": os.path.join(d, "final.img"),
        "saves": dict((ms, os.path.join(d, "at-%d.img" % ms)) for ms in FTP_SAVES),
    }
    with open(os.path.join(tmp, "game.pkl"), "wb") as f:
        pickle.dump(game, f)
    try:
        os.replace(tmp, d)
    except OSError:  # another session made it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
        with open(meta, "rb") as f:
            return pickle.load(f)
    return game
