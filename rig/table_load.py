"""The board under a real table's load, on the official firmware in the paused rig (issue 23).

    run = table_run(rig, image, games=3)     # installed app, desktop attached, seeded presses
    run["replies"], run["presses"], run["boots"], run["rounds"]
    run = table_run(rig, macropad_image, games=3, board="macropad")   # the same load, CircuitPython

The board is the Pico (official MicroPython, the link on its console) or the MacroPad (official
CircuitPython, the link on usb_cdc.data through rig/datalink.mjs): both run paused, the link in
emulated time, so the same load gives the same figures every run.

What a table does to the board, all in emulated time: the desktop attached and doing what
`presstime play` does (tableside/round_screen.py through board/link.py's StatusFeed: the status
watched, pushed by the board when it changes, asked again every 2 s, all through a round; the
standings pushed and the next round asked for at each summary), six players
on bouncy contacts pressing in the ready check and in the round, two of them 5-30 ms apart every
round (the second press lands in the first one's journal append and checkpoint), games played
one after the other on the same journal (so littlefs compacts its metadata now and then), and
three boots: the first (empty journal), one after a played game, one after a power reset in the
middle of a round (the desktop then resumes it, as play would, and the players the board has
no press for press again: the Pico resumes the round paused with the presses it had journaled;
the MacroPad, which keeps a round's events in RAM, is back at the round's ready check, so the
table goes through it, the countdown and the round again).

Times: a reply from its request's write to its last byte (1 ms slices); a press's light from its
first edge to the first NeoPixel frame where that player's pixel leaves the values it showed in
the 2 s before; CPU busy is the rig's activeCycles share over each round (ready check to
summary) with the desktop attached: a boot inside a round (power-on to the hello reply, its own
figure) is left out of it, and kept in `rounds_with_boot`; a boot from power-on to the hello
reply (the hello waiting from power-on).
"""

import random

from .pico import EmulatedPico, ring_layout
from .rp2emu import MS, US
from .transport import RigTransport

POLL_IDLE_MS = 50  # play_session.wait_round: show_round(..., idle_s=0.05)
SLICE_NS = 1 * MS
PLAYERS = 6
BOUNCES = 3  # contact bounces before the stable level, on press and on release
REPLY_WAIT_S = 2.0  # emulated seconds the desktop waits for a reply (no retry)
BOOT_WAIT_S = 15.0  # ... for the hello sent at power-on (the MacroPad boots in ~4-5 s)


def start_pico(rig, image):
    """(the board, its link channel, the pixel of each seat's light): the console is the link."""
    pico = EmulatedPico.start(rig, image, pty=False, paused=True)
    return pico, pico, ring_layout()[1]


def start_macropad(rig, image):
    from presstime.device.boards import macropad as layout

    from .macropad import EmulatedMacropad

    pad = EmulatedMacropad.start(rig, image, pty=False, data_pty=False, paused=True, data_link=True)
    return pad, pad.data_link, tuple(layout.PLAYER_KEYS)


BOARDS = {"pico": start_pico, "macropad": start_macropad}


def _client(pico, channel, times, spans):
    """BoardClient over the rig; every request's reply time goes into `times` as (type, ms),
    and its instants into `spans` as (type, request written, last byte read)."""
    from presstime.board.link import BoardClient
    from presstime.core import wire

    t = RigTransport(pico, SLICE_NS, channel)
    client = BoardClient(t, timeout=REPLY_WAIT_S, retries=0)
    client._rid = 0x40
    plain = client.request

    def request(mtype, value=None, rid=None):
        answer = plain(mtype, value, rid)
        kind = wire.NAMES.get(mtype, mtype)
        times.append((kind, (t.last_in_ns - t.last_out_ns) / MS))
        spans.append((kind, t.last_out_ns, t.last_in_ns))
        return answer

    client.request = request
    return client, t


def bouncy_press(pico, rng, button, at, hold_ms):
    """A press with contact bounce: a few short pulses before the level settles, and after the
    release. Returns the first edge's instant."""
    pin = pico.pin(button)
    t = at
    for _ in range(BOUNCES):
        pico.set(pin, 0, at=t)
        t += rng.randint(50, 400) * US
        pico.set(pin, None, at=t)
        t += rng.randint(50, 400) * US
    pico.set(pin, 0, at=t)
    t = at + hold_ms * MS
    for _ in range(BOUNCES):
        pico.set(pin, None, at=t)
        t += rng.randint(50, 400) * US
        pico.set(pin, 0, at=t)
        t += rng.randint(50, 400) * US
    pico.set(pin, None, at=t)
    return at


class Table:
    """One paused rig with the installed app and the desktop attached on `channel`."""

    def __init__(self, pico, seed, channel=None):
        self.pico = pico
        self.rng = random.Random(seed)
        self.replies = []  # (request type, ms)
        self.presses = []  # (player, first edge ns)
        self.ready_press = []  # per press: True in a ready check, False in a round
        self.since = []  # per press: when its round (re)started running (None: a ready press)
        self.running_ns = None  # when the board last reported the round running
        self.again = 0  # presses made again after the reset mid-round (the board lost them)
        self.rounds = []  # CPU busy share per round, its boot (if any) left out
        self.rounds_with_boot = []  # the same with a boot inside the round counted in
        self.boots = {}  # which boot -> ms
        self.spans = []  # (request type, written ns, answered ns)
        self.pushes = 0  # statuses the board pushed (StatusFeed)
        self.client, self.t = _client(pico, channel, self.replies, self.spans)

    def boot(self, which):
        """The time from this boot's power-on to the hello reply (the hello sent at power-on),
        kept in self.boots; returns the boot's (active cycles, cycles)."""
        t0 = self.pico.now()
        s0 = self.pico.stats()
        self.client.timeout = BOOT_WAIT_S
        try:
            self.client.hello()
        finally:
            self.client.timeout = REPLY_WAIT_S
        s1 = self.pico.stats()
        self.boots[which] = (self.t.last_in_ns - t0) / MS
        self.replies[-1] = ("hello at boot", self.replies[-1][1])  # timed as the boot
        return s1["activeCycles"] - s0["activeCycles"], s1["cycles"] - s0["cycles"]

    def poll_until(self, phases, max_polls=4000):
        """play's loop (StatusFeed, as round_screen.show_round takes the status: pushed, or asked
        again every 2 s; 50 ms a loop at most) until the phase is one of `phases`."""
        from presstime.board.link import StatusFeed

        feed = StatusFeed(self.client, POLL_IDLE_MS / 1000)
        st = {}
        for _ in range(max_polls):
            n = feed.pushes
            st = feed.next()
            self.pushes += feed.pushes - n
            if st.get("phase") in phases:
                if st.get("phase") == "running":  # its go, as the board's status tells it
                    self.running_ns = self.t.last_in_ns - st["elapsed_ms"] * MS
                return st
        raise RuntimeError("the board never reached %s (last: %s)" % (phases, st.get("phase")))

    def schedule(self, players, start_ns, gap_ms=(120, 400), pair=True, ready=False):
        """Presses for `players` from `start_ns`, seeded gaps; with `pair`, the second of them
        5-30 ms after the first (into its journal append)."""
        t = start_ns
        for k, p in enumerate(players):
            if k == 1 and pair:
                t += self.rng.randint(5, 30) * MS
            elif k:
                t += self.rng.randint(*gap_ms) * MS
            at = bouncy_press(self.pico, self.rng, p, t, self.rng.randint(40, 110))
            self.presses.append((p, at))
            self.ready_press.append(ready)
            self.since.append(None if ready else self.running_ns)
        return t

    def play_round(self, reset_after=None):
        """Ready check, countdown, round, summary, as a table plays it; with `reset_after` a
        power reset that many presses into the round, the boot timed, the round resumed."""
        s0 = self.pico.stats()
        boot = (0, 0)
        order = list(range(PLAYERS))
        self.rng.shuffle(order)
        self.schedule(order, self.pico.now() + 300 * MS, pair=False, ready=True)  # -> countdown
        self.poll_until(("running",))
        self.rng.shuffle(order)
        first = order if reset_after is None else order[:reset_after]
        last = self.schedule(first, self.pico.now() + self.rng.randint(100, 600) * MS)
        if reset_after is not None:
            self.pico.run(last - self.pico.now() + 200 * MS)
            self.pico.reset()
            boot = self.boot("reset mid-round")
            st = self.client.status()
            if st.get("phase") == "paused":  # the Pico: the round resumes where it was
                self.client.resume()
                self.running_ns = self.t.last_in_ns
            elif st.get("phase") == "ready":  # the MacroPad kept the round's events in RAM
                self.schedule(order, self.pico.now() + 300 * MS, pair=False, ready=True)
                self.again += len(order)
                st = self.poll_until(("running",))
            # whoever the board has no press for presses (again), as players at a table would
            again = [p for p in order if st["players"][p].get("print_us") is None]
            self.again += len(again) - len(order[reset_after:])
            self.schedule(again, self.pico.now() + 300 * MS)
        self.poll_until(("summary", "over"))
        s1 = self.pico.stats()
        active = s1["activeCycles"] - s0["activeCycles"]
        cycles = s1["cycles"] - s0["cycles"]
        # the boot is the board's alone, the desktop not yet attached, and rp2_boot_to_ready_ms
        # is its figure: the round's share is of the time the desktop is attached
        self.rounds.append((active - boot[0]) / (cycles - boot[1]))
        self.rounds_with_boot.append(active / cycles)
        self.client.push_standings(
            {"totals": [10 * p for p in range(PLAYERS)], "out": [], "winner": None}
        )
        self.client.next_round()

    def play_game(self, rounds=3, reset_in_round=None):
        self.client.configure(
            {
                "players": ["P%d" % (i + 1) for i in range(PLAYERS)],
                "mode": "standard",
                "duration_ms": 120000,
            }
        )
        for r in range(rounds):
            self.play_round(reset_after=3 if r == reset_in_round else None)


def light_latencies(frames, presses, player_pixels, since=None):
    """ms from each press to the first frame where its player's pixel leaves the values of the
    2 s before, or of the time since `since[i]` when that is shorter: a round press's since its
    round went running, not the ready check's and countdown's steady colour, which is the very
    colour of a press's first flash (None when it never does: a press the app had no light
    for). Frames too short to reach the player pixels are not the app's (CircuitPython shows its
    status on the MacroPad's first pixel while it boots)."""
    frames = [(t, f) for t, f in frames if len(f) > max(player_pixels)]
    out = []
    for i, (p, at) in enumerate(presses):
        px = player_pixels[p]
        lo = at - 2000 * MS
        if since is not None and since[i] is not None:
            lo = max(lo, since[i])
        before = {f[px] for t, f in frames if lo <= t < at}
        if frames and not before:
            earlier = [f for t, f in frames if t < at]
            before = {earlier[-1][px]} if earlier else set()
        after = [t for t, f in frames if t >= at and f[px] not in before]
        out.append((after[0] - at) / MS if after else None)
    return out


def table_run(rig, image, games=3, seed=23, board="pico"):
    """Games on one board (BOARDS: "pico" or "macropad", `image` its installed app) under the
    table's load: the first game ends with a power reset (the boot after a played game); the
    second (the only one if games=1) has a reset in its second round. Returns the figures' raw
    material."""
    pico, channel, player_pixels = BOARDS[board](rig, image)
    with pico:
        table = Table(pico, seed, channel)
        table.boot("first")
        erases0 = pico.stats()["flash"]
        for g in range(games):
            table.play_game(reset_in_round=1 if g == min(1, games - 1) else None)
            if g == 0:
                pico.reset()
                table.boot("after a played game")
        frames = pico.frames()
        erases1 = pico.stats()["flash"]
    return {
        "replies": table.replies,
        "pushes": table.pushes,
        "spans": table.spans,
        "presses": table.presses,
        "rounds": table.rounds,
        "rounds_with_boot": table.rounds_with_boot,
        "ready_press": table.ready_press,
        "again": table.again,
        "boots": table.boots,
        "lights": light_latencies(frames, table.presses, player_pixels, table.since),
        "flash": {k: erases1[k] - erases0.get(k, 0) for k in erases1},
    }
