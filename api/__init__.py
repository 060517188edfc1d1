"""paperkg's HTTP service: `create_app(config)` builds the Flask app.

Blueprints: `sparql` (the SPARQL 1.1 endpoint), `graph` (the JSON graph API, linked-data
resources, exports, health) and `pages` (the web UI, when installed). Settings are listed in
`api.settings`; the open store, the query runner and per-generation caches live in one
`Services` object (`api.context`) at `app.extensions["paperkg"]`. Per-client records (rate
limit, queries in flight, slow clients) live in a `api.query.clients.ClientTable` at
`app.extensions["paperkg_clients"]`: the one given as `CLIENT_TABLE` in the config (the server
shares one among its worker processes), else one of the app's own. Plain GETs of queries that
ran cheaply before are answered by `api.hot_path` in front of Flask.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask

from api import errors, limits, settings, templating
from api.context import Services, services
from api.query.clients import ClientTable

log = logging.getLogger(__name__)

__all__ = ["Services", "create_app", "services"]


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

    # Deferred heavy import: a query worker process imports this package (for
    # api.query.worker) and needs none of the blueprints, which load the graph library,
    # networkx and pyvis.
    from api import graph_api, hot_path, openapi, sparql

    errors.init_app(app)
    templating.init_app(app)
    limits.init_app(app, table)
    app.register_blueprint(sparql.bp)
    app.register_blueprint(graph_api.bp)
    app.register_blueprint(openapi.bp)
    try:
        from api import pages  # deferred like the blueprints above; optional
    except ImportError:
        log.info("api.pages is not installed: serving the APIs without the web pages")
    else:
        app.register_blueprint(pages.bp)
    app.wsgi_app = hot_path.HotPath(app)  # type: ignore[method-assign]
    return app
