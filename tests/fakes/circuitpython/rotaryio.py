# Fake `rotaryio`: the test sets `position` (rotaryio's count, one a detent).
made = []


class IncrementalEncoder:
    def __init__(self, pin_a, pin_b, divisor=4):
        self.pins = (pin_a, pin_b)
        self.position = 0
        self.deinited = False
        made.append(self)

    def deinit(self):
        self.deinited = True
