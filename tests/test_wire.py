"""The wire codec: framing, resynchronisation, pages, and a fuzz of the decoder."""

import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from mpy import needs_micropython, run_micropython
from presstime.core import wire


def test_cobs_round_trip_edges():
    for n in (0, 1, 253, 254, 255, 256, 508, 509, 1100):
        for data in (bytes(n), b"\x01" * n, os.urandom(n), b"\xff" * n):
            enc = wire.cobs_encode(data)
            assert b"\x00" not in enc
            assert wire.cobs_decode(enc) == data


@given(st.binary(max_size=2000))
def test_cobs_law(data):
    assert wire.cobs_decode(wire.cobs_encode(data)) == data


def test_message_round_trip():
    dec = wire.Decoder()
    out = wire.encode(
        wire.CONFIGURE, 7, {"v": 3, "cfg": {"players": [{"name": "Zoé", "colour": "red"}]}}
    )
    [body] = dec.feed(out)
    assert wire.parse(body) == (
        wire.CONFIGURE,
        7,
        False,
        {"v": 3, "cfg": {"players": [{"name": "Zoé", "colour": "red"}]}},
    )
    [body] = dec.feed(wire.encode(wire.STATUS, 8, None, reply=True))
    assert wire.parse(body) == (wire.STATUS, 8, True, None)


def test_records_request_and_page():
    [body] = wire.Decoder().feed(wire.encode(wire.RECORDS, 1, wire.records_request(300, 5)))
    assert wire.parse(body) == (wire.RECORDS, 1, False, {"after": 300, "limit": 5})
    recs = [(301 + i, bytes([i]) * (i % 7)) for i in range(40)]
    payload, taken = wire.page(400, recs, room=60)
    assert 0 < taken < 40
    [body] = wire.Decoder().feed(wire.encode(wire.RECORDS, 2, payload, reply=True))
    _, _, _, p = wire.parse(body)
    assert p == {"last": 400, "records": recs[:taken]}
    empty, taken = wire.page(0, [])
    assert taken == 0 and wire.parse_page(empty) == {"last": 0, "records": []}


def test_page_stops_at_a_gap():
    payload, taken = wire.page(9, [(1, b"a"), (2, b"b"), (4, b"d")])
    assert taken == 2


def test_resync_after_garbage_torn_frames_and_noise():
    a = wire.encode(wire.HELLO, 1, {"p": 1})
    b = wire.encode(wire.STATUS, 2)
    c = wire.encode(wire.START, 3, {"v": 9})
    stream = b"MicroPython v1.24 boot banner\r\n>>> " + a[:7] + b"\xff\xfe\x00" + b + a[:-3] + c
    dec = wire.Decoder()
    got = []
    for i in range(0, len(stream), 3):  # re-chunked
        got += dec.feed(stream[i : i + 3])
    assert [wire.parse(x)[1] for x in got] == [2, 3]
    assert dec.dropped >= 2


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**31), 2**31) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(
    st.dictionaries(st.text(max_size=8), _JSON, max_size=6),
    st.integers(0, 255),
    st.sampled_from([wire.CRC16_BODY, wire.CRC32_BODY]),
)
def test_a_frame_of_either_version_is_read_back(value, rid, version):
    """Whatever CRC a body's version says, the board's Frame and the desktop's encode() write
    the same bytes, the Decoder gives the body back, and parse() the message; a message too
    long for a body is refused by both."""
    f = wire.Frame(version=version)
    try:
        wire.encode(wire.STATUS, rid, value, reply=True, version=version)
    except wire.MessageError:
        with pytest.raises(wire.MessageError):
            f.message(wire.STATUS, rid, value, reply=True)
        return
    raw = bytes(f.message(wire.STATUS, rid, value, reply=True))
    assert raw == wire.encode(wire.STATUS, rid, value, reply=True, version=version)
    bodies = wire.Decoder().feed(raw)
    assert len(bodies) == 1 and bodies[0][0] == version
    assert wire.parse(bodies[0]) == (wire.STATUS, rid, True, json.loads(json.dumps(value)))


@pytest.mark.parametrize("version", [wire.CRC16_BODY, wire.CRC32_BODY])
@pytest.mark.parametrize("size", [240, 253, 254, 255, 508, 1100, 1700, 1900, 2000, 2030])
def test_long_bodies_frame_alike_with_or_without_room_past_their_end(size, version):
    """COBS moves a body's 254-byte blocks through the buffer's free tail when it has room for
    one past the frame's end, by 32-byte copies when the body nearly fills the buffer (the
    last sizes here): either way the bytes the desktop's encode() writes, read back whole."""
    value = {"x": "y" * (size - 8)}
    try:
        want = wire.encode(wire.STATUS, 7, value, reply=True, version=version)
    except wire.MessageError:
        pytest.skip("longer than a body")
    f = wire.Frame(version=version)
    for _ in range(2):  # the buffer reused: what the tail held last time does not matter
        raw = bytes(f.message(wire.STATUS, 7, value, reply=True))
        assert raw == want
    (body,) = wire.Decoder().feed(raw)
    assert wire.parse(body) == (wire.STATUS, 7, True, value)


@given(st.binary(min_size=0, max_size=300), st.data())
def test_a_flipped_bit_in_a_version_2_frame_is_dropped(payload, data):
    """CRC-32 catches every single-bit error: the frame is dropped, never misread."""
    raw = bytearray(wire.encode(wire.RECORDS, 5, payload, reply=True, version=wire.CRC32_BODY))
    i = data.draw(st.integers(1, len(raw) - 2))
    raw[i] ^= 1 << data.draw(st.integers(0, 7))
    dec = wire.Decoder()
    assert dec.feed(bytes(raw) + wire.encode(wire.STATUS, 6)) == [bytes((1, wire.STATUS, 6))]


def test_bit_flip_is_dropped():
    a = bytearray(wire.encode(wire.STATUS, 2, {"x": 1}))
    a[5] ^= 0x10
    dec = wire.Decoder()
    assert dec.feed(bytes(a)) == [] and dec.dropped == 1


def test_oversized_frame_is_skipped_without_buffering():
    dec = wire.Decoder()
    dec.feed(b"\x00" + b"\x01" * 5000)
    assert len(dec._buf) == 0
    assert dec.feed(b"\x00" + wire.encode(wire.STATUS, 4)[1:]) != []
    with pytest.raises(wire.MessageError):
        wire.encode(wire.CONFIGURE, 1, {"x": "y" * wire.MAX_BODY})


def test_newer_version_and_bad_payloads():
    body = bytes((wire.PROTOCOL + 1, wire.STATUS, 9))
    with pytest.raises(wire.VersionError) as e:
        wire.parse(body)
    assert e.value.rid == 9 and e.value.mtype == wire.STATUS
    for bad in (
        b"",
        b"\x01\x02",
        b"\x01\x02\x03[1]",
        b"\x01\x02\x03{bad",
        b"\x01\x02\x03\xff\xfe",
        b"\x01\x89\x03\x80",
        b"\x01\x89\x03\x05\x01\x09ab",
        b"\x00\x02\x03",
    ):
        with pytest.raises(wire.MessageError):
            wire.parse(bad)


@settings(max_examples=400)
@given(st.lists(st.binary(max_size=300), max_size=12))
def test_fuzz_decoder_only_documented_errors(chunks):
    dec = wire.Decoder()
    for chunk in chunks:
        for body in dec.feed(chunk):
            try:
                wire.parse(body)
            except wire.WireError:
                pass


@settings(max_examples=300)
@given(st.binary(min_size=3, max_size=400))
def test_fuzz_parse_of_crc_valid_bodies(body):
    # bodies that pass the CRC (e.g. a buggy sender): parse raises only WireError
    [got] = wire.Decoder().feed(wire.frame(body))
    assert got == body
    try:
        wire.parse(body)
    except wire.WireError:
        pass


@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(wire.NAMES)),
            st.integers(0, 255),
            st.dictionaries(st.text(max_size=5), st.integers(-5, 5000), max_size=4),
        ),
        min_size=1,
        max_size=6,
    ),
    st.binary(max_size=40),
    st.integers(1, 50),
)
def test_messages_survive_garbage_between_and_rechunking(msgs, garbage, step):
    stream = b""
    for t, rid, value in msgs:
        stream += garbage + wire.encode(t if t != wire.RECORDS else wire.STATUS, rid, value)
    dec = wire.Decoder()
    got = []
    for i in range(0, len(stream), step):
        got += dec.feed(stream[i : i + step])
    parsed = [wire.parse(b) for b in got]
    assert [(p[1], p[3] or {}) for p in parsed][-len(msgs) :] == [
        (rid, value) for _, rid, value in msgs
    ]


@needs_micropython
def test_codec_under_micropython():
    script = """
from presstime.core import wire
dec = wire.Decoder()
a = wire.encode(wire.CONFIGURE, 7, {"v": 3, "cfg": {"n": [1, 2]}})
out = dec.feed(b"junk\\x00" + a[:4])
out += dec.feed(a[4:] + b"\\x01\\x02")
assert len(out) == 1
t, rid, reply, v = wire.parse(out[0])
assert (t, rid, reply, v["v"], v["cfg"]["n"]) == (wire.CONFIGURE, 7, False, 3, [1, 2])
recs = [(5 + i, b"r" * i) for i in range(30)]
payload, taken = wire.page(40, recs)
assert taken == 30
p = wire.parse(dec.feed(wire.encode(wire.RECORDS, 1, payload, reply=True))[0])[3]
assert p["records"] == recs and p["last"] == 40
try:
    wire.parse(bytes((3, 2, 1)))
    assert False
except wire.VersionError:
    pass
f = wire.Frame.board()
assert f.version == wire.CRC32_BODY
v = {"version": 4, "players": [{"name": "Ann"}]}
raw = bytes(f.message(wire.STATUS, 9, v, reply=True))
assert raw == wire.encode(wire.STATUS, 9, v, reply=True, version=2)
body = dec.feed(raw)[0]
assert body[0] == 2 and wire.parse(body)[3]["players"][0]["name"] == "Ann"
bad = bytearray(raw)
bad[6] ^= 1
n = dec.dropped
assert dec.feed(bytes(bad)) == [] and dec.dropped == n + 1
for n in (0, 254, 255, 600):
    d = bytes(range(256)) * 3
    assert wire.cobs_decode(wire.cobs_encode(d[:n])) == d[:n]
print("ok")
"""
    assert run_micropython(script, heap="256K").stdout.strip() == "ok"


@needs_micropython
def test_device_link_under_micropython(tmp_path):
    # the board's side: the real App, Journal and Link on the fake port, driven by frames
    script = """
import os
from presstime.core import wire
from presstime.device.ports.fake import FakePort
from presstime.device.journal import Journal
from presstime.device.app import App
from presstime.device.link import Link, ReplReturn
path = %r
port = FakePort(players=6, pixels=24)
app = App(port, Journal(path))
app.link = Link(app, port)
dec = wire.Decoder()
rid = [0]
def ask(t, value=None):
    rid[0] += 1
    port.feed(b"noise" + wire.encode(t, rid[0], value))
    app.step()
    got = [wire.parse(b) for b in dec.feed(port.take_written())]
    assert len(got) == 1, got
    assert got[0][1] == rid[0] and got[0][2]
    return got[0][0], got[0][3]
t, hello = ask(wire.HELLO)
assert t == wire.HELLO and hello["p"] == 2 and hello["id"].startswith("fake-")
t, r = ask(wire.CONFIGURE, {"v": hello["v"], "cfg": {"players": [{"name": "Ada"}, {"name": "Ben"}],
                                                     "mode": "standard", "duration_ms": 180000}})
assert t == wire.CONFIGURE, r
t, r = ask(wire.START, {"v": r["v"] - 1})
assert t == wire.ERROR and r["e"] == wire.E_STALE
t, st = ask(wire.STATUS)
t, r = ask(wire.START, {"v": st["version"]})
assert t == wire.START
port.advance(3100); app.step()
port.tap(1); port.advance(100); app.step()
port.tap(0); port.advance(100); app.step()
t, st = ask(wire.STATUS)
assert st["phase"] == "summary" and [p["token"] for p in st["players"]] == [2, 1], st
t, page = ask(wire.RECORDS, wire.records_request(0))
assert page["last"] == app.journal.last_seq and page["records"] == app.journal.records(0)
t, h = ask(wire.HELLO)
assert h["gid"] == 1 and h["seq"] == app.journal.last_seq
t, r = ask(0x33)
assert t == wire.ERROR and r["e"] == wire.E_UNKNOWN
port.feed(wire.frame(bytes((9, wire.STATUS, 5))))
app.step()
assert wire.parse(dec.feed(port.take_written())[0])[3]["e"] == wire.E_VERSION
port.feed(wire.encode(wire.REPL, 99))
try:
    app.step()
    assert False
except ReplReturn:
    pass
print("ok")
""" % str(tmp_path / "journal.bin")
    assert run_micropython(script, heap="256K").stdout.strip() == "ok"


@pytest.mark.slow
def test_atheris_fuzz_briefly():
    # coverage-guided fuzzing of the decoder and the board's handler, when atheris is installed
    pytest.importorskip("atheris")
    import subprocess
    import sys

    v2 = "00 15 02 82 07 7b 22 76 65 72 73 69 6f 6e 22 3a 35 7d f2 ff 9c 69 00"
    status = wire.encode(wire.STATUS, 7, {"version": 5}, reply=True, version=wire.CRC32_BODY)
    assert status.hex(" ") == v2
    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run(
        [sys.executable, os.path.join(here, "fuzz_wire.py"), "-runs=20000", "-seed=1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_worked_examples_in_protocol_md_hold():
    assert wire.encode(wire.STATUS, 7).hex(" ") == "00 06 01 02 07 ed 29 00"
    assert (
        wire.encode(wire.START, 8, {"v": 12}).hex(" ")
        == "00 0e 01 04 08 7b 22 76 22 3a 31 32 7d 1e 6a 00"
    )
    assert (
        wire.encode(wire.RECORDS, 9, wire.records_request(30)).hex(" ")
        == "00 05 01 09 09 1e 03 f6 c7 00"
    )
    payload, _ = wire.page(33, [(31, b"\x05\x01\x02"), (32, b"\x08")])
    assert (
        wire.encode(wire.RECORDS, 9, payload, reply=True).hex(" ")
        == "00 0e 01 89 09 21 1f 03 05 01 02 01 08 c9 d3 00"
    )
    v2 = "00 15 02 82 07 7b 22 76 65 72 73 69 6f 6e 22 3a 35 7d f2 ff 9c 69 00"
    status = wire.encode(wire.STATUS, 7, {"version": 5}, reply=True, version=wire.CRC32_BODY)
    assert status.hex(" ") == v2
    here = os.path.dirname(os.path.abspath(__file__))
    doc = open(os.path.join(here, "..", "docs", "protocol.md"), encoding="utf-8").read()
    for line in (
        "00 06 01 02 07 ed 29 00",
        "00 05 01 09 09 1e 03 f6 c7 00",
        "00 0e 01 89 09 21 1f 03 05 01 02 01 08 c9 d3 00",
        v2,
    ):
        assert line in doc
