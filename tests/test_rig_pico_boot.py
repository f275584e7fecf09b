"""The Pico build on the official MicroPython firmware in the emulated RP2040 (the rp2emu rig):
the app installed by `presstime install-firmware` boots and answers the desktop's hello."""

from presstime.board.link import BoardClient, SerialTransport
from rig.rp2emu import MS


def test_installed_app_boots_and_answers_hello(pico):
    # the app answers ~0.45 s of chip time after power-on; under load that is many wall
    # seconds, longer than the desktop gives a board that should already be up
    pico.wait_until(800 * MS)
    client = BoardClient(SerialTransport(pico.pty))
    try:
        hello = client.hello()
    finally:
        client.close()
    assert hello["board"] == "pico"
    assert hello["fw"]
