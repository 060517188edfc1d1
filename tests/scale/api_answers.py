"""The graph API's answers to a fixed set of requests, for comparing store backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

URLS = ("/api/neighbourhood?node=task/question-answering&depth=2",
        "/api/neighbourhood?node=method/contrastive-learning&depth=2&limit=4",
        "/api/neighbourhood?node=GNN", "/api/path?from=paper/p07&to=paper/p09",
        "/api/path?from=dataset/squad&to=dataset/cora", "/api/similar?paper=p07&k=3",
        "/api/search?q=bert", "/api/entities?type=method", "/api/entities?q=graph",
        "/api/entities/dataset/cora", "/api/papers?per_page=5&page=2", "/api/papers/p01")


def api_answers(location: str, exports: Path) -> dict[str, Any]:
    """{url: JSON answer} of an app on the store at `location` (every answer a 200)."""
    from api import create_app

    app = create_app({"TESTING": True, "store": location, "rate_limit": 0,
                      "exports_dir": str(exports)})
    client = app.test_client()
    try:
        answers = {}
        for url in URLS:
            response = client.get(url)
            if response.status_code != 200:
                raise AssertionError(f"{location} {url}: {response.status_code} "
                                     f"{response.data[:300]!r}")
            answers[url] = response.get_json()
        return answers
    finally:
        app.extensions["paperkg"].close()
