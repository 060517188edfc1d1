"""Fixtures of the web tests: the fixture graph in a store, the app over it, a live server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from .web_fixture import load_fixture, make_app


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
