"""Views of one node's neighbourhood: served pages and saved files (`paperkg viz`).

In the server vis-network is linked once from the static folder; `write_viz` inlines the copy
bundled with pyvis so that a saved file works offline.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any

import networkx as nx

from graph import network
from graph.viz.data import DEFAULT_CAP, node_ref, view_data
from graph.viz.page import render_view
from graph.vocab import DEFAULT_BASE


def neighbourhood_html(
    graph: nx.Graph,
    *,
    title: str,
    cap: int = DEFAULT_CAP,
    trimmed: bool = False,
    static_url: str = "/static",
    centre: Hashable | None = None,
    embed: bool = False,
    link_base: str | None = "/id",
    inline_lib: bool = False,
    base: str = DEFAULT_BASE,
) -> str:
    """A page drawing the neighbourhood `graph` (already cut to depth and types).

    `trimmed` says the caller already left nodes out (the page says so); the view also trims
    to `cap` itself, keeping the nodes nearest `centre`.
    """
    data = view_data(graph, cap=cap, centre=centre, link_base=link_base, base=base)
    if trimmed and not data["trimmed"]:
        # Trimmed upstream: the graph may say how many nodes there were.
        data["trimmed"] = True
        data["total"] = graph.graph.get("total")
    hint = None
    if centre is not None and centre in graph:
        attrs = graph.nodes[centre]
        hint = str(attrs.get("label") or node_ref(centre, attrs, base)[1])
    return render_view(
        data, title=title, static_url=static_url, inline_lib=inline_lib, embed=embed,
        centre_hint=hint,
    )


def neighbourhood_subgraph(
    store: Any,
    node: str,
    *,
    depth: int = 1,
    types: Iterable[str] | None = None,
    limit: int = DEFAULT_CAP,
    base: str = DEFAULT_BASE,
) -> tuple[nx.DiGraph, bool, str]:
    """(subgraph, trimmed, centre id) of `node`, as graph.network.neighbourhood walks it:
    within `depth` hops either way, through nodes of `types` only (the centre always stays),
    at most `limit` nodes, nearest and then most supported first.
    """
    full = network.projection(store, base)
    centre = network.resolve(full, node, base)
    found = network.neighbourhood(full, centre, depth=depth, types=types, limit=limit)
    sub = full.subgraph(item["id"] for item in found.nodes).copy()
    if found.truncated:
        # The page says how many nodes were left out; the walk is in memory and cheap.
        whole = network.neighbourhood(full, centre, depth=depth, types=types, limit=len(full))
        sub.graph["total"] = len(whole.nodes)
    return sub, found.truncated, centre


def write_viz(
    store: Any,
    node: str,
    *,
    depth: int = 1,
    types: Iterable[str] | None = None,
    limit: int = DEFAULT_CAP,
    out_path: str | Path,
    base: str = DEFAULT_BASE,
) -> Path:
    """Write the neighbourhood of `node` as one self-contained HTML file (vis-network inlined).

    The file needs no server and no network; clicking a node opens its IRI.
    """
    sub, trimmed, centre = neighbourhood_subgraph(
        store, node, depth=depth, types=types, limit=limit, base=base
    )
    label = str(sub.nodes[centre].get("label") or node)
    html = neighbourhood_html(
        sub, title=f"Neighbourhood of {label}", cap=limit, trimmed=trimmed, centre=centre,
        link_base=None, inline_lib=True, base=base,
    )
    path = Path(out_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
    return path
