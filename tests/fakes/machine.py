# SPDX-License-Identifier: MIT
"""A fake `machine` module: Pins a test can press (firing the IRQ handler) and a PWM that
records."""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    by_id = {}  # gpio -> the last Pin made for it

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.level = value
        self.handler = None
        self.trigger = 0
        self.hard = False
        Pin.by_id[id] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0

    def irq(self, handler=None, trigger=12, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard

    def set(self, level):
        """Change the level as the hardware would, firing the IRQ handler on an edge."""
        if level == self.level:
            return
        self.level = level
        if self.handler is not None:
            self.handler(self)


class PWM:
    by_id = {}  # gpio -> the last PWM made on it

    def __init__(self, pin):
        self.pin = pin
        PWM.by_id[pin.id] = self
        self.f = 0
        self.duty = 0
        self.log = []

    def freq(self, f=None):
        if f is None:
            return self.f
        self.f = f

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        if len(self.log) < 1000:
            self.log.append((self.f, d))

    def value(self):
        """The level a test reads: 1 while the duty is not 0."""
        return 1 if self.duty else 0


def idle():
    pass


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x2f\x4a\x21"


class I2C:
    """A bus: `devices` answer (any other address raises OSError, as a NACK does); every write
    is kept as (address, bytes)."""

    devices = ()  # the addresses that answer (a test sets it)
    by_id = {}  # controller -> the last I2C made on it

    def __init__(self, id, sda=None, scl=None, freq=400000, timeout=50000):
        self.id = id
        self.sda = sda
        self.scl = scl
        self.freq = freq
        self.timeout = timeout
        self.writes = []
        I2C.by_id[id] = self

    def writeto(self, addr, buf, stop=True):
        if addr not in I2C.devices:
            raise OSError(110)
        self.writes.append((addr, bytes(buf)))
        return len(buf)
