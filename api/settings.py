"""Named settings of the HTTP service: each has a name, a default and help text.

`create_app(config)` reads them from the mapping it is given (keys are setting names, case
insensitive), else from the environment (`PAPERKG_<NAME>`), else the default. docs/api.md
lists every setting; tests/api/test_docs.py fails when one is missing there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graph.errors import PaperkgError


class SettingError(PaperkgError):
    """A setting has a value of the wrong type or out of range."""


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    help: str
    minimum: int | None = None

    def coerce(self, value: Any) -> Any:
        """Convert a value from a mapping or the environment to the default's type."""
        if isinstance(self.default, bool):
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
                    raise SettingError(
                        f"setting {self.name}: expected true or false, got {value!r}")
                return lowered in {"1", "true", "yes", "on"}
            return bool(value)
        if isinstance(self.default, int):
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise SettingError(
                    f"setting {self.name}: expected an integer, got {value!r}"
                ) from None
            if self.minimum is not None and number < self.minimum:
                raise SettingError(
                    f"setting {self.name}: must be at least {self.minimum}, got {number}"
                )
            return number
        if isinstance(self.default, tuple):
            if isinstance(value, str):
                return tuple(part.strip() for part in value.split(",") if part.strip())
            return tuple(str(part) for part in value)
        return str(value)


SETTINGS: tuple[Setting, ...] = (
    Setting("store", ".paperkg/store", "Store location: a folder (embedded Oxigraph) or the URL "
            "of a SPARQL 1.1 server"),
    Setting("base_iri", "https://w3id.org/paperkg/id/", "Base IRI of the graph's resources; "
            "`/id/{type}/{slug}` serves `<base>{type}/{slug}`"),
    Setting("query_time_limit_ms", 10_000, "Time limit for one SPARQL query in milliseconds; "
            "the worker running a query past it is stopped and the client gets 503", minimum=1),
    Setting("row_cap", 10_000, "Most result rows (SELECT) or triples (CONSTRUCT/DESCRIBE) "
            "returned for one query; more are cut off and flagged with "
            "`X-Paperkg-Truncated: true`", minimum=1),
    Setting("query_workers", 2, "Worker processes that run SPARQL queries, each holding the "
            "store open read-only", minimum=1),
    Setting("cheap_query_ms", 20, "A query that ran in a query worker within this many "
            "milliseconds runs again (same text, dataset, result format and store generation) "
            "in the server process itself, without the hand-off to a worker, and a plain GET "
            "of it is answered in front of Flask (`api/hot_path.py`); 0 turns both off",
            minimum=0),
    Setting("max_queries_in_flight", 2, "SPARQL queries one client address may have in flight "
            "(waiting for a query worker or running) across all worker processes of the "
            "server; one more gets 429 with Retry-After before it takes a worker; 0 turns the "
            "cap off", minimum=0),
    Setting("rate_limit", 600, "Requests per minute allowed per client IP address across all "
            "worker processes of the server (token bucket refill rate); 0 turns rate limiting "
            "off", minimum=0),
    Setting("rate_limit_burst", 60, "Requests a client may make at once before the rate "
            "limit applies (token bucket size)", minimum=1),
    Setting("cors_origins", (), "Origins allowed to read responses from a browser "
            "(comma-separated, `*` for any); empty: no CORS headers"),
    Setting("max_request_bytes", 1_000_000, "Largest request (query string plus body) "
            "accepted; larger ones get 413", minimum=1),
    Setting("exports_dir", "exports", "Folder whose files `/exports/{file}` serves"),
    Setting("graph_node_limit", 500, "Most nodes `/api/neighbourhood` may return; its "
            "`limit` parameter may ask for fewer", minimum=1),
    Setting("viz_node_cap", 150, "Most nodes a `/viz/*` view draws; larger neighbourhoods "
            "are trimmed (and the page says so) so that physics settles in seconds", minimum=1),
)

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}


def resolve(config: Mapping[str, Any] | None = None,
            environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Settings from `config`, then `PAPERKG_<NAME>` environment variables, then defaults."""
    given = {str(key).lower(): value for key, value in (config or {}).items()}
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        if setting.name in given:
            values[setting.name] = setting.coerce(given[setting.name])
        elif f"PAPERKG_{setting.name.upper()}" in environ:
            values[setting.name] = setting.coerce(environ[f"PAPERKG_{setting.name.upper()}"])
        else:
            values[setting.name] = setting.default
    if not values["base_iri"].endswith(("/", "#")):
        raise SettingError(f"setting base_iri: must end with / or #, got {values['base_iri']!r}")
    return values
