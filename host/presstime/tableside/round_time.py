"""Round times typed by a user: `--duration` of `play` and `sim`, `--turn-limit` of `play`."""

from __future__ import annotations

from presstime.errors import BadInput

PRESETS = {"frantic": 180000, "standard": 240000, "relaxed": 300000}
HELP = (
    "M:SS (e.g. 3:00), seconds (240), minutes (4m), "
    "or frantic (3:00) / standard (4:00) / relaxed (5:00)"
)


def parse_ms(text: str) -> int | None:
    """Milliseconds of a round time, or None when `text` is not one."""
    t = str(text).strip().lower()
    if t in PRESETS:
        return PRESETS[t]
    try:
        if ":" in t:
            m, s = t.split(":", 1)
            if len(s) != 2 or not s.isdigit() or int(s) >= 60:
                return None
            return (int(m) * 60 + int(s)) * 1000
        if t.endswith("m"):
            return int(t[:-1]) * 60000
        return int(float(t.rstrip("s")) * 1000)
    except ValueError:
        return None


def round_time_ms(
    text: str, option: str = "--duration", lo_ms: int = 10000, hi_ms: int = 3600000
) -> int:
    """parse_ms, bounded (default 0:10 to 60:00); BadInput naming the option otherwise."""
    ms = parse_ms(text)
    if ms is None:
        raise BadInput("%s %r: expected %s" % (option, text, HELP))
    if not lo_ms <= ms <= hi_ms:
        raise BadInput(
            "%s %r: between %d:%02d and %d:%02d"
            % (option, text, lo_ms // 60000, lo_ms // 1000 % 60, hi_ms // 60000, hi_ms // 1000 % 60)
        )
    return ms


WARN_HELP = "up to three times left, in seconds, e.g. 60,30,10 (default), 120,30 or none"


def warnings_ms(text: str, option: str = "--warn") -> list[int]:
    """The warning times typed as `60,30,10` (seconds left), longest first, in ms; `none`: no
    warning. BadInput naming the option and what is wrong."""
    t = str(text).strip().lower()
    if t in ("none", "off", "0"):
        return []
    parts = [p.strip() for p in t.split(",")]
    if not all(p.isdigit() for p in parts):
        raise BadInput("%s %r: expected %s" % (option, text, WARN_HELP))
    secs = sorted(set(int(p) for p in parts), reverse=True)
    if len(secs) > 3 or len(secs) != len(parts):
        raise BadInput("%s %r: at most three times, each once (%s)" % (option, text, WARN_HELP))
    if not all(1 <= s <= 3600 for s in secs):
        raise BadInput("%s %r: each time between 1 and 3600 seconds" % (option, text))
    return [s * 1000 for s in secs]
