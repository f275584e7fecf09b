"""The scorepad's server as a server on a network: the secret, seat ownership, limits, the
core's checks on every number, live events. Real HTTP on loopback (no browser)."""

import http.client
import json
import threading
import urllib.error
import urllib.request

import pytest

from helpers import GOOD_PAD, fit_to_print_record
from presstime.scorepad.server import MAX_BODY, ScorepadServer, _Limiter
from presstime.scorepad.session import ScorepadSession


@pytest.fixture
def pad():
    saved = []
    session = ScorepadSession(fit_to_print_record(), lambda r: saved.append(json.dumps(r)))
    server = ScorepadServer(session).start()
    session.open_round(0, "round 1 (Friday)")
    server.saved = saved
    yield server
    server.stop()


def call(url, body=None, token=None, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(
        url,
        data=data,
        method="POST" if data is not None else "GET",
        headers={"Content-Type": "application/json"},
    )
    if token:
        req.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text.decode()


def test_everything_lives_under_the_secret(pad):
    base = "http://127.0.0.1:%d/" % pad.port
    for path in (
        "",
        "x/",
        "x/screen",
        "x/api/state",
        "x/api/events",
        pad.session.secret[:-1] + "/api/state",
    ):
        assert call(base + path)[0] == 404
    assert call(base + "nope/api/claim", {"seat": 0})[0] == 404
    assert call(pad.url + "api/state")[0] == 200
    assert pad.session.secret not in call(base + "x/api/state")[1]


def test_a_phone_writes_only_the_seat_it_holds(pad):
    status, got = call(pad.url + "api/claim", {"seat": 0})
    token = got["token"]
    assert call(pad.url + "api/claim", {"seat": 0})[0] == 409  # another phone
    assert call(pad.url + "api/claim", {"seat": 0, "token": token})[1]["token"] == token  # a reload
    assert call(pad.url + "api/submit", {"seat": 1, "values": GOOD_PAD}, token)[0] == 403
    assert call(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD}, "forged")[0] == 403
    assert call(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD})[0] == 403
    for seat in (-1, 2, "0x1", True, None, 1.5):
        assert call(pad.url + "api/claim", {"seat": seat})[0] == 400
    status, got = call(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD}, token)
    assert status == 200 and "points" in got["preview"]
    assert pad.session.missing() == [1]


def test_every_number_is_checked_by_the_core(pad):
    token = call(pad.url + "api/claim", {"seat": 1})[1]["token"]
    status, got = call(
        pad.url + "api/submit",
        {"seat": 1, "values": dict(GOOD_PAD, frowns=-1, white_space=99)},
        token,
    )
    assert status == 422
    assert "negative" in got["errors"]["frowns"]
    assert "white" in got["errors"]["white_space"]
    for bad in ("7", 7.5, True, None, [1], 10**40):
        status, got = call(
            pad.url + "api/submit", {"seat": 1, "values": dict(GOOD_PAD, ads=bad)}, token
        )
        assert status == 422 and "ads" in got["errors"], bad
    status, got = call(
        pad.url + "api/submit", {"seat": 1, "values": dict(GOOD_PAD, bonus=3)}, token
    )
    assert status == 400 and "bonus" in got["error"]
    status, got = call(pad.url + "api/submit", {"seat": 1, "values": {"articles": 3}}, token)
    assert status == 422 and got["errors"]["ads"].endswith("missing")
    assert pad.session.missing() == [0, 1]  # nothing refused went in
    assert "Ben" not in json.dumps(pad.session.record["rounds"][0]["players"])


def test_bodies_are_capped_and_garbage_is_refused(pad):
    token = call(pad.url + "api/claim", {"seat": 0})[1]["token"]
    big = json.dumps({"seat": 0, "values": GOOD_PAD, "pad": "x" * MAX_BODY}).encode()
    assert call(pad.url + "api/submit", raw=big, token=token)[0] == 413
    for raw in (b"\xff\xfe", b"[1,2]", b"{", b"[" * 3000, b'"x"'):
        assert call(pad.url + "api/submit", raw=raw, token=token)[0] == 400


def test_clients_are_rate_limited(pad):
    pad.limiter = _Limiter(rate=1, burst=5)
    codes = [call(pad.url + "api/state")[0] for _ in range(12)]
    assert codes[:5] == [200] * 5 and 429 in codes


def test_a_closed_round_takes_no_more_numbers(pad):
    token = call(pad.url + "api/claim", {"seat": 0})[1]["token"]
    pad.session.close_round()
    status, got = call(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD}, token)
    assert status == 409 and "closed" in got["error"]


def test_the_big_screen_hears_each_change_live(pad):
    conn = http.client.HTTPConnection("127.0.0.1", pad.port, timeout=10)
    conn.request("GET", "/%s/api/events" % pad.session.secret)
    resp = conn.getresponse()
    assert resp.getheader("Content-Type").startswith("text/event-stream")

    def event():
        while True:
            line = resp.fp.readline().decode()
            if line.startswith("data: "):
                return json.loads(line[6:])

    first = event()
    token = call(pad.url + "api/claim", {"seat": 0})[1]["token"]
    threading.Thread(
        target=call, args=(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD}, token)
    ).start()
    seen = event()
    while not seen["players"][0]["submitted"]:
        seen = event()
    assert seen["version"] > first["version"]
    conn.close()


def test_accepted_numbers_are_saved_by_the_games_thread(pad):
    token = call(pad.url + "api/claim", {"seat": 0})[1]["token"]
    call(pad.url + "api/submit", {"seat": 0, "values": GOOD_PAD}, token)
    assert pad.saved == []  # not from the server's thread (the database is the game's)
    pad.session.wait(0)
    assert json.loads(pad.saved[-1])["rounds"][0]["players"]["Ada"] == GOOD_PAD


def test_bind_takes_only_this_computers_addresses():
    from presstime.errors import BadInput
    from presstime.scorepad.options import lan_addresses, resolve_bind

    assert resolve_bind("127.0.0.1") == "127.0.0.1"
    for bad in ("203.0.113.77", "example.org", "999.1.1.1"):
        with pytest.raises(BadInput) as e:
            resolve_bind(bad)
        assert "choices: 127.0.0.1, lan" in str(e.value.messages)
    if lan_addresses():
        assert resolve_bind("lan") in lan_addresses()


def test_the_host_frees_a_seat_and_closes_a_round_from_the_terminal(pad):
    from presstime.scorepad.at_table import TableScorepad

    host = TableScorepad.__new__(TableScorepad)
    host.session, host.said = pad.session, []
    host.say = host.said.append
    call(pad.url + "api/claim", {"seat": 1})
    assert call(pad.url + "api/claim", {"seat": 1})[0] == 409
    assert host._typed("free 2") is False
    assert "seat 2 (Ben) is free" in host.said[-1]
    assert call(pad.url + "api/claim", {"seat": 1})[0] == 200  # the new phone
    assert host._typed("free 9") is False and "free N" in host.said[-1]
    assert host._typed("") is True


def test_every_response_forbids_framing_and_foreign_content(pad):
    with urllib.request.urlopen(pad.url, timeout=10) as r:
        csp = r.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert r.headers["X-Frame-Options"] == "DENY"
        assert r.headers["Referrer-Policy"] == "no-referrer"
    status, _ = call(pad.url + "nothing")
    assert status == 404


def test_another_sites_page_cannot_change_the_game(pad):
    host = "127.0.0.1:%d" % pad.port
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://" + host, "Sec-Fetch-Site": "cross-site"},
    ):
        conn = http.client.HTTPConnection("127.0.0.1", pad.port, timeout=10)
        conn.request(
            "POST",
            "/%s/api/claim" % pad.session.secret,
            body=json.dumps({"seat": 0}),
            headers=dict(headers, **{"Content-Type": "text/plain"}),
        )
        assert conn.getresponse().status == 403, headers
        conn.close()
    assert 0 not in pad.session.tokens
    conn = http.client.HTTPConnection("127.0.0.1", pad.port, timeout=10)
    conn.request(
        "POST",
        "/%s/api/claim" % pad.session.secret,
        body=json.dumps({"seat": 0}),
        headers={"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"},
    )
    assert conn.getresponse().status == 200
