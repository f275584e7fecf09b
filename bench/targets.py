"""How a benchmark module states its targets, beside its KEYS:

    TARGETS = {"rp2_press_light_ms_max": at_most(50), "rp2_records_lost": exactly(0)}

A target is a (low, high) pair, either end None when open; `python bench/run.py --check`
names every figure outside its target (or not measured) and exits 1.
"""


def at_most(high):
    return (None, high)


def at_least(low):
    return (low, None)


def exactly(value):
    return (value, value)


def within(value, share):
    """value ± share of it (0.1: ±10 %)."""
    return (value * (1 - share), value * (1 + share))


def describe(target):
    low, high = target
    if low == high:
        return "= %s" % _num(low)
    if low is None:
        return "≤ %s" % _num(high)
    if high is None:
        return "≥ %s" % _num(low)
    return "%s–%s" % (_num(low), _num(high))


def meets(value, target):
    low, high = target
    return value is not None and (low is None or value >= low) and (high is None or value <= high)


def misses(figures, targets):
    """One line per figure that misses its target: 'key: value (target ≤ 50)'."""
    out = []
    for key in sorted(targets):
        value = figures.get(key)
        if not meets(value, targets[key]):
            shown = "not measured" if value is None else value
            out.append("%s: %s (target %s)" % (key, shown, describe(targets[key])))
    return out


def _num(x):
    return ("%.1f" % x).rstrip("0").rstrip(".") if isinstance(x, float) else str(x)
