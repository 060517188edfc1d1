"""The app's services: the open store, the query runner and per-generation caches, in one
`Services` object at `app.extensions["paperkg"]`; `services()` finds it from a view."""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from flask import current_app

from api.query import QueryRunner, open_read_only
from api.query.clients import ClientTable
from graph.errors import StoreError

if TYPE_CHECKING:
    from graph.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")


class Services:
    """The app's store (opened read-only on first use), query runner and caches."""

    def __init__(self, values: dict[str, Any], *, opener: str = "graph.store:open_store",
                 clients: ClientTable | None = None):
        self.settings = values
        self.opener = opener
        self.clients = clients
        self._store: Store | None = None
        self._runner: QueryRunner | None = None
        self._lock = threading.RLock()
        self._cache: dict[str, tuple[str, Any]] = {}

    @property
    def store(self) -> Store:
        """The store, reopened when its content changed on disk since it was opened."""
        with self._lock:
            if self._store is None:
                self._store = open_read_only(self.settings["store"], self.opener)
            else:
                try:
                    self._store.refresh()
                except StoreError:
                    log.exception("cannot reopen the store at %s", self.settings["store"])
            return self._store

    def generation(self) -> str:
        return str(self.store.generation())

    def opened_generation(self) -> str | None:
        """The generation on disk now of the store as this object opened it, without reopening
        it; None before it is opened."""
        store = self._store
        return None if store is None else store.generation()

    @property
    def runner(self) -> QueryRunner:
        runner = self._runner  # asked on every query: no lock once made
        if runner is not None:
            return runner
        with self._lock:
            if self._runner is None:
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
            return sorted(str(g) for g in self.store.named_graphs())

        return self.cached("named_graphs", compute)

    def close(self) -> None:
        with self._lock:
            if self._runner is not None:
                self._runner.close()
                self._runner = None
            if self._store is not None:
                self._store.close()
                self._store = None


def services() -> Services:
    """The Services object of the current app."""
    return current_app.extensions["paperkg"]  # type: ignore[no-any-return]
