"""Hostile status replies (issue 22, item 8): wrong types, NaN/Infinity, huge numbers, missing keys
and nested junk go through the very code `watch` and `play` use (link.BoardClient.status, the
mirror's lines, the table view, `watch --json`). Each is either a status every view shows, or a
one-line refusal naming the field: never a traceback, and `watch --json` prints only JSON."""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from presstime import cli
from presstime.board import ports, share, status_check
from presstime.board.link import BoardClient, LinkError, Transport
from presstime.core import wire
from presstime.core.table import Table
from presstime.tableside import display, status_text


def _statuses():
    out = []
    t = Table()
    out.append(t.status(0))  # nothing set up
    t.configure({"players": ["Ada", "Ben", "Cy"], "mode": "standard", "duration_ms": 60000}, 0)
    out.append(t.status(0))
    t.start(0)
    t.tick(3000)
    t.press(1, 4000000)
    out.append(t.status(20000))
    t.tick(64000)
    t.press(0, 65000000)
    t.tick(70000)
    over = dict(
        t.status(70000), phase="over", standings={"totals": [40, 38, 12], "out": [2], "winner": 0}
    )
    out.append(over)
    for game in ("heat", "mini-fits", "myth-fits"):
        g = Table()
        g.configure({"game": game, "players": ["Ada", "Ben", "Cy"]}, 0)
        g.start(0)
        g.tick(100)
        out.append(g.status(500))
    return [json.loads(json.dumps(s)) for s in out]  # as the wire carries them


GOOD = _statuses()
JUNK = st.recursive(
    st.sampled_from(
        [
            None,
            True,
            False,
            "x",
            "",
            "\x1b[2J",
            1.5,
            -0.0,
            math.nan,
            math.inf,
            -math.inf,
            10**30,
            -(10**30),
            2**63,
            -1,
            7,
            0,
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "name", "0"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@st.composite
def hostile(draw):
    s = json.loads(json.dumps(draw(st.sampled_from(GOOD))))
    for _ in range(draw(st.integers(1, 3))):
        where = s
        players = s.get("players")
        if isinstance(players, list) and players and draw(st.booleans()):
            where = players[draw(st.integers(0, len(players) - 1))]
            if not isinstance(where, dict):
                where = s
        key = draw(st.sampled_from(sorted(where) + ["standings", "extra"]))
        if draw(st.integers(0, 4)) == 0:
            where.pop(key, None)
        else:
            where[key] = draw(JUNK)
    if draw(st.integers(0, 20)) == 0:
        s = draw(JUNK)
    return s


def _views(s):
    view = display.View("watch", keys="Ctrl-C stops watching", port="board on /dev/x")
    status_text.one_line(s)
    status_text.lines(s)
    status_text.headline(s)
    status_text.why_no_undo(s)
    status_text.finish_order(s)
    display.render_text(s, view, 80, 24)
    display.render_text(s, view, 40, 12)
    json.dumps(s, allow_nan=False)


@pytest.mark.parametrize("s", GOOD, ids=lambda s: "%s-%s" % (s.get("game"), s["phase"]))
def test_what_a_board_of_this_firmware_sends_passes(s):
    assert status_check.problem(s) is None
    _views(s)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(hostile())
def test_a_hostile_status_is_shown_or_refused_naming_the_field(s):
    bad = status_check.problem(s)
    if bad is None:
        _views(s)  # whatever passes, every view shows, and it is JSON
    else:
        assert "\n" not in bad and len(bad) < 200
        top = bad.split(":")[0].split("[")[0].split(".")[0]
        assert top == "not an object" or top in s or bad.endswith(": missing"), (
            bad
        )  # a field of the reply


class HostileBoard(Transport):
    """Answers a hello as a board does and every status with `payload` (raw JSON text)."""

    def __init__(self, payload):
        Transport.__init__(self)
        self.payload = payload
        self.decoder = wire.Decoder()
        self.out = b""

    def _write(self, data):
        for body in self.decoder.feed(data):
            mtype, rid, _, _ = wire.parse(body)
            if mtype == wire.HELLO:
                self.out += wire.encode(
                    wire.HELLO, rid, {"p": wire.PROTOCOL, "fw": "x", "v": 1}, reply=True
                )
            else:
                self.out += wire.encode(mtype, rid, self.payload, reply=True)

    def _read(self, timeout):
        out, self.out = self.out, b""
        return out

    def close(self):
        pass


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(hostile())
def test_watch_json_prints_only_json_and_never_a_traceback(monkeypatch, capsys, s):
    payload = json.dumps(s, allow_nan=True).encode()  # NaN and Infinity as a sender writes them
    monkeypatch.setattr(ports, "pick_port", lambda port=None, **kw: "/dev/hostile")
    monkeypatch.setattr(
        share,
        "connect",
        lambda port, **kw: BoardClient(HostileBoard(payload), timeout=0.01, retries=0),
    )
    for argv in (["watch", "--once", "--json"], ["watch", "--once"]):
        code = cli.main(argv)
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "Traceback" not in out
        if code == 0:
            assert status_check.problem(s) is None
            if "--json" in argv:
                assert json.loads(out, parse_constant=lambda c: pytest.fail("not JSON: " + c)) == s
        else:
            # refused naming the field, or (a reply that is no JSON object at all) by the wire
            assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, (code, out, err)
            assert "status reply is not usable" in err or "reply to status cannot be read" in err, (
                err
            )


def test_the_cases_that_ended_in_a_traceback():
    good = GOOD[2]
    for field, value in [
        ("elapsed_ms", "12"),
        ("remaining_ms", math.nan),
        ("duration_ms", math.inf),
        ("round", [1]),
        ("winner", 9),
        ("pick_order", [0, 7]),
        ("players", {"a": 1}),
    ]:
        s = dict(good, **{field: value})
        with pytest.raises(LinkError, match=r"status reply is not usable \(%s" % field):
            BoardClient(HostileBoard(json.dumps(s).encode()), timeout=0.01, retries=0).status()
    p = dict(good["players"][0], print_ms="soon")
    s = dict(good, players=[p] + good["players"][1:])
    with pytest.raises(
        LinkError, match=r"players\[0\]\.print_ms: null or a whole number 0 or more"
    ):
        BoardClient(HostileBoard(json.dumps(s).encode()), timeout=0.01, retries=0).status()
