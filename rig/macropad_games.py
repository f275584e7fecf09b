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

LAG_MS = 50             # a board frame may show a state at most this late (the bound)


class Game:
    def __init__(self, pad, cfg):
        self.pad = pad
        self.cfg = cfg
        self.edges = []                 # (t_us board, button, down): what the keys did
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

    def simulate(self, until_ms=None, journal=None):
        """The App on the fake port, fed the same configure and edges, stepped every ms up to
        `until_ms` (default: now on the board). Returns the App (app.port.frames, app.journal)."""
        return simulate(self.cfg, self.t_after_cfg, self.edges,
                        until_ms if until_ms is not None else self.now_ms(), journal)


def simulator_port(start_ms):
    from presstime.device.ports.fake import FakePort

    port = FakePort(players=len(board.PLAYER_KEYS), pixels=board.PIXEL_COUNT,
                    ring=tuple(board.COUNTDOWN_KEYS), player_pixels=tuple(board.PLAYER_KEYS),
                    keep_frames=1_000_000)
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
    t = int(t_cfg_ms)
    while t < until_ms:
        t += 1
        port.set_ms(t)
        app.step()
    return app


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
