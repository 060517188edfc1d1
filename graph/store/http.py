"""HTTP for the remote store: endpoints, logins, timeouts, one request, a query's answer.

Only the standard library speaks HTTP here, and only to the store URL the user gave (its
query, update and Graph Store Protocol endpoints); proxies from the environment are ignored.
"""

from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from http.client import HTTPResponse
from typing import Any

import pyoxigraph
from pyoxigraph import QueryResultsFormat, RdfFormat

from graph.errors import QueryError, StoreError
from graph.store.protocol import QueryResult

DEFAULT_TIMEOUT = 60.0
USER_ENV = "PAPERKG_STORE_USER"
PASSWORD_ENV = "PAPERKG_STORE_PASSWORD"
NETRC_ENV = "PAPERKG_STORE_NETRC"
#: Seconds to wait for the server, when the caller gives no `timeout` (open_store does not).
TIMEOUT_ENV = "PAPERKG_STORE_TIMEOUT"

SPARQL_JSON = "application/sparql-results+json"
N_TRIPLES = "application/n-triples"
N_QUADS = "application/n-quads"


class RemoteTriples:
    """The triples of a CONSTRUCT or DESCRIBE answer: iterable like pyoxigraph.QueryTriples."""

    def __init__(self, triples: list[pyoxigraph.Triple]) -> None:
        self._triples = triples

    def __iter__(self) -> Iterator[pyoxigraph.Triple]:
        return iter(self._triples)

    def __len__(self) -> int:
        return len(self._triples)

    def serialize(self, output: Any = None, format: RdfFormat | None = None) -> bytes | None:
        return pyoxigraph.serialize(self._triples, output, format or RdfFormat.N_TRIPLES)


def endpoints(url: str) -> tuple[str, str, str]:
    root = url.rstrip("/")
    parent, _, last = root.rpartition("/")
    if last in ("query", "sparql"):
        return root, f"{parent}/update", f"{parent}/store"
    return f"{root}/query", f"{root}/update", f"{root}/store"


def opener(user: str | None, password: str | None, urls: Iterable[str]
           ) -> urllib.request.OpenerDirector:
    """An opener that sends the login (if any) to `urls` and never goes through a proxy."""
    # urllib's default opener honours http_proxy; a store on loopback must not go through it.
    handlers: list[Any] = [urllib.request.ProxyHandler({})]
    if user is not None:
        logins = urllib.request.HTTPPasswordMgrWithDefaultRealm()
        for url in urls:
            logins.add_password(None, url, user, password or "")
        handlers += [urllib.request.HTTPDigestAuthHandler(logins),
                     urllib.request.HTTPBasicAuthHandler(logins)]
    return urllib.request.build_opener(*handlers)


def send(
    opener: urllib.request.OpenerDirector,
    method: str,
    url: str,
    *,
    timeout: float,
    body: bytes | None = None,
    content_type: str | None = None,
    accept: str | None = None,
    params: Sequence[tuple[str, str]] = (),
    action: str = "read",
    stream: bool = False,
) -> Any:
    """Send one request; the response (a stream when `stream`) or a StoreError/QueryError."""
    if params:
        url = f"{url}?{urllib.parse.urlencode(params)}"
    request = urllib.request.Request(url, data=body, method=method)
    if content_type:
        request.add_header("Content-Type", content_type)
    if accept:
        request.add_header("Accept", accept)
    try:
        response = opener.open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        detail = error_text(exc)
        if exc.code == 404 and method == "GET":
            return None
        if exc.code == 400 and action == "query":
            raise QueryError(
                f"the SPARQL store at {url} rejected the query: {detail}"
            ) from None
        raise StoreError(
            f"cannot {action} the SPARQL store at {url}: HTTP {exc.code} {exc.reason}"
            + (f": {detail}" if detail else "")
        ) from None
    except TimeoutError:
        raise StoreError(
            f"the SPARQL store at {url} did not answer within {timeout:g} s"
        ) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise StoreError(
                f"the SPARQL store at {url} did not answer within {timeout:g} s"
            ) from None
        text = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
        raise StoreError(f"cannot reach the SPARQL store at {url}: {text}") from None
    except OSError as exc:
        raise StoreError(f"cannot {action} the SPARQL store at {url}: {exc}") from None
    if stream:
        return response
    with response:
        try:
            return response.read()
        except OSError as exc:
            raise StoreError(f"cannot {action} the SPARQL store at {url}: {exc}") from None


def answer(response: HTTPResponse, endpoint: str) -> QueryResult:
    """A query's answer, parsed: QuerySolutions, QueryBoolean, or triples."""
    with response:
        media = (response.headers.get_content_type() or "").lower()
        cut = response.headers.get("X-SPARQL-MaxRows")
        if cut:
            raise StoreError(
                f"the SPARQL store at {endpoint} cut its answer at {cut} rows "
                "(Virtuoso's ResultSetMaxRows): raise that limit above the store's size"
            )
        try:
            data = response.read()
        except OSError as exc:
            raise StoreError(
                f"cannot read the answer of {endpoint}: {exc}"
            ) from None
    try:
        if media in (SPARQL_JSON, "application/json"):
            return pyoxigraph.parse_query_results(data, QueryResultsFormat.JSON)
        if media == "application/sparql-results+xml":
            return pyoxigraph.parse_query_results(data, QueryResultsFormat.XML)
        if media in (N_TRIPLES, "text/plain"):
            triples = pyoxigraph.parse(data, RdfFormat.N_TRIPLES)
            return RemoteTriples([q.triple for q in triples])
        if media == "text/turtle":
            return RemoteTriples([q.triple for q in pyoxigraph.parse(data, RdfFormat.TURTLE)])
    except SyntaxError as exc:
        raise StoreError(
            f"the SPARQL store at {endpoint} sent an answer that does not "
            f"parse: {exc}"
        ) from None
    raise StoreError(
        f"the SPARQL store at {endpoint} answered in {media or 'no media type'}, "
        "not SPARQL JSON results or N-Triples"
    )


def credentials(url: str, user: str | None, password: str | None
                 ) -> tuple[str | None, str | None]:
    """(user, password) for the store at `url`: the keywords, else the environment, else the
    netrc file $PAPERKG_STORE_NETRC names; (None, None) for no login."""
    if user is not None:
        return user, password
    if os.environ.get(USER_ENV):
        return os.environ[USER_ENV], os.environ.get(PASSWORD_ENV, "")
    path = os.environ.get(NETRC_ENV, "").strip()
    if not path:
        return None, None
    import netrc

    try:
        entry = netrc.netrc(path).authenticators(urllib.parse.urlsplit(url).hostname or "")
    except (OSError, netrc.NetrcParseError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a netrc file"
        raise StoreError(f"cannot read the store login file ${NETRC_ENV} ({path}): {reason}"
                         ) from None
    if entry is None:
        return None, None
    return entry[0], entry[2]


def env_timeout() -> float:
    value = os.environ.get(TIMEOUT_ENV, "").strip()
    if not value:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise StoreError(f"${TIMEOUT_ENV} must be a number of seconds above 0, not {value!r}")
    return seconds


def error_text(exc: urllib.error.HTTPError) -> str:
    try:
        body = exc.read(2000).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    if body.startswith("{"):
        try:
            body = json.dumps(json.loads(body))
        except ValueError:
            pass
    return " ".join(body.split())[:300]
