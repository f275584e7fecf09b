# Fake `supervisor`: ticks_ms wraps at 2**29 like CircuitPython's; the test sets `now`.
now = 0


def ticks_ms():
    return now & ((1 << 29) - 1)
