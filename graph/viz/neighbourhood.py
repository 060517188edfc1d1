"""Views of one node's neighbourhood: served pages and saved files (`paperkg viz`).

The neighbourhood is read from the store by the graph questions the web API asks
(graph.network.StoreGraph, or IndexGraph when the search index is built), so a view costs what
it draws, not the whole graph; networkx only holds the bounded subgraph that is drawn.

In the server vis-network is linked once from the static folder; `write_viz` inlines the copy
bundled with pyvis so that a saved file works offline.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from pathlib import Path

import networkx as nx

from graph import network
from graph.network import StoreGraph
from graph.store import Store
from graph.viz.data import DEFAULT_CAP, node_ref, view_data
from graph.viz.page import render_view
from graph.vocab import DEFAULT_BASE, LINKS

#: Nodes the second walk that counts a trimmed neighbourhood goes to; past them the page
#: says "more were left out" instead of a number.
TOTAL_CAP = 2000


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
    store: Store,
    node: str,
    *,
    depth: int = 1,
    types: Iterable[str] | None = None,
    limit: int = DEFAULT_CAP,
    base: str = DEFAULT_BASE,
    questions: StoreGraph | None = None,
) -> tuple[nx.DiGraph, bool, str]:
    """(subgraph, trimmed, centre id) of `node`, as StoreGraph.neighbourhood walks it from the
    store: within `depth` hops either way, through nodes of `types` only (the centre always
    stays), at most `limit` nodes, nearest and then most supported first.

    `questions` answers the walk (default: `graph.network.questions_for(store, base)`); only
    the nodes drawn are read, never the whole graph. The subgraph's nodes are in the walk's
    order (the centre, then by hops, support, id) and its edges sorted by (source, target),
    so a page is the same whatever Python's hash seed.
    """
    graph = questions if questions is not None else network.questions_for(store, base)
    centre = network.find_node(graph, node)
    nodes, edges, truncated = graph.neighbourhood(centre["iri"], depth=depth, types=types,
                                                  limit=limit)
    names = graph.aliases(item["iri"] for item in nodes)
    sub = nx.DiGraph(base=base)
    for item in nodes:
        sub.add_node(item["id"], iri=item["iri"], type=item["type"], label=item["label"],
                     support=item["support"], aliases=names.get(item["iri"], []))
    for edge in edges:
        ends = edge["source"], edge["target"]
        if sub.has_edge(*ends):
            relations = [*sub.edges[ends]["relation"].split(), edge["relation"]]
            # As the projection joins them: in the order graph.vocab lists the links.
            sub.edges[ends]["relation"] = " ".join(sorted(relations, key=LINKS.index))
        else:
            sub.add_edge(*ends, relation=edge["relation"])
    if truncated:
        # The page says how many nodes there were: walked again, as far as TOTAL_CAP nodes.
        most = max(TOTAL_CAP, limit + 1)
        whole, _, cut = graph.neighbourhood(centre["iri"], depth=depth, types=types,
                                            limit=most)
        sub.graph["total"] = None if cut else len(whole)
    return sub, truncated, centre["id"]


def write_viz(
    store: Store,
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
