"""The Pico build on the official MicroPython firmware in the emulated RP2040 (the rp2emu rig):
the app installed by `presstime install-firmware` boots and answers the desktop's hello."""

from presstime.link import BoardClient, SerialTransport


def test_installed_app_boots_and_answers_hello(pico):
    client = BoardClient(SerialTransport(pico.pty))
    try:
        hello = client.hello()
    finally:
        client.close()
    assert hello["board"] == "pico"
    assert hello["fw"]
