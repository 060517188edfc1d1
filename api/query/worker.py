"""A query worker process: it opens the store read-only, drops its network access where the
system allows, and runs the jobs `api.query.runner.QueryRunner` sends it, one at a time,
answering with the serialized result (cut at the row cap) or the error.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib
import itertools
import json
import os
import re
import threading
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from graph.errors import QueryError
from graph.vocab import PREFIXES

if TYPE_CHECKING:
    from graph.store import Store

_POSITION = re.compile(r"error at (\d+):(\d+): ", re.DOTALL)

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000


def isolate_network() -> bool:
    """Move this process into a new network namespace (only a down loopback device).

    True when it worked. Tries plain CLONE_NEWNET (root), then a user namespace that maps
    our own uid and gid. Call it before any thread starts.
    """
    if not hasattr(os, "getuid") or not os.path.exists("/proc/self/ns/net"):
        return False
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    if libc.unshare(_CLONE_NEWNET) == 0:
        return True
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return False
    try:
        with open("/proc/self/setgroups", "w") as handle:
            handle.write("deny")
        with open("/proc/self/uid_map", "w") as handle:
            handle.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as handle:
            handle.write(f"{gid} {gid} 1")
    except OSError:
        pass  # still isolated; files keep their real owner for access checks
    return True


def open_read_only(location: str, opener: str = "graph.store:open_store") -> Any:
    """Open `location` read-only through `opener` ("module:function")."""
    module_name, _, function_name = opener.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, function_name)(location, read_only=True)


def _term_json(term: Any) -> dict[str, Any]:
    import pyoxigraph

    if isinstance(term, pyoxigraph.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, pyoxigraph.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, pyoxigraph.Literal):
        encoded: dict[str, Any] = {"type": "literal", "value": term.value}
        if term.language:
            encoded["xml:lang"] = term.language
            direction = getattr(term, "direction", None)
            if direction is not None:
                encoded["its:dir"] = str(direction).rsplit(".", 1)[-1].lower()
        elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            encoded["datatype"] = term.datatype.value
        return encoded
    if isinstance(term, pyoxigraph.Triple):
        return {"type": "triple", "value": {"subject": _term_json(term.subject),
                                            "predicate": _term_json(term.predicate),
                                            "object": _term_json(term.object)}}
    raise TypeError(f"unexpected term {term!r}")


def based(sparql: str, base_iri: str | None) -> str:
    """The query with `base_iri` as its base: a `BASE` declaration before its own prologue
    (on its first line, so that only that line's columns move). The Store protocol has no
    base parameter, and this works the same for the embedded store and a remote server."""
    return f"BASE <{base_iri}> {sparql}" if base_iri else sparql


def base_shift(base_iri: str | None) -> int:
    """How far `based` moves the first line's columns."""
    return len(based("", base_iri))


def _written(data: bytes | None) -> bytes:
    # pyoxigraph's serialize() gives None only when handed an output file, which it never is here
    if data is None:
        raise TypeError("pyoxigraph serialized to no bytes")
    return data


def execute(store: Store, job: dict[str, Any], known_rows: int | None = None
            ) -> tuple[bytes, str, int, bool]:
    """(body, form, rows, truncated) of `job` run on `store`. `known_rows` is the number of
    rows the same query gave on the same data before (None when not known): under the row cap,
    pyoxigraph writes the answer directly, as it does for a query whose own LIMIT keeps it
    under the cap. The bytes are the same either way; what is saved is building every row in
    Python to count it."""
    import pyoxigraph

    kwargs: dict[str, Any] = {}
    if job["default_graph"] is not None:
        kwargs["default_graph"] = job["default_graph"]
    if job["named_graphs"] is not None:
        kwargs["named_graphs"] = job["named_graphs"]
    result = store.query(based(job["sparql"], job.get("base_iri")), **kwargs)
    cap = job["row_cap"]
    if isinstance(result, pyoxigraph.QueryBoolean):
        fmt = getattr(pyoxigraph.QueryResultsFormat, job["results_format"])
        return _written(result.serialize(format=fmt)), "ASK", 1, False
    if isinstance(result, pyoxigraph.QuerySolutions):
        under_cap = job.get("limit") is not None and job["limit"] <= cap
        if under_cap or (known_rows is not None and 0 <= known_rows <= cap):
            # The query's own LIMIT, or its earlier run, keeps it under the cap: pyoxigraph
            # writes it all directly.
            fmt = getattr(pyoxigraph.QueryResultsFormat, job["results_format"])
            count = -1 if under_cap or known_rows is None else known_rows
            return _written(result.serialize(format=fmt)), "SELECT", count, False
        names = [variable.value for variable in result.variables]
        rows = list(itertools.islice(result, cap + 1))
        truncated = len(rows) > cap
        rows = rows[:cap]
        bindings = []
        for solution in rows:
            binding = {}
            for name, value in zip(names, solution, strict=True):
                if value is not None:
                    binding[name] = _term_json(value)
            bindings.append(binding)
        document: dict[str, Any] = {"head": {"vars": names}, "results": {"bindings": bindings}}
        if job["results_format"] == "JSON":
            # The SPARQL JSON results format itself, written once.
            if truncated:
                document["paperkg"] = {"truncated": True, "rowCap": cap,
                                       "note": f"results cut off after {cap} rows"}
            body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            return body, "SELECT", len(rows), truncated
        encoded = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        # pyoxigraph writes the other formats, so each follows its W3C spec exactly.
        fmt = getattr(pyoxigraph.QueryResultsFormat, job["results_format"])
        parsed = pyoxigraph.parse_query_results(encoded, pyoxigraph.QueryResultsFormat.JSON)
        body = _written(parsed.serialize(format=fmt))
        return body, "SELECT", len(rows), truncated
    triples = list(itertools.islice(result, cap + 1))
    truncated = len(triples) > cap
    triples = triples[:cap]
    fmt = getattr(pyoxigraph.RdfFormat, job["graph_format"])
    prefixes = PREFIXES if job["graph_format"] in {"TURTLE", "RDF_XML"} else None
    body = _written(pyoxigraph.serialize(triples, format=fmt, prefixes=prefixes))
    return body, "CONSTRUCT", len(triples), truncated


def reopen(store: Store, location: str, opener: str) -> Any:
    refresh = getattr(store, "refresh", None)
    if callable(refresh):
        refresh()
        return store
    del store
    return open_read_only(location, opener)


#: Seconds between two looks at whether the process that started this one is still there.
PARENT_CHECK_S = 0.5


def follow_parent(parent: int, interval: float = PARENT_CHECK_S) -> None:
    """Exit this process once `parent` is gone (it becomes another process's child).

    The parent stops a query at the time limit by killing this process; a parent killed from
    outside (`kill -9` of a server worker) cannot, and an orphan would run its query on. A
    closed pipe is only noticed between queries. (PR_SET_PDEATHSIG would follow the parent's
    thread that started this process, which the server may retire while the process lives.)
    """
    while True:
        time.sleep(interval)
        if os.getppid() != parent:
            os._exit(0)


def worker_main(conn: Connection, location: str, opener: str, isolate: bool) -> None:
    if isolate:
        isolate_network()
    # After isolate_network: a user namespace can only be entered by a single thread.
    threading.Thread(target=follow_parent, args=(os.getppid(),), daemon=True,
                     name="paperkg-follow-parent").start()
    generation: str | None = None
    try:
        store = open_read_only(location, opener)
    except Exception as exc:
        conn.send(("failed", f"cannot open the store at {location}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            if job.get("generation") != generation:
                if generation is not None:
                    store = reopen(store, location, opener)
                generation = job.get("generation")
            start = time.perf_counter()
            payload = execute(store, job)
            conn.send(("ok", payload, (time.perf_counter() - start) * 1000))
        except SyntaxError as exc:
            conn.send(("syntax", str(exc)))
        except QueryError as exc:
            # The store wraps the parser's SyntaxError ("invalid SPARQL query: error at 1:5").
            kind = "syntax" if _POSITION.search(str(exc)) else "error"
            conn.send((kind, str(exc)))
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
