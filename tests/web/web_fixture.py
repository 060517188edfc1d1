"""What the web tests and tests/web/screenshots.py share: the fixture graph and the app.

A module of its own (not conftest) so that its name cannot clash with other test folders'.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph
from flask import Flask

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
