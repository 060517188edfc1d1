"""Fixtures of the HTTP tests: the hand-made fixture graph in an embedded store, apps with
lowered limits, and a live server on a loopback port for real SPARQL clients."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest
from werkzeug.serving import make_server

from api import create_app

DATA = Path(__file__).parent / "data"
FIXTURE = DATA / "fixture.trig"
BASE = "https://w3id.org/paperkg/id/"
PKG = "https://w3id.org/paperkg/ns#"
PROVENANCE = BASE + "graph/provenance"


def make_store(folder: Path) -> str:
    """The fixture graph as an embedded store folder, closed again (readers open it)."""
    location = folder / "store"
    store = pyoxigraph.Store(str(location))
    store.load(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG)
    store.flush()
    del store
    return str(location)


@pytest.fixture(scope="session")
def store_location(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_store(tmp_path_factory.mktemp("api-store"))


@pytest.fixture(scope="session")
def exports_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("exports")
    (folder / "graph.ttl").write_text("<urn:a> <urn:b> <urn:c> .\n", encoding="utf-8")
    (folder / "report.json").write_text('{"papers": 12}\n', encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "inner.nt").write_text("<urn:a> <urn:b> <urn:d> .\n", encoding="utf-8")
    # A file beside the folder that traversal must never reach.
    (folder.parent / "secret.txt").write_text("secret\n", encoding="utf-8")
    return folder


def _app(store_location: str, exports_dir: Path, **overrides: Any) -> Any:
    config: dict[str, Any] = {
        "TESTING": True,
        "store": store_location,
        "exports_dir": str(exports_dir),
        "query_time_limit_ms": 5000,
        "row_cap": 1000,
        "query_workers": 2,
        "rate_limit": 0,
        "cors_origins": "https://allowed.example",
    }
    config.update(overrides)
    return create_app(config)


@pytest.fixture(scope="session")
def app(store_location: str, exports_dir: Path) -> Iterator[Any]:
    application = _app(store_location, exports_dir)
    yield application
    application.extensions["paperkg"].close()


@pytest.fixture(scope="session")
def make_app(store_location: str, exports_dir: Path) -> Iterator[Any]:
    """Factory of apps with other settings; each is closed at the end of the session."""
    made: list[Any] = []

    def factory(**overrides: Any) -> Any:
        application = _app(store_location, exports_dir, **overrides)
        made.append(application)
        return application

    yield factory
    for application in made:
        application.extensions["paperkg"].close()


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


class LiveServer:
    def __init__(self, app: Any):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server(app: Any) -> Iterator[LiveServer]:
    with LiveServer(app) as server:
        yield server
