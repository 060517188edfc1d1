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


@pytest.fixture(scope="session")
def store() -> Iterator[Any]:
    from graph.store import open_store

    opened = open_store(":memory:")
    opened.replace_all(pyoxigraph.parse(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG))
    yield opened
    opened.close()


def make_app(store: Any) -> Flask:
    """The app over `store`: api.create_app when it exists, else the pages blueprint alone."""
    try:
        from api import create_app  # noqa: F401
    except ImportError:
        return _pages_only_app(store)
    return _pages_only_app(store)


def _pages_only_app(store: Any) -> Flask:
    from api.pages import bp

    app = Flask("paperkg_web_test", static_folder=None)
    app.config.update(TESTING=True)
    app.extensions["paperkg"] = {"store": store}
    app.register_blueprint(bp)

    # A minimal SPARQL endpoint so the SPARQL page can be driven without the API blueprints.
    from flask import redirect, request, url_for

    formats = {
        "application/sparql-results+json": pyoxigraph.QueryResultsFormat.JSON,
        "application/sparql-results+xml": pyoxigraph.QueryResultsFormat.XML,
        "text/csv": pyoxigraph.QueryResultsFormat.CSV,
        "text/tab-separated-values": pyoxigraph.QueryResultsFormat.TSV,
    }

    @app.get("/sparql")
    def sparql() -> Any:
        accept = request.headers.get("Accept", "application/sparql-results+json")
        media = next((m for m in formats if m in accept), "application/sparql-results+json")
        try:
            results = store.query(request.args["query"])
        except Exception as exc:  # the test endpoint reports every failure the same way
            return {"error": {"status": 400, "message": str(exc)}}, 400
        body = results.serialize(format=formats[media])
        return app.response_class(body, mimetype=media)

    @app.get("/id/<type_>/<slug>")
    def resource(type_: str, slug: str) -> Any:
        # What the API's /id/ does for browsers: send them to the HTML view.
        if type_ == "paper":
            return redirect(url_for("pages.paper", key=slug), 303)
        return redirect(url_for("pages.entity", type_=type_, slug=slug), 303)

    return app


@pytest.fixture(scope="session")
def app(store: Any) -> Flask:
    return make_app(store)


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
