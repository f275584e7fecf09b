"""presstime's performance figures.

    python bench/run.py            one `key: value` line per figure
    python bench/run.py --json     one JSON object
    python bench/run.py core link  only the bench/bench_<area>.py modules named
    python bench/run.py --check [AREA…]   also names every figure that misses its target; exit 1

Every bench/bench_<area>.py module has `KEYS` (the figures it gives), `measure() -> dict` and,
where a figure has a target, `TARGETS` beside KEYS (bench/targets.py: at_most, at_least, ...).
docs/benchmarks.md records the figures with the command that produced them. Exit status: 0, or 1
when a figure could not be measured (or, with --check, misses its target); 2 for an unknown area.
"""

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def modules(only=()):
    names = sorted(
        n[6:-3] for n in os.listdir(HERE) if n.startswith("bench_") and n.endswith(".py")
    )
    return [n for n in names if not only or n in only]


def main(argv):
    as_json = "--json" in argv
    check = "--check" in argv
    unknown_flags = [a for a in argv if a.startswith("-") and a not in ("--json", "--check")]
    only = [a for a in argv if not a.startswith("-")]
    unknown = [a for a in only if a not in modules()]
    if unknown_flags or unknown:
        print(
            "bench/run.py: unknown %s: %s (areas: %s)"
            % (
                "option" if unknown_flags else "area",
                ", ".join(unknown_flags or unknown),
                " ".join(modules()),
            ),
            file=sys.stderr,
        )
        return 2
    sys.path.insert(0, HERE)
    from targets import misses

    figures, targets = {}, {}
    for name in modules(only):
        module = importlib.import_module("bench_" + name)
        targets.update(getattr(module, "TARGETS", {}))
        try:
            got = module.measure()
        except Exception as e:  # one broken benchmark must not hide the others
            got = {key: None for key in module.KEYS}
            print("bench_%s failed: %s: %s" % (name, type(e).__name__, e), file=sys.stderr)
        figures.update(got)
        if not as_json:
            for key in module.KEYS:
                print("%s: %s" % (key, got.get(key)), flush=True)
    if as_json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    status = 0 if all(v is not None for v in figures.values()) else 1
    if check:
        missed = misses(figures, targets)
        for line in missed:
            print("missed target: %s" % line, file=sys.stderr)
        if missed:
            status = 1
        else:
            print("every target met (%d figures with targets)" % len(targets), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
