"""The debouncer keeps presses that went by while the loop was not looking (a flash write
stalls the CPU; the PIO capture still records every edge with its level): fed late, all at
once, each press comes out with the time of its own first edge, down then up."""

from hypothesis import given, strategies as st

from presstime.device.ports.debounce import Debouncer

SETTLE = Debouncer.settle_us


@given(
    st.lists(
        st.tuples(st.integers(SETTLE, 200_000), st.integers(SETTLE, 200_000)),
        min_size=1,
        max_size=6,
    ),
    st.integers(0, 3),
)
def test_whole_presses_between_two_polls_all_come_out(gaps, bounces):
    d = Debouncer(1)
    t = 1000
    want = []
    for before, hold in gaps:
        t += before
        want.append((t, 0, True))
        for k in range(2 * bounces):  # chatter inside the burst (down, up, ...), < settle
            d.edge(0, t + 100 * k, 1 if k % 2 == 0 else 0)
        d.edge(0, t + 200 * bounces, 1)  # and down for good
        t += hold + 200 * bounces  # held settle_us or more after the last bounce
        want.append((t, 0, False))
        d.edge(0, t, 0)
    got = d.poll(t + SETTLE, bytearray(1))
    assert got == want
    assert d.busy == 0


def test_without_levels_a_press_inside_one_burst_is_a_glitch():
    """The IRQ path gives no levels: a down and an up with no poll between stay one burst."""
    d = Debouncer(1)
    d.edge(0, 1000)
    d.edge(0, 40_000)
    assert d.poll(60_000, bytearray(1)) == []
