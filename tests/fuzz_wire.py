"""Coverage-guided fuzzing of the frame decoder and the board's request handler (atheris).

    python tests/fuzz_wire.py -runs=200000        (pip install atheris)

Bytes are split into chunks (the first byte sets the chunk size), fed to wire.Decoder; every
body is parsed (only wire.WireError may escape) and answered by a device Link over a small fake
app (nothing may escape at all: the board never crashes on what it reads).
"""

import sys

import atheris

with atheris.instrument_imports():
    from presstime.core import wire
    from presstime.device.link import Link, ReplReturn


class _App:
    journal = None

    def status(self):
        return {"version": 3, "phase": "ready"}

    def configure(self, cfg):
        raise ValueError("no")

    def command(self, name, t_ms=None):
        return name == "start"

    def set_standings(self, s):
        pass


class _Port:
    board = "fuzz"
    uid = "fuzz"

    def __init__(self):
        self.out = []

    def read(self):
        return b""

    def write(self, data):
        self.out.append(data)

    def now_ms(self):
        return 0


def one_input(data):
    if not data:
        return
    step = data[0] % 64 + 1
    dec = wire.Decoder()
    link = Link(_App(), _Port())
    for i in range(1, len(data), step):
        for body in dec.feed(data[i : i + step]):
            try:
                wire.parse(body)
            except wire.WireError:
                pass
            try:
                link.handle(body)
            except ReplReturn:
                pass
            if link.quit:
                link.quit = False
    # the same bytes as a body that passed the CRC (a buggy or newer sender): parse and answer
    body = bytes(data[1:])
    try:
        wire.parse(body)
    except wire.WireError:
        pass
    try:
        link.handle(body)
    except ReplReturn:
        pass


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
