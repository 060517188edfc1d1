"""HTML pages: home, search, paper and entity views, results, SPARQL UI, graph views.

One module per page; each registers its routes on the blueprint in `common`.
"""

from __future__ import annotations

from . import entity, home, paper, results, views
from .common import bp
from .highlight import Span, highlight

__all__ = ["Span", "bp", "entity", "highlight", "home", "paper", "results", "views"]
