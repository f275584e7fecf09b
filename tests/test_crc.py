"""core/crc.py: the table-driven CRC-16/CCITT-FALSE equals the bit-by-bit definition. The table
is made from its 8 single-bit entries (a CRC is linear), so this is the law that keeps it right."""

from hypothesis import given, strategies as st

from presstime.core import crc


def _bitwise(data, c=0xFFFF):
    for b in data:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            c &= 0xFFFF
    return c


def test_the_standard_check_value():
    assert crc.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_the_table_gives_the_bitwise_crc(data, start):
    assert crc.crc16(data, start) == _bitwise(data, start)
