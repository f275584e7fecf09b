"""Presses with the very same stamp (a same-instant tie: one PIO sample) leave the debouncer in
button order, whatever order their edges came in, on CPython and on MicroPython (whose list
sort is not stable): the order the simulator's FakePort delivers them in, so a tie's journal is
the same on the board and in the simulator (docs/table.md, "Ties")."""

from hypothesis import given, strategies as st

from mpy import needs_micropython, run_micropython
from presstime.device.ports.debounce import Debouncer

SETTLE = Debouncer.settle_us


def _feed(d, edges):
    for b, t in edges:
        d.edge(b, t, 1)
    return d.poll(max(t for _, t in edges) + SETTLE, bytearray([1] * d.count))


@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 3)),
        min_size=1,
        max_size=7,
        unique_by=lambda e: e[0],
    )
)
def test_equal_stamps_come_out_in_button_order(presses):
    """presses: (button, stamp in units of 16 µs), fed in the order given."""
    edges = [(b, 1000 + 16 * k) for b, k in presses]
    got = _feed(Debouncer(7), edges)
    assert got == sorted((t, b, True) for b, t in edges)


@needs_micropython
def test_equal_stamps_in_button_order_on_micropython():
    out = run_micropython("""
from presstime.device.ports.debounce import Debouncer
for edges in ([(3, 5000), (0, 5000)], [(5, 5000), (2, 5000), (4, 5000), (0, 5016)],
              [(0, 5000), (3, 5000), (1, 5000)]):
    d = Debouncer(6)
    for b, t in edges:
        d.edge(b, t, 1)
    print([b for t, b, down in d.poll(20000, bytearray([1] * 6))])
""").stdout.split()
    assert out == ["[0,", "3]", "[2,", "4,", "5,", "0]", "[0,", "1,", "3]"]
