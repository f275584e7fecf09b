# Fake `microcontroller`.
class _Cpu:
    uid = bytearray(b"\xde\xad\xbe\xef\x01\x02\x03\x04")


cpu = _Cpu()
