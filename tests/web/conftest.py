"""Fixtures of the web tests: the fixture graph in a store, the app over it, a live server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest
from flask import Flask
from werkzeug.serving import make_server

FIXTURE = Path(__file__).parent / "data" / "fixture.trig"
HOSTILE_KEY = "hostile01"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"


def load_fixture(location: str) -> None:
    """Write the fixture graph into a store at `location` (a folder)."""
    from graph.store import open_store

    target = open_store(location)
    try:
        target.replace_all(
            pyoxigraph.parse(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG)
        )
    finally:
        target.close()


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    location = str(tmp_path_factory.mktemp("web") / "store")
    load_fixture(location)
    return location


@pytest.fixture(scope="session")
def store(store_path: str) -> Iterator[Any]:
    from graph.store import open_store

    opened = open_store(store_path, read_only=True)
    yield opened
    opened.close()


def make_app(store_path: str) -> Flask:
    """The whole app (api.create_app) over the store at `store_path`, with test limits."""
    from api import create_app

    return create_app({
        "store": store_path,
        "TESTING": True,
        # The browser tests load many pages and scripts quickly from one address.
        "rate_limit": 0,
        "query_workers": 1,
    })


@pytest.fixture(scope="session")
def app(store_path: str) -> Iterator[Flask]:
    application = make_app(store_path)
    yield application
    application.extensions["paperkg"].close()


@pytest.fixture()
def client(app: Flask) -> Any:
    return app.test_client()


@pytest.fixture(scope="session")
def live_server(app: Flask) -> Iterator[str]:
    """The app on a random loopback port, served from a thread."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
