"""docs/api.md documents every setting and every API route."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.settings import SETTINGS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [setting.name for setting in SETTINGS])
def test_setting_is_documented(name):
    rows = [line for line in DOC.splitlines() if line.startswith(f"| `{name}` |")]
    assert rows, f"setting {name} is missing from the settings table of docs/api.md"


def test_every_setting_has_help():
    for setting in SETTINGS:
        assert setting.help.strip(), setting.name


@pytest.mark.parametrize("route", ["/sparql", "/api/papers", "/api/papers/{key}",
                                   "/api/entities", "/api/entities/{type}/{slug}",
                                   "/api/search", "/api/neighbourhood", "/api/path",
                                   "/api/similar", "/id/{type}/{slug}", "/exports/",
                                   "/healthz", "/openapi.json"])
def test_route_is_documented(route):
    assert f"`{route}" in DOC or f"GET {route}" in DOC, route
