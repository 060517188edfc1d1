"""The endpoint's hot path: a plain GET of a query that ran cheaply before, answered before
Flask sees the request.

What Flask costs per request (routing, request and response objects, context locals, hooks) is
more than the whole of a cheap query's work in the engine: answering a fixed result, Flask
under the server took twice the time of the bare server (docs/api.md). So a request the
endpoint has answered before, in the same shape, is answered here, with the same rules and the
same bytes; anything else goes on to Flask unchanged.

A request is a candidate when it is a GET of `/sparql` whose query string is one `query`
parameter, with no body, no `Origin` header (no CORS to decide) and an `Accept` header that is
absent or one media type the endpoint offers. Its plan (the checked query, the negotiated
format, the base IRI) is made after Flask has answered the same request with 200, and holds for
the store generation it was made for. It is answered here when the query runner knows the query
as cheap (`api.query.cheap`) and the client table admits it at once (`ClientTable.admit`: a
token, no slow marks, nothing of the client running, room under the in-flight cap; the query
runs in microseconds and takes no place in flight). When any of that fails, nothing has been
taken and Flask answers, where each rule decides and explains.

Once such a query has been answered here, its plan also holds the query reduced to the
engine's own calls (`api.query.cheap.Direct`, where pyoxigraph writes the whole answer) and
the store path's entry (`os.lstat`) when the plan was made: while the entry is the same, the
generation is, and the answer is the engine's bytes with headers made once. On a
sub-millisecond query every Python call counts: between requests the processor's caches go
cold, and each line of Python on the path costs several times what it costs in a loop.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote_plus

from flask import Flask
from werkzeug.wrappers import Request

from api.query import check_query
from api.query.admission import SLOW_CLIENT_MEMORY_S
from api.query.cheap import Direct
from api.query.results import media_type_of
from api.query.runner import Prepared, is_remote
from api.sparql import GRAPH_TYPES, RESULTS_TYPES, answer_headers, content_type
from graph.errors import StoreError
from graph.store.embedded import MEMORY

log = logging.getLogger(__name__)

#: Plans kept per server process (a request's shape: query string, Accept, host).
PLANS = 4096

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass
class Plan:
    prepared: Prepared
    generation: str
    type_header: str  # the answer's Content-Type, as Flask's path sends it
    entry: tuple[int, int, int, int] | None  # the store path's entry for `generation`
    # Set after the first answer here (see the module): the engine's calls and the headers.
    direct: Direct | None = None
    headers: list[tuple[str, str]] | None = None
    cheap: Any = None  # the runner's CheapQueries


def _entry(location: str | None) -> tuple[int, int, int, int] | None:
    """What graph.store.generations reads to tell a generation from the next; None where
    there is no such path."""
    try:
        seen = os.lstat(location or "")
    except OSError:
        return None
    return seen.st_ino, seen.st_mtime_ns, seen.st_ctime_ns, seen.st_mode


class HotPath:
    """WSGI middleware in front of `app`'s own `wsgi_app` (see the module)."""

    def __init__(self, app: Flask):
        self.flask: WSGIApp = app.wsgi_app
        self.services = app.extensions["paperkg"]
        self.table = app.extensions["paperkg_clients"]
        values = app.config["PAPERKG_SETTINGS"]
        self.size_limit = values["max_request_bytes"]
        self.rate = values["rate_limit"] / 60.0
        self.burst = values["rate_limit_burst"]
        self.cap = values["max_queries_in_flight"]
        # Only an embedded store runs cheap queries in the server process (api.query.cheap).
        self.enabled = values["cheap_query_ms"] > 0 and not is_remote(values["store"])
        self.location: str | None = values["store"] if values["store"] != MEMORY else None
        self.plans: dict[tuple[Any, ...], Plan] = {}
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        shape = self._shape(environ)
        if shape is None:
            return self.flask(environ, start_response)
        plan = self.plans.get(shape)
        if plan is not None and plan.direct is not None:
            answer = self._direct(plan, environ.get("REMOTE_ADDR") or "unknown")
            if answer is False:
                return self.flask(environ, start_response)
            if answer is not None:
                start_response("200 OK", answer[0])
                return [answer[1]]
        try:
            generation = self.services.opened_generation()
        except StoreError:  # the store is away: Flask says so
            return self.flask(environ, start_response)
        if plan is None or plan.generation != generation:
            return self._learn(shape, environ, start_response)
        answer = self._answer(plan, environ.get("REMOTE_ADDR") or "unknown")
        if answer is None:
            return self.flask(environ, start_response)
        headers, body = answer
        start_response("200 OK", headers)
        return [body]

    def _shape(self, environ: dict[str, Any]) -> tuple[Any, ...] | None:
        """The request's shape when it is a candidate (see the module), else None."""
        if not self.enabled or environ.get("REQUEST_METHOD") != "GET" \
                or environ.get("PATH_INFO") != "/sparql" or "HTTP_ORIGIN" in environ \
                or environ.get("CONTENT_LENGTH") or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        text = environ.get("QUERY_STRING", "")
        if not text.startswith("query=") or "&" in text or len(text) > self.size_limit:
            return None
        accept = environ.get("HTTP_ACCEPT")
        if accept is not None and accept not in RESULTS_TYPES and accept not in GRAPH_TYPES:
            return None
        return (text, accept, environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"),
                environ.get("SERVER_NAME"), environ.get("SERVER_PORT"),
                environ.get("SCRIPT_NAME", ""))

    def _direct(self, plan: Plan, client: str
                ) -> tuple[list[tuple[str, str]], bytes] | Literal[False] | None:
        """`plan` answered by its `Direct` (see the module): the headers and body; None when
        the store changed or the query is no longer known as cheap (the ordinary steps look
        again); False when the client table does not admit it (Flask answers)."""
        try:  # _entry, written out: this runs for every answer
            seen = os.lstat(self.location or "")
        except OSError:
            return None
        if (seen.st_ino, seen.st_mtime_ns, seen.st_ctime_ns, seen.st_mode) != plan.entry:
            return None
        prepared = plan.prepared
        cheap = plan.cheap
        if prepared.cheap not in cheap.known:
            return None
        if not self.table.admit(client, prepared.query, time.monotonic(),
                                rate_per_s=self.rate, burst=self.burst, cap=self.cap,
                                memory_s=SLOW_CLIENT_MEMORY_S):
            return False
        direct, headers = plan.direct, plan.headers
        assert direct is not None and headers is not None
        start = time.perf_counter()
        try:
            body = direct.run()
        except Exception:  # the ordinary path runs it again and reports what went wrong
            log.exception("the hot path could not run a cheap query")
            cheap.forget(prepared.cheap)
            return False
        if (time.perf_counter() - start) * 1000 > 4 * cheap.cheap_ms:
            cheap.forget(prepared.cheap)  # a loaded machine: next time through a worker
        return [*headers, ("Content-Length", str(len(body)))], body

    def _answer(self, plan: Plan, client: str) -> tuple[list[tuple[str, str]], bytes] | None:
        """The headers and body of `plan` run here, or None (nothing taken) for Flask."""
        runner = self.services.runner
        prepared = plan.prepared
        if prepared.cheap not in runner.cheap:
            return None
        if not self.table.admit(client, prepared.query, time.monotonic(),
                                rate_per_s=self.rate, burst=self.burst, cap=self.cap,
                                memory_s=SLOW_CLIENT_MEMORY_S):
            return None
        try:
            payload = runner.cheap.run(prepared.job, prepared.cheap)
        except Exception:  # the ordinary path runs it again and reports what went wrong
            log.exception("the hot path could not run a cheap query")
            payload = None
        if payload is None:
            return None
        body, _form, rows, truncated = payload
        headers = answer_headers(plan.type_header, rows, truncated)
        if plan.entry is not None and plan.direct is None:
            direct = runner.cheap.direct(prepared.job, prepared.cheap, prepared.form)
            if direct is not None:
                plan.headers = answer_headers(plan.type_header, direct.rows, False)
                plan.cheap = runner.cheap
                plan.direct = direct
        headers.append(("Content-Length", str(len(body))))
        return headers, body

    def _learn(self, shape: tuple[Any, ...], environ: dict[str, Any],
               start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Let Flask answer; when it answers 200, make the plan for the next request of this
        shape."""
        statuses: list[str] = []

        def record(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            statuses.append(status)
            return start_response(status, headers, *exc_info)

        body = self.flask(environ, record)
        if statuses and statuses[0].startswith("200 "):
            try:
                plan = self._plan(environ, shape[1])
            except Exception:  # a request Flask answered but the plan cannot be made: no plan
                plan = None
            if plan is not None:
                with self._lock:
                    if len(self.plans) >= PLANS:
                        self.plans.clear()
                    self.plans[shape] = plan
        return body

    def _plan(self, environ: dict[str, Any], accept: str | None) -> Plan | None:
        # Read again: Flask may have opened or reopened the store for the answer just sent.
        # The path's entry, read on both sides, is the generation's only when it did not move.
        before = _entry(self.location)
        generation = self.services.opened_generation()
        if generation is None:
            return None
        entry = _entry(self.location)
        if entry != before:
            entry = None
        sparql = unquote_plus(environ["QUERY_STRING"][len("query="):], errors="strict")
        base_iri = Request(environ).base_url
        form = check_query(sparql, graphs=self.services.named_graphs, base_iri=base_iri)
        offered = RESULTS_TYPES if form in {"SELECT", "ASK"} else GRAPH_TYPES
        if accept is not None and accept not in offered:
            return None
        prepared = self.services.runner.prepare(
            sparql, form=form, media_type=accept or offered[0], generation=generation,
            base_iri=base_iri)
        media_type = media_type_of(form, prepared.results_format, prepared.graph_format)
        return Plan(prepared, generation, content_type(media_type), entry)
