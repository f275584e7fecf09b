"""presstime's performance figures.

    python bench/run.py            one `key: value` line per figure
    python bench/run.py --json     one JSON object
    python bench/run.py core link  only the bench/bench_<area>.py modules named

Every bench/bench_<area>.py module has `KEYS` (the figures it gives) and `measure() -> dict`.
docs/benchmarks.md records the figures with the command that produced them.
"""

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def modules(only=()):
    names = sorted(n[6:-3] for n in os.listdir(HERE) if n.startswith("bench_") and n.endswith(".py"))
    return [n for n in names if not only or n in only]


def main(argv):
    as_json = "--json" in argv
    only = [a for a in argv if not a.startswith("-")]
    sys.path.insert(0, HERE)
    figures = {}
    for name in modules(only):
        module = importlib.import_module("bench_" + name)
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
    return 0 if all(v is not None for v in figures.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
