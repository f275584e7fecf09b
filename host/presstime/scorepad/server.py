"""The scorepad's web server: Starlette on uvicorn, in a thread of the `presstime` process.

    server = ScorepadServer(session, host="127.0.0.1", port=0).start()
    server.url          # http://HOST:PORT/SECRET/   (the phones' page; /screen: the big screen)
    server.stop()

Built like a server on a network: every page and call lives under the game's secret (anything
else is 404), a phone writes only the seat it holds (a per-seat token), request bodies are
capped, each client address is rate-limited, and the number of live streams is capped. It binds
to the address it is given (loopback by default) and stops with the game. Every asset is served
from this package: no CDN, no internet.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import socket
import threading
import time
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from presstime.scorepad import guard
from presstime.scorepad.options import LOOPBACK, lan_addresses
from presstime.scorepad.session import SeatRefused

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from presstime.scorepad.session import ScorepadSession

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 4096  # bytes in one request
RATE = 30.0  # requests per second per client address, sustained
BURST = 120  # and in a burst (a phone's page makes 1-2 per change it hears)
MAX_STREAMS = 64  # live event streams at once
KEEPALIVE_S = 15


class _Limiter:
    """A token bucket per client address."""

    def __init__(self, rate=RATE, burst=BURST):
        self.rate = rate
        self.burst = burst
        self.buckets = {}
        self.lock = threading.Lock()

    def allow(self, who):
        now = time.monotonic()
        with self.lock:
            tokens, last = self.buckets.get(who, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens < 1:
                self.buckets[who] = (tokens, now)
                return False
            self.buckets[who] = (tokens - 1, now)
            if len(self.buckets) > 10000:  # never grows without bound
                self.buckets.clear()
            return True


class ScorepadServer:
    def __init__(self, session: ScorepadSession, host: str = "127.0.0.1", port: int = 0) -> None:
        self.session = session
        self.host = host
        self.port = port
        self.limiter = _Limiter()
        self.streams = 0
        self.loop = None
        self.wakers = set()
        self.sent = {}  # live stream -> the last state version it sent
        self.stopping = False
        self._server = None
        self._thread = None
        session.listeners.append(self._changed)
        self.app = Starlette(
            routes=[
                Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
                Route("/{secret}/", self.phone_page),
                Route("/{secret}", self.phone_page),
                Route("/{secret}/screen", self.screen_page),
                Route("/{secret}/join.svg", self.join_qr, methods=["GET"]),
                Route("/{secret}/api/join", self.api_join, methods=["GET"]),
                Route("/{secret}/bgstats.svg", self.bgstats_qr, methods=["GET"]),
                Route("/{secret}/api/state", self.api_state, methods=["GET"]),
                Route("/{secret}/api/claim", self.api_claim, methods=["POST"]),
                Route("/{secret}/api/submit", self.api_submit, methods=["POST"]),
                Route("/{secret}/api/events", self.api_events, methods=["GET"]),
            ]
        )

    # ---- lifetime ---------------------------------------------------------------------------
    def start(self) -> ScorepadServer:
        import uvicorn

        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        self.log_path = guard.log_to_file()
        config = uvicorn.Config(
            self._guarded,
            interface="asgi3",
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
            access_log=False,
            log_config=None,
            http=guard.GuardedH11,
            timeout_keep_alive=guard.IDLE_S,
            limit_concurrency=guard.MAX_CONNECTIONS + 8,
            h11_max_incomplete_event_size=16 * 1024,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="scorepad", daemon=True
        )
        self._thread.start()
        t0 = time.monotonic()
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() - t0 > 10:
                raise RuntimeError("the scorepad server did not start")
            time.sleep(0.01)
        return self

    def stop(self, linger: float = 2.0) -> None:
        """Stop serving: first let every live page receive the last change (at most `linger`
        seconds: the final standings reach the big screen), then close."""
        t0 = time.monotonic()
        while (
            self.sent
            and min(self.sent.values()) < self.session.version
            and time.monotonic() - t0 < linger
        ):
            time.sleep(0.02)
        self.stopping = True
        self._changed(None)
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
        if self._changed in self.session.listeners:
            self.session.listeners.remove(self._changed)

    @property
    def urls(self) -> list[str]:
        """The phones' page at each address it is reachable on: the bound one, or, bound to
        every address (0.0.0.0), this computer's addresses on its networks (loopback last)."""
        hosts = [self.host]
        if self.host in ("0.0.0.0", "::"):
            hosts = lan_addresses() + [LOOPBACK]
        return [
            "http://%s:%d/%s/" % ("[%s]" % h if ":" in h else h, self.port, self.session.secret)
            for h in hosts
        ]

    @property
    def url(self) -> str:
        return self.urls[0]

    @property
    def screen_url(self) -> str:
        return self.url + "screen"

    # ---- the guard in front of every request ---------------------------------------------------
    async def _guarded(self, scope, receive, send):
        if scope["type"] == "http":
            send = _with_headers(send)
            client = (scope.get("client") or ("?", 0))[0]
            if not self.limiter.allow(client):
                await PlainTextResponse("too many requests", status_code=429)(scope, receive, send)
                return
            if scope.get("method") not in ("GET", "HEAD") and not _same_origin(scope):
                await PlainTextResponse("not from this scorepad's page", status_code=403)(
                    scope, receive, send
                )
                return
            for name, value in scope.get("headers", []):
                if name == b"content-length":
                    try:
                        too_big = int(value) > MAX_BODY
                    except ValueError:
                        too_big = True
                    if too_big:
                        await PlainTextResponse("request too large", status_code=413)(
                            scope, receive, send
                        )
                        return
        await self.app(scope, receive, send)

    def _secret_ok(self, request):
        return hmac.compare_digest(request.path_params.get("secret", ""), self.session.secret)

    # ---- pages ------------------------------------------------------------------------------
    async def phone_page(self, request: Request) -> Response:
        if not self._secret_ok(request):
            return _not_found()
        return FileResponse(os.path.join(STATIC, "phone.html"), headers=_NO_STORE)

    async def screen_page(self, request: Request) -> Response:
        if not self._secret_ok(request):
            return _not_found()
        return FileResponse(os.path.join(STATIC, "screen.html"), headers=_NO_STORE)

    async def join_qr(self, request: Request) -> Response:
        """The phones' page as a QR code (SVG, drawn here: nothing from the internet)."""
        if not self._secret_ok(request):
            return _not_found()
        return Response(_qr_svg(self.url), media_type="image/svg+xml", headers=_NO_STORE)

    async def bgstats_qr(self, request: Request) -> Response:
        """BG Stats' one-play link of the finished game as a QR code (404 before the end)."""
        if not self._secret_ok(request):
            return _not_found()
        link = (self.session.public()["standings"] or {}).get("bgstats")
        if not link:
            return _not_found()
        return Response(_qr_svg(link, error="l"), media_type="image/svg+xml", headers=_NO_STORE)

    async def api_join(self, request: Request) -> Response:
        if not self._secret_ok(request):
            return _not_found()
        return JSONResponse({"url": self.url, "urls": self.urls}, headers=_NO_STORE)

    # ---- the API ----------------------------------------------------------------------------
    async def api_state(self, request: Request) -> Response:
        if not self._secret_ok(request):
            return _not_found()
        out = self.session.public()
        seat = request.query_params.get("seat")
        token = request.headers.get("x-seat-token")
        if seat is not None and token:
            try:
                out["mine"] = self.session.seat_view(_int(seat), token)
            except SeatRefused as e:
                out["mine_error"] = e.message
        return JSONResponse(out, headers=_NO_STORE)

    async def _body(self, request):
        """The JSON object a phone posted, or the response refusing it (wrong secret: 404)."""
        if not self._secret_ok(request):
            return _not_found()
        return await _json_body(request)

    async def api_claim(self, request: Request) -> Response:
        body = await self._body(request)
        if isinstance(body, Response):
            return body
        try:
            token = self.session.claim(_int(body.get("seat")), body.get("token"))
        except SeatRefused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        return JSONResponse({"token": token})

    async def api_submit(self, request: Request) -> Response:
        body = await self._body(request)
        if isinstance(body, Response):
            return body
        try:
            got = await asyncio.get_running_loop().run_in_executor(
                None,
                self.session.submit,
                _int(body.get("seat")),
                request.headers.get("x-seat-token"),
                body.get("values"),
            )
        except SeatRefused as e:
            return JSONResponse({"error": e.message}, status_code=e.status)
        except Exception as e:  # a bug: the phone hears it, the game goes on
            self.session.faults.append("%s: %s" % (type(e).__name__, e))
            return JSONResponse(
                {"error": "the scorepad could not take this (tell the host)"}, status_code=500
            )
        return JSONResponse(got, status_code=422 if "errors" in got else 200)

    async def api_events(self, request: Request) -> Response:
        """Server-sent events: the public state each time it changes."""
        if not self._secret_ok(request):
            return _not_found()
        if self.streams >= MAX_STREAMS:
            return PlainTextResponse("too many live pages", status_code=503)
        self.loop = asyncio.get_running_loop()
        waker = asyncio.Event()
        self.wakers.add(waker)
        self.streams += 1

        async def stream():
            sent = -1
            try:
                while not self.stopping:
                    waker.clear()  # before the state is read: a change from now on wakes us
                    state = self.session.public()
                    if state["version"] != sent:
                        sent = state["version"]
                        yield "data: %s\n\n" % json.dumps(state)
                        self.sent[waker] = sent
                    try:
                        await asyncio.wait_for(waker.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
            finally:
                self.wakers.discard(waker)
                self.sent.pop(waker, None)
                self.streams -= 1

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    def _changed(self, _version):
        loop = self.loop
        if loop is None:
            return
        for w in list(self.wakers):
            try:
                loop.call_soon_threadsafe(w.set)
            except RuntimeError:  # the loop has closed
                pass


_NO_STORE = {"Cache-Control": "no-store"}

# every response: nothing but this server's own script, style and images; no page of another
# site may frame these pages (clickjacking) or read their address (the secret) as a referrer
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def _with_headers(send):
    async def sending(message):
        if message["type"] == "http.response.start":
            message = dict(message, headers=list(message.get("headers", [])) + SECURITY_HEADERS)
        await send(message)

    return sending


def _same_origin(scope):
    """A state change comes from this server's own page: a browser sends the page's Origin
    (another site's page that knows the link cannot claim a seat) and says when a request is
    cross-site; a client that is not a browser sends neither."""
    headers = dict(scope.get("headers") or [])
    if headers.get(b"sec-fetch-site", b"same-origin") not in (b"same-origin", b"none"):
        return False
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    return origin in (b"http://" + host, b"https://" + host)


def _qr_svg(text, error="m"):
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error=error).save(
        out, kind="svg", scale=8, border=4, dark="#000", light="#fff", xmldecl=False, svgns=True
    )
    return out.getvalue()


def _not_found():
    return PlainTextResponse("not found", status_code=404)


async def _read_body(request):
    """The request's body, or None past MAX_BODY bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def _int(v):
    """A seat number: a JSON integer, or the digits of one (a query string)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str) and v.isdigit() and len(v) < 4:
        return int(v)
    raise SeatRefused(400, "seat: a number, please")


async def _json_body(request):
    try:
        body = await asyncio.wait_for(_read_body(request), guard.BODY_S)
    except TimeoutError:
        return JSONResponse({"error": "the request's body came too slowly"}, status_code=408)
    if body is None:
        return JSONResponse({"error": "request too large"}, status_code=413)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return JSONResponse({"error": "not JSON"}, status_code=400)
    if not isinstance(data, dict):
        return JSONResponse({"error": "a JSON object, please"}, status_code=400)
    return data
