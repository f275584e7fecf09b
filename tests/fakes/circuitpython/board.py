# Fake `board` for the Macropad RP2040: pins are their names.
KEY1, KEY2, KEY3, KEY4, KEY5, KEY6 = "KEY1", "KEY2", "KEY3", "KEY4", "KEY5", "KEY6"
KEY7, KEY8, KEY9, KEY10, KEY11, KEY12 = "KEY7", "KEY8", "KEY9", "KEY10", "KEY11", "KEY12"
ENCODER_SWITCH = "ENCODER_SWITCH"
NEOPIXEL = "NEOPIXEL"
SPEAKER = "SPEAKER"
SPEAKER_ENABLE = "SPEAKER_ENABLE"
ROTA = "ROTA"
ROTB = "ROTB"


class _Display:
    root_group = None
    auto_refresh = True
    refreshes = 0

    def refresh(self, target_frames_per_second=60, minimum_frames_per_second=0):
        self.refreshes += 1
        return True


DISPLAY = _Display()
