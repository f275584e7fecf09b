# Fake `usb_cdc`: `data` is a Serial the test can feed, after enable(data=True).
enabled = {}


class Serial:
    def __init__(self):
        self.rx = b""
        self.tx = b""

    @property
    def in_waiting(self):
        return len(self.rx)

    def read(self, n):
        d, self.rx = self.rx[:n], self.rx[n:]
        return d

    def write(self, b):
        self.tx += bytes(b)
        return len(b)


data = Serial()
console = None


def enable(console=True, data=False):
    enabled["console"] = console
    enabled["data"] = data
