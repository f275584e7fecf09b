"""The desktop's serial link to a paused rig, in emulated time.

    client = BoardClient(RigTransport(emu))      # host/presstime/board/link.py's client, unchanged
    client.status()                              # runs the chip until the reply is in

`RigTransport` is a presstime.board.link.Transport whose bytes go through the control channel's
`write`/`read` (so they land at exact emulated instants, the rig's deterministic mode) and whose
clock is the rig's timeline: the client's timeouts and retries then count emulated seconds, as
they would count real ones against a board running at full speed. Waiting for a reply runs the
chip in slices of `slice_ns` (the resolution of the times measured through it). The bytes go
over the console (the Pico's link) unless `channel` says otherwise: the MacroPad's link is
usb_cdc.data, `emu.data_link` (rig/datalink.mjs), the same write/read in emulated time.
"""

from presstime.board.link import Transport

from .rp2emu import US

SLICE_NS = 200 * US


class RigTransport(Transport):
    def __init__(self, emu, slice_ns=SLICE_NS, channel=None):
        Transport.__init__(self)
        self.emu = emu
        self.channel = channel if channel is not None else emu  # write(bytes), cmd("read")
        self.slice_ns = slice_ns
        self.last_in_ns = None  # timeline instant when the last bytes were read
        self.last_out_ns = None  # timeline instant of the last write

    def clock(self):
        """Seconds on the rig's timeline (the client's monotonic clock)."""
        return self.emu.now() / 1e9

    def _write(self, data):
        self.last_out_ns = self.channel.write(bytes(data))["now"]

    def _read(self, timeout):
        emu = self.emu
        end = emu.now() + int(timeout * 1e9)
        while True:
            r = self.channel.cmd("read")
            if r["data"]:
                self.last_in_ns = r["now"]
                return r["data"].encode("latin-1")
            left = end - r["now"]
            # the timeline's instants are float ns: a wait ends when under 1 µs is left, or a
            # float remainder (end - now = 2e-6 ns) asks the rig for run(0) forever
            if left < US:
                return b""
            emu.run(min(self.slice_ns, left))
