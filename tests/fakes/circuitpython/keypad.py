# Fake `keypad`: Keys with an event queue the test fills (key_number, pressed, timestamp).
made = []


class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = 0


class EventQueue:
    def __init__(self):
        self.queue = []
        self.overflowed = False

    def get_into(self, event):
        if not self.queue:
            return False
        event.key_number, event.pressed, event.timestamp = self.queue.pop(0)
        return True


class Keys:
    def __init__(self, pins, value_when_pressed, pull=True, interval=0.02, max_events=64):
        self.pins = pins
        self.value_when_pressed = value_when_pressed
        self.interval = interval
        self.events = EventQueue()
        made.append(self)

    def deinit(self):
        pass
