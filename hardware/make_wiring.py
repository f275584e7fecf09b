"""Write hardware/wiring.md from the firmware's board pin maps (firmware/presstime/device/boards/).

    python hardware/make_wiring.py            rewrite hardware/wiring.md
    python hardware/make_wiring.py --check    exit 1 if wiring.md differs from the pin maps

The pin maps are the one source: the firmware reads them, this script quotes them, and
tests/test_hardware_wiring.py fails when the committed wiring.md is stale.
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BOARDS = os.path.join(ROOT, "firmware", "presstime", "device", "boards")
OUT = os.path.join(HERE, "wiring.md")


def load_board(name):
    """A board module loaded from its file (no package import: plain data)."""
    path = os.path.join(BOARDS, name + ".py")
    spec = importlib.util.spec_from_file_location("board_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return lines


def pico_rows(b):
    gp = lambda n: "GP%d" % n  # noqa: E731
    rows = []
    for i, pin in enumerate(b.PLAYER_PINS):
        rows.append(
            (
                "Player %d button" % (i + 1),
                gp(pin),
                b.PHYSICAL[pin],
                "button switch: one contact here, the other to GND (internal pull-up)",
            )
        )
    for i, pin in enumerate(b.PLAYER_LED_PINS):
        rows.append(
            (
                "Player %d button LED" % (i + 1),
                gp(pin),
                b.PHYSICAL[pin],
                "1 k\u03a9 to the NPN base; collector to LED \u2212, LED + to VBUS; emitter to GND",
            )
        )
    rows.append(
        (
            "Control button",
            gp(b.CONTROL_PIN),
            b.PHYSICAL[b.CONTROL_PIN],
            "button switch: one contact here, the other to GND (internal pull-up)",
        )
    )
    rows.append(
        (
            "Piezo",
            gp(b.PIEZO_PIN),
            b.PHYSICAL[b.PIEZO_PIN],
            "100 \u03a9 to piezo +; piezo \u2212 to GND (PWM tone)",
        )
    )
    rows.append(
        (
            "NeoPixel ring DIN (%d pixels)" % b.PIXEL_COUNT,
            gp(b.PIXEL_PIN),
            b.PHYSICAL[b.PIXEL_PIN],
            "330 \u03a9 to the ring's DIN; ring 5V to VBUS, ring GND to GND",
        )
    )
    return rows


def pico_screen_rows(b):
    """The optional screen, knob and back key (scoring on the board)."""
    gp = lambda n: "GP%d" % n  # noqa: E731
    both = "one contact here, the other to GND (internal pull-up)"
    return [
        (
            "OLED SDA (SSD1306, I2C%d, 0x%02X)" % (b.OLED_I2C, b.OLED_ADDR),
            gp(b.OLED_SDA_PIN),
            b.PHYSICAL[b.OLED_SDA_PIN],
            "the module's SDA; its VCC to 3V3(OUT), GND to GND",
        ),
        ("OLED SCL", gp(b.OLED_SCL_PIN), b.PHYSICAL[b.OLED_SCL_PIN], "the module's SCL"),
        ("Knob A (CLK)", gp(b.ENCODER_A_PIN), b.PHYSICAL[b.ENCODER_A_PIN], "encoder A; C to GND"),
        ("Knob B (DT)", gp(b.ENCODER_B_PIN), b.PHYSICAL[b.ENCODER_B_PIN], "encoder B; C to GND"),
        (
            "Knob press (SW)",
            gp(b.ENCODER_SWITCH_PIN),
            b.PHYSICAL[b.ENCODER_SWITCH_PIN],
            "the encoder's switch: " + both,
        ),
        ("Back key", gp(b.BACK_PIN), b.PHYSICAL[b.BACK_PIN], "a push button: " + both),
    ]


def macropad_rows(b):
    def where(k):
        return "row %d, column %d" % (k // 3 + 1, k % 3 + 1)

    rows = []
    for i, k in enumerate(b.PLAYER_KEYS):
        rows.append(
            (
                "Player %d button and light" % (i + 1),
                "board.%s" % b.KEY_PINS[k],
                where(k),
                "the key; its pixel (%d) is the player light" % k,
            )
        )
    rows.append(
        (
            "Control button",
            "board.%s" % b.CONTROL_PIN,
            "rotary encoder",
            "push the knob: start / next / resume; hold: pause, abort; double: undo",
        )
    )
    bar = ", ".join(b.KEY_PINS[k] for k in b.COUNTDOWN_KEYS)
    rows.append(
        (
            "Countdown bar",
            "board.%s (pixels %s)" % (b.PIXEL_PIN, ", ".join(str(k) for k in b.COUNTDOWN_KEYS)),
            "rows 1-2",
            "the pixels under %s" % bar,
        )
    )
    k = b.EDIT_MODE_KEY
    rows.append(
        (
            "Edit mode (hold at reset)",
            "board.%s" % b.KEY_PINS[k],
            where(k),
            "held at power-up: the CIRCUITPY drive stays writable for the computer (boot.py)",
        )
    )
    rows.append(
        (
            "Speaker",
            "board.%s, board.%s" % (b.SPEAKER_PIN, b.SPEAKER_ENABLE_PIN),
            "built in",
            "PWM tone; the enable pin switches the amplifier on",
        )
    )
    return rows


def render():
    pico = load_board("pico")
    pad = load_board("macropad")
    lines = [
        "# Wiring",
        "",
        "<!-- GENERATED by hardware/make_wiring.py from firmware/presstime/device/boards/*.py:",
        "     do not edit by hand; change the pin map and run `python hardware/make_wiring.py`. "
        "-->",
        "",
        "## %s" % pico.TITLE,
        "",
        "Header pins count 1-40 counter-clockwise from the USB end (pin 1 = GP0, top left with USB "
        "up).",
        "",
    ]
    lines += _table(("what", "GPIO", "Pico pin", "other end"), pico_rows(pico))
    lines += ["", "Power and ground:", ""]
    lines += _table(("rail", "Pico pin"), pico.POWER)
    lines += [
        "",
        "Buttons read %s; brightness cap %d/255 per channel (see README: power budget)."
        % ("low when pressed" if pico.BUTTON_ACTIVE_LOW else "high when pressed", pico.MAX_CHANNEL),
        "",
        "### Optional: the screen and knob (scoring on the board)",
        "",
        "Looked for at boot: when an SSD1306 answers at 0x%02X, the board scores on its own "
        "screen (%d x %d characters) and knob; without it the pins below stay unused."
        % (pico.OLED_ADDR, pico.SCREEN_COLS, pico.SCREEN_LINES),
        "",
    ]
    lines += _table(("what", "GPIO", "Pico pin", "other end"), pico_screen_rows(pico))
    lines += [
        "",
        "## %s" % pad.TITLE,
        "",
        "Nothing to wire: the keys, pixels, encoder and speaker are on the board.",
        "",
    ]
    lines += _table(("what", "CircuitPython name", "where", "use"), macropad_rows(pad))
    lines += [
        "",
        "Key scan every %g ms (keypad.Keys); brightness cap %d/255 per channel."
        % (pad.SCAN_INTERVAL_S * 1000, pad.MAX_CHANNEL),
        "",
    ]
    return "\n".join(lines)


def main(argv):
    text = render()
    if "--check" in argv:
        try:
            with open(OUT, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        if not same:
            print(
                "hardware/wiring.md is stale: run python hardware/make_wiring.py", file=sys.stderr
            )
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s" % os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
