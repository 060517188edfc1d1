"""Which store a location names, and opening it: `open_store`.

A folder (or ":memory:") is the embedded store; an http(s) URL a SPARQL 1.1 server, spoken to
by the backend its dialect names in BACKENDS. A new kind of server is one more entry there:
a class that implements graph.store.protocol.Store, usually a RemoteStore with its own hooks
(graph.store.virtuoso is the example).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

from graph.errors import StoreError
from graph.store.embedded import EmbeddedStore
from graph.store.protocol import Store

STORE_ENV = "PAPERKG_STORE"
DIALECT_ENV = "PAPERKG_STORE_DIALECT"
DEFAULT_LOCATION = os.path.join(".paperkg", "store")

#: Server dialects: the module and class of each backend, imported when a URL asks for it.
BACKENDS = {
    "sparql": ("graph.store.remote", "RemoteStore"),
    "virtuoso": ("graph.store.virtuoso", "VirtuosoStore"),
}


def open_store(location: str | None = None, *, read_only: bool = False,
               dialect: str | None = None) -> Store:
    """The store at `location`: a folder, ":memory:", or an http(s) URL of a SPARQL server.

    None means $PAPERKG_STORE, else `.paperkg/store` under the current folder. Opening for
    reading needs an existing store; opening for writing creates an empty one. A server's
    `dialect` (else $PAPERKG_STORE_DIALECT): "sparql" (any SPARQL 1.1 server with the
    Graph Store Protocol, the default) or "virtuoso".
    """
    if location is None:
        location = os.environ.get(STORE_ENV) or DEFAULT_LOCATION
    if location.startswith(("http://", "https://")):
        kind = (dialect or os.environ.get(DIALECT_ENV) or "sparql").strip().lower()
        if kind not in BACKENDS:
            raise StoreError(f"unknown store dialect {kind!r} (${DIALECT_ENV}): "
                             f"use {' or '.join(BACKENDS)}")
        module, name = BACKENDS[kind]
        backend: Callable[[str], Store] = getattr(importlib.import_module(module), name)
        return backend(location)
    return EmbeddedStore(location, read_only=read_only)
