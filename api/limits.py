"""Request limits: a token bucket per client address (429 + Retry-After), a cap on the
SPARQL queries one client has in flight (429 + Retry-After), CORS from the `cors_origins`
setting, and the request size cap (413).

Buckets and in-flight counts live in the app's `api.query.clients.ClientTable`: `python -m
api.serve` makes one that all its server worker processes share, so the rate and the cap
hold per client across the whole server; an app made otherwise keeps its own. Clients are told
apart by the connecting address; put the service behind a proxy that sets it (werkzeug's
ProxyFix) when it is not the client's own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, Response, current_app, request

from api.errors import ApiError
from api.query.clients import ClientTable

EXEMPT_PATHS = ("/healthz",)
ALLOWED_METHODS = "GET, POST, OPTIONS"
ALLOWED_HEADERS = {"accept", "content-type", "accept-language", "content-language"}
EXPOSED_HEADERS = "X-Paperkg-Truncated, X-Paperkg-Rows, Retry-After, Link"


class TokenBucket:
    """Tokens refill at `rate` per second up to `burst`; each request takes one."""

    def __init__(self, rate_per_minute: int, burst: int, *, clock=time.monotonic,
                 table: ClientTable | None = None):
        self.rate = rate_per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self.table = ClientTable(marks=0, leases=0) if table is None else table

    def take(self, client: str) -> float:
        """0 when the request may go ahead, else the seconds until a token is free."""
        return self.table.take_token(client, self.rate, self.burst, self.clock())


class InFlight:
    """Counts the queries each client has in flight (waiting for a worker or running), in
    every process sharing `table`."""

    def __init__(self, cap: int, table: ClientTable | None = None):
        self.cap = cap
        self.table = ClientTable(marks=0, buckets=0) if table is None else table

    def enter(self, client: str) -> bool:
        """Count one more query of `client`; False (nothing counted) when it is at the cap."""
        return self.table.enter(client, self.cap)

    def leave(self, client: str) -> None:
        self.table.leave(client)

    def count(self, client: str) -> int:
        return self.table.in_flight(client)


def client_address() -> str:
    return request.remote_addr or "unknown"


def busy_retry_after() -> int:
    """Seconds after which a query of this client has surely ended: the time limit."""
    return max(1, math.ceil(current_app.config["PAPERKG_SETTINGS"]["query_time_limit_ms"]
                            / 1000))


@contextmanager
def query_slot() -> Iterator[str]:
    """Hold one of the asking client's in-flight places for the block; 429 when none is left.

    Yields the client address. The place is given back however the block ends (an answer,
    a time limit, an error).
    """
    client = client_address()
    counter: InFlight | None = current_app.extensions.get("paperkg_inflight")
    if counter is None:
        yield client
        return
    if not counter.enter(client):
        wait = busy_retry_after()
        raise ApiError(429, f"too many queries at once: this client has {counter.cap} SPARQL "
                       f"queries in flight, the limit is {counter.cap} (setting "
                       f"max_queries_in_flight); retry in {wait} s",
                       {"Retry-After": str(wait)})
    try:
        yield client
    finally:
        counter.leave(client)


def _allowed_origin(origin: str) -> str | None:
    origins = current_app.config["PAPERKG_SETTINGS"]["cors_origins"]
    if "*" in origins:
        return "*"
    return origin if origin in origins else None


def _too_large(size: int | str, limit: int) -> ApiError:
    return ApiError(413, f"the request is {size} bytes; the limit is {limit} bytes "
                    "(setting max_request_bytes)")


def _read_unsized_body(limit: int) -> None:
    """Read and cache a body sent without Content-Length (chunked), or refuse it with 413.

    Werkzeug stops reading such a body at MAX_CONTENT_LENGTH without an error, so a view
    would get it cut short. Reading one byte past what the limit allows tells a body that
    fits from one that does not; the cached bytes are what the views then read.
    """
    allowed = limit - len(request.query_string)
    request.max_content_length = allowed + 1
    body = request.get_data(cache=True)
    if len(body) > allowed:
        raise _too_large(f"more than {limit}", limit)


def _check_limits() -> Response | None:
    values = current_app.config["PAPERKG_SETTINGS"]
    limit = values["max_request_bytes"]
    size = len(request.query_string) + (request.content_length or 0)
    if size > limit:
        raise _too_large(size, limit)
    if request.content_length is None and "Transfer-Encoding" in request.headers:
        _read_unsized_body(limit)
    if request.method == "OPTIONS" and request.headers.get("Origin"):
        return _preflight()
    bucket: TokenBucket | None = current_app.extensions.get("paperkg_rate")
    if bucket is None or request.path.startswith(EXEMPT_PATHS) or request.endpoint in {
            "static", "pages.static"}:
        return None
    wait = bucket.take(request.remote_addr or "unknown")
    if wait > 0:
        raise ApiError(429, f"too many requests: the limit is {values['rate_limit']} a minute "
                       f"per client; retry in {math.ceil(wait)} s",
                       {"Retry-After": str(math.ceil(wait))})
    return None


def _preflight() -> Response:
    response = current_app.response_class(status=204)
    origin = _allowed_origin(request.headers["Origin"])
    if origin is not None:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
        asked = [h.strip() for h in
                 request.headers.get("Access-Control-Request-Headers", "").split(",")
                 if h.strip()]
        allowed = [h for h in asked if h.lower() in ALLOWED_HEADERS]
        if allowed:
            response.headers["Access-Control-Allow-Headers"] = ", ".join(allowed)
        response.headers["Access-Control-Max-Age"] = "600"
    response.headers["Vary"] = "Origin"
    return response


def _add_cors(response: Response) -> Response:
    origin_header = request.headers.get("Origin")
    if origin_header and "Access-Control-Allow-Origin" not in response.headers:
        origin = _allowed_origin(origin_header)
        if origin is not None:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        response.vary.add("Origin")
    return response


def init_app(app: Flask, table: ClientTable) -> None:
    values = app.config["PAPERKG_SETTINGS"]
    if values["rate_limit"] > 0:
        app.extensions["paperkg_rate"] = TokenBucket(
            values["rate_limit"], values["rate_limit_burst"], table=table)
    if values["max_queries_in_flight"] > 0:
        app.extensions["paperkg_inflight"] = InFlight(values["max_queries_in_flight"], table)
    app.before_request(_check_limits)
    app.after_request(_add_cors)
