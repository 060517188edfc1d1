"""paperkg's HTTP service: `create_app(config)` builds the Flask app.

Blueprints: `sparql` (the SPARQL 1.1 endpoint), `graph` (the JSON graph API, linked-data
resources, exports, health) and `pages` (the web UI, when installed). Settings are listed in
`api.settings`; the open store, the query runner and per-generation caches live in one
`Services` object at `app.extensions["paperkg"]`. Per-client records (rate limit, queries in
flight, slow clients) live in a `api.query.clients.ClientTable` at
`app.extensions["paperkg_clients"]`: the one given as `CLIENT_TABLE` in the config (the server
shares one among its worker processes), else one of the app's own.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import Flask, current_app

from api import errors, settings
from api.query.clients import ClientTable
from graph.errors import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")


class Services:
    """The app's store (opened read-only on first use), query runner and caches."""

    def __init__(self, values: dict[str, Any], *, opener: str = "graph.store:open_store",
                 clients: ClientTable | None = None):
        self.settings = values
        self.opener = opener
        self.clients = clients
        self._store: Any = None
        self._runner: Any = None
        self._lock = threading.RLock()
        self._cache: dict[str, tuple[str, Any]] = {}

    @property
    def store(self) -> Any:
        """The store, reopened when its content changed on disk since it was opened."""
        with self._lock:
            if self._store is None:
                from api.query import open_read_only

                self._store = open_read_only(self.settings["store"], self.opener)
            else:
                refresh = getattr(self._store, "refresh", None)
                if callable(refresh):
                    try:
                        refresh()
                    except StoreError:
                        log.exception("cannot reopen the store at %s", self.settings["store"])
            return self._store

    def generation(self) -> str:
        return str(self.store.generation())

    @property
    def runner(self) -> Any:
        with self._lock:
            if self._runner is None:
                from api.query import QueryRunner

                self._runner = QueryRunner(
                    self.settings["store"], workers=self.settings["query_workers"],
                    time_limit_ms=self.settings["query_time_limit_ms"],
                    row_cap=self.settings["row_cap"], opener=self.opener,
                    clients=self.clients, cheap_ms=self.settings["cheap_query_ms"])
                atexit.register(self._runner.close)
            return self._runner

    def cached(self, name: str, compute: Callable[[], T]) -> T:
        """`compute()` once per store generation."""
        generation = self.generation()
        with self._lock:
            hit = self._cache.get(name)
            if hit is not None and hit[0] == generation:
                return hit[1]  # type: ignore[no-any-return]
        value = compute()
        with self._lock:
            self._cache[name] = (generation, value)
        return value

    def named_graphs(self) -> list[str]:
        def compute() -> list[str]:
            listed = getattr(self.store, "named_graphs", None)
            if callable(listed):
                return sorted(str(g) for g in listed())
            rows = self.store.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")
            return sorted(row["g"].value for row in rows)

        return self.cached("named_graphs", compute)

    def close(self) -> None:
        with self._lock:
            if self._runner is not None:
                self._runner.close()
                self._runner = None
            if self._store is not None:
                close = getattr(self._store, "close", None)
                if callable(close):
                    close()
                self._store = None


def services() -> Services:
    """The Services object of the current app."""
    return current_app.extensions["paperkg"]  # type: ignore[no-any-return]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The paperkg web app. `config` holds setting values (see `api.settings`) and any Flask
    configuration (upper-case keys such as TESTING)."""
    config = dict(config or {})
    values = settings.resolve({k: v for k, v in config.items() if k.lower() in settings.BY_NAME})
    app = Flask(__name__)
    for key, value in config.items():
        if key.lower() not in settings.BY_NAME:
            app.config[key] = value
    app.config["PAPERKG_SETTINGS"] = values
    app.config["PAPERKG_BASE_IRI"] = values["base_iri"]
    app.config["MAX_CONTENT_LENGTH"] = values["max_request_bytes"]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    table = config.get("CLIENT_TABLE")
    if table is None:
        table = ClientTable()
    app.extensions["paperkg_clients"] = table
    app.extensions["paperkg"] = Services(
        values, opener=str(config.get("STORE_OPENER", "graph.store:open_store")), clients=table)

    from api import graph_api, limits, openapi, sparql

    errors.init_app(app)
    limits.init_app(app, table)
    app.register_blueprint(sparql.bp)
    app.register_blueprint(graph_api.bp)
    app.register_blueprint(openapi.bp)
    try:
        from api import pages
    except ImportError:
        log.info("api.pages is not installed: serving the APIs without the web pages")
    else:
        app.register_blueprint(pages.bp)
    return app
