"""Round times typed on the command line: one parser for play and sim."""

import pytest

from presstime.errors import BadInput
from presstime.tableside.round_time import parse_ms, round_time_ms


@pytest.mark.parametrize(
    "text, ms",
    [
        ("3:00", 180000),
        ("4:00", 240000),
        ("frantic", 180000),
        ("Relaxed", 300000),
        ("240", 240000),
        ("90s", 90000),
        ("4m", 240000),
        ("0:30", 30000),
        ("2.5", 2500),
    ],
)
def test_accepted(text, ms):
    assert parse_ms(text) == ms


@pytest.mark.parametrize("text", ["soon", "9:99", "4:5", "", "1:2:3", "m"])
def test_refused(text):
    assert parse_ms(text) is None
    with pytest.raises(BadInput) as e:
        round_time_ms(text)
    assert "--duration %r" % text in e.value.messages[0]


def test_bounds_name_the_option():
    with pytest.raises(BadInput) as e:
        round_time_ms("5", "--turn-limit", lo_ms=10000)
    assert e.value.messages == ["--turn-limit '5': between 0:10 and 60:00"]
    assert round_time_ms("61:00", hi_ms=4000000) == 3660000
