"""Whole games on the emulated MacroPad, and the same presses on the simulator.

    pad = EmulatedMacropad.start(rig, image, paused=True)
    game = Game(pad, cfg)                  # configures the board over usb_cdc.data
    game.control(in_ms=100)                # the encoder switch: start (a short press)
    game.press(seat, at_ms=...)            # a player's key, at an instant of the board's clock
    game.run_to(board_ms)                  # let emulated time run (paused: idle time skipped)
    game.status(); game.sync(db)           # over the link
    sim = game.simulate()                  # the device App on the fake port, fed the same edges
    mismatches(game.board_frames(), sim.port.frames)

Times here are the board's clock (ms since power-on, the port's now_ms): the rig places an
edge at the harness instant of that board time. The simulator is the firmware's own App on
the FakePort (what `presstime sim` runs) with the MacroPad's pixel layout: it gets every edge
at its true instant, so what it makes of the presses is the reference the board is held to.
"""

from presstime.device.boards import macropad as board

from .rp2emu import MS

LAG_MS = 50  # a board frame may show a state at most this late (the bound)
STEP_MS = 30  # the board takes an edge or a time-out at its next loop step (20 ms sleep)


class Game:
    def __init__(self, pad, cfg):
        self.pad = pad
        self.cfg = cfg
        self.edges = []  # (t_us board, button, down): what the keys did
        self.t_cfg = pad.board_ms(pad.now())
        self.version = pad.call(lambda c: c.configure(cfg))
        self.t_after_cfg = pad.board_ms(pad.now())

    def now_ms(self):
        return self.pad.board_ms(self.pad.now())

    def press(self, button, at_ms=None, in_ms=None, hold_ms=80):
        """Press a player's key (-1: the encoder switch) at a board time (or in_ms from now);
        returns the board ms of the down edge (whole µs)."""
        if at_ms is None:
            at_ms = self.now_ms() + (in_ms or 0)
        at_us = int(at_ms * 1000)
        at_ns = int(round(self.pad.harness_ns(at_us / 1000.0)))
        self.pad.press(button, at=at_ns, hold_ms=hold_ms)
        self.edges.append((at_us, button, True))
        self.edges.append((at_us + int(hold_ms * 1000), button, False))
        return at_us / 1000.0

    def control(self, at_ms=None, in_ms=None, hold_ms=80):
        return self.press(-1, at_ms, in_ms, hold_ms)

    def run_to(self, board_ms):
        left = self.pad.harness_ns(board_ms) - self.pad.now()
        if left > 0:
            self.pad.run(int(left))

    def status(self):
        return self.pad.call(lambda c: c.status())

    def board_frames(self):
        """[(board ms, [(r, g, b) * 12])] of the key pixels."""
        off = self.pad.boot_offset_ns()
        return [((t - off) / MS, px) for t, px in self.pad.frames()]

    def simulate(self, until_ms=None, board_records=None):
        """The App on the fake port, fed the same configure and edges, stepped every ms up to
        `until_ms` (default: now on the board). Returns the App (app.port.frames, app.journal).

        The board takes a control button's short press at its first loop step 0.4 s after the
        release, the simulator at exactly 0.4 s: given the board's journal records of this game
        (`board_records`), each control press that started a round is moved so that the
        simulator's round starts at the board's START time (round time then runs alike)."""
        until = until_ms if until_ms is not None else self.now_ms()
        app = simulate(self.cfg, self.t_after_cfg, self.edges, until)
        if not board_records:
            return app
        edges = align_starts(
            self.edges, starts_of(app.journal.records(0)), starts_of(board_records)
        )
        return simulate(self.cfg, self.t_after_cfg, edges, until)


def split_games(records):
    """A journal's records cut at each CONFIG: [[(seq, payload), ...] per game], oldest first."""
    from presstime.core import events as E

    out = []
    for rec in records:
        try:
            kind = E.decode(rec[1])[0]
        except ValueError:
            kind = None
        if kind == E.CONFIG or not out:
            out.append([])
        out[-1].append(rec)
    return out


def starts_of(records):
    """The START events' board times (ms), in order."""
    from presstime.core import events as E

    out = []
    for _, payload in records:
        try:
            ev = E.decode(payload)
        except ValueError:
            continue
        if ev[0] == E.CONFIG:
            out = []  # this game's only
        elif ev[0] == E.START:
            out.append(ev[1])
    return out


def align_starts(edges, sim_starts, board_starts):
    """Move the control presses whose release the simulator turned into a START (at release +
    0.4 s) by the board's delay for that START."""
    shift = {}
    releases = [(t_us, i) for i, (t_us, b, down) in enumerate(edges) if b < 0 and not down]
    for k, s in enumerate(sim_starts):
        if k >= len(board_starts):
            break
        for t_us, i in releases:
            if t_us // 1000 + 400 == s:
                shift[i] = (board_starts[k] - s) * 1000
    out = list(edges)
    for i, d in shift.items():  # Game.press adds (down, up) pairs: the down is at i - 1
        out[i - 1] = (edges[i - 1][0] + d, -1, True)
        out[i] = (edges[i][0] + d, -1, False)
    return out


def start_round(game):
    """The encoder switch, a short press (taken 0.4 s after release): the round starts. Returns
    a board time after round time 0 (read back from the board) to place presses from."""
    t = game.now_ms() + 200
    game.control(at_ms=t)
    game.run_to(t + 80 + 400 + 3000 + 200)
    st = wait_phase(game, ("running",))
    return st, game.now_ms() + 100


def wait_phase(game, phases, max_ms=5000):
    """Run emulated time until the board reports one of `phases` (its status)."""
    end = game.now_ms() + max_ms
    while True:
        st = game.status()
        if st["phase"] in phases or game.now_ms() > end:
            return st
        game.run_to(game.now_ms() + 250)


def next_round(game):
    game.control(at_ms=game.now_ms() + 200)
    game.run_to(game.now_ms() + 200 + 80 + 400 + 200)
    return wait_phase(game, ("ready", "over"))


def simulator_port(start_ms):
    from presstime.device.ports.fake import FakePort

    port = FakePort(
        players=len(board.PLAYER_KEYS),
        pixels=board.PIXEL_COUNT,
        ring=tuple(board.COUNTDOWN_KEYS),
        player_pixels=tuple(board.PLAYER_KEYS),
        keep_frames=1_000_000,
    )
    port.max_channel = board.MAX_CHANNEL
    port.set_ms(int(start_ms))
    return port


def simulate(cfg, t_cfg_ms, edges, until_ms, journal=None):
    from presstime.device.app import App
    from presstime.device.memstore import MemJournal

    port = simulator_port(t_cfg_ms)
    app = App(port, journal if journal is not None else MemJournal())
    app.configure(cfg)
    for t_us, button, down in edges:
        port.edge(button, down, t_us)
    import copy
    import types

    # a Table refers to its game's scoring module: a module is shared, not copied
    copy._deepcopy_dispatch.setdefault(types.ModuleType, copy._deepcopy_atomic)
    app.snapshots = [(int(t_cfg_ms), copy.deepcopy(app.table))]  # (ms, the state from then)
    t = int(t_cfg_ms)
    while t < until_ms:
        t += 1
        port.set_ms(t)
        app.step()
        if app.table.version != app.snapshots[-1][1].version:
            app.snapshots.append((t, copy.deepcopy(app.table)))
    return app


def lights_mismatches(
    board_frames, snapshots, lag_ms=LAG_MS, step_ms=STEP_MS, since_ms=None, until_ms=None
):
    """Board frames that core/lights does not give for the game's state: a frame shown at t is
    right when lights(state.status(tc), tc) equals it for some tc in [t - lag_ms, t] (the app
    computes a frame at its step, then sends it), the state being the simulator's state at tc or
    one it left less than step_ms before tc (the board takes a press, a time-out or the end of
    the countdown at its next loop step, the simulator at the exact ms).
    Returns [(t, board pixels)]."""
    from presstime.core.lights_rgb import lights

    ring, pp, cap = tuple(board.COUNTDOWN_KEYS), tuple(board.PLAYER_KEYS), board.MAX_CHANNEL
    times = [t for t, _ in snapshots]
    out = []
    for t, px in board_frames:
        if since_ms is not None and t < since_ms:
            continue
        if until_ms is not None and t >= until_ms:
            break
        want = [tuple(x) for x in px]
        ok = False
        for tc in range(int(t) - lag_ms, int(t) + 1):
            i = _index_at(times, tc)
            if i < 0:
                continue
            states = [snapshots[i][1]]
            j = i - 1
            while j >= 0 and snapshots[j + 1][0] > tc - step_ms:
                states.append(snapshots[j][1])
                j -= 1
            for table in states:
                got = lights(table.status(tc), tc, ring, pp, board.PIXEL_COUNT, cap)
                if [tuple(x) for x in got] == want:
                    ok = True
                    break
            if ok:
                break
        if not ok:
            out.append((t, px))
    return out


def _index_at(times, t):
    """Index of the last time <= t (-1 if none)."""
    lo, hi = 0, len(times)
    while lo < hi:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def current_at(frames, t_ms):
    """The frame showing at t_ms (the last one sent at or before it), or None."""
    cur = None
    for ft, px in frames:
        if ft > t_ms:
            break
        cur = px
    return cur


def mismatches(board_frames, sim_frames, lag_ms=LAG_MS, since_ms=None):
    """Board frames that no simulator frame showing within the lag_ms before them explains:
    [(board ms, board pixels, the simulator's frame then)]. A board frame is right when it is
    the frame the simulator (the same App on the same presses, core/lights' colours) showed at
    some instant of [t - lag_ms, t]."""
    out = []
    for t, px in board_frames:
        if since_ms is not None and t < since_ms:
            continue
        ok = False
        candidates = [current_at(sim_frames, t - lag_ms)]
        candidates += [f for ft, f in sim_frames if t - lag_ms <= ft <= t]
        for c in candidates:
            if c is not None and [tuple(x) for x in c] == [tuple(x) for x in px]:
                ok = True
                break
        if not ok:
            out.append((t, px, current_at(sim_frames, t)))
    return out


def light_latencies(board_frames, sim_frames, since_ms=None):
    """For every frame the simulator showed (after since_ms): ms until the board showed the
    same pixels (None when it never did: superseded first on the board too)."""
    out = []
    for i, (ft, f) in enumerate(sim_frames):
        if since_ms is not None and ft < since_ms:
            continue
        nxt = sim_frames[i + 1][0] if i + 1 < len(sim_frames) else None
        seen = None
        for bt, px in board_frames:
            if bt < ft - 5:
                continue
            if [tuple(x) for x in px] == [tuple(x) for x in f]:
                seen = bt - ft
                break
            if nxt is not None and bt > nxt + LAG_MS:
                break
        out.append((ft, seen))
    return out
