"""HTML pages: home, paper and entity views, results table, SPARQL UI, graph views."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static")
