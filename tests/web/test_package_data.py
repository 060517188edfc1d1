"""The templates and scripts that the views and pages read at run time are package data that
pyproject.toml ships, so an installed wheel draws the same pages as the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READ_AT_RUN_TIME = {
    "graph.viz": ["templates", "static"],
    "api": ["templates", "static"],
}


def _shipped(package: str) -> set[Path]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"].get(package, [])
    folder = ROOT / package.replace(".", "/")
    return {path for pattern in globs for path in folder.glob(pattern) if path.is_file()}


@pytest.mark.parametrize("package", sorted(READ_AT_RUN_TIME))
def test_every_template_and_script_is_shipped(package: str) -> None:
    folder = ROOT / package.replace(".", "/")
    wanted = {path for sub in READ_AT_RUN_TIME[package]
              for path in (folder / sub).rglob("*") if path.is_file()}
    assert wanted, f"no files under {folder}"
    missing = sorted(str(path.relative_to(ROOT)) for path in wanted - _shipped(package))
    assert missing == []


def test_the_view_page_reads_its_template_and_script_from_the_package() -> None:
    from graph.viz import page

    script = (ROOT / "graph/viz/static/view.js").read_text(encoding="utf-8")
    html = page.render_view({"nodes": [], "edges": [], "options": {}, "trimmed": False,
                             "shown": 0, "total": 0, "cap": 10}, title="Empty")
    assert f"<script>\n{script}</script>" in html
    assert html.startswith("<!doctype html>\n<html lang=\"en\">")
    assert '<p id="graph-empty">Nothing to show.</p>' in html
