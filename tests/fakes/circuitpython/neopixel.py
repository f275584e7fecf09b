# Fake adafruit `neopixel` (CircuitPython library API: auto_write, show()).
made = []


class NeoPixel:
    def __init__(self, pin, n, brightness=1.0, auto_write=True):
        self.pin = pin
        self.buf = [(0, 0, 0)] * n
        self.auto_write = auto_write
        self.shows = 0
        made.append(self)

    def __setitem__(self, i, c):
        self.buf[i] = c

    def fill(self, c):
        self.buf = [c] * len(self.buf)

    def show(self):
        self.shows += 1
