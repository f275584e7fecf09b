# Fake `digitalio`: `held` lists pin names that read as pressed (low) at boot.
held = []


class Direction:
    INPUT = 0
    OUTPUT = 1


class Pull:
    UP = 1
    DOWN = 2


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = pin not in held

    def switch_to_input(self, pull=None):
        self.value = self.pin not in held

    def deinit(self):
        pass
