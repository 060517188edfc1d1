"""A view's data: nodes, edges and vis-network options of a networkx subgraph, through
pyvis's `Network` (so its normalisation rules apply), capped at a number of nodes.

Safety: every string from the graph (labels, aliases, claim text) reaches the page
(graph.viz.page) only as JSON or as autoescaped text. Tooltips are plain text, which
vis-network sets with `innerText`.

Speed: physics runs a bounded number of stabilisation iterations with straight edges, then
is switched off on `stabilizationIterationsDone`, so a page is still and interactive as soon
as the layout is computed (bench/bench_viz.py measures this against pyvis's defaults).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

import networkx as nx
from pyvis.network import Network

from graph.viz.styles import MORE_STYLE, NODE_STYLES, OTHER_STYLE, RELATION_LABELS
from graph.vocab import DEFAULT_BASE

#: Largest number of nodes a view shows; bigger subgraphs are trimmed (and the page says so).
DEFAULT_CAP = 150
LABEL_CHARS = 40


def node_ref(node: Hashable, attrs: Mapping[str, Any], base: str = DEFAULT_BASE) -> tuple[str, str]:
    """(type, slug) of a node given as an IRI under `base`, a "type/slug" ref or with attrs."""
    if attrs.get("type") and attrs.get("slug"):
        return str(attrs["type"]), str(attrs["slug"])
    text = str(attrs.get("iri") or node)
    if text.startswith(base):
        text = text[len(base) :]
    elif "/id/" in text:
        text = text.rsplit("/id/", 1)[1]
    type_, _, slug = text.partition("/")
    if not slug:
        return str(attrs.get("type") or "other"), type_
    return str(attrs.get("type") or type_), slug


def _relation_words(attrs: Mapping[str, Any]) -> str:
    """The words an edge shows: graph.network joins several relations with spaces."""
    raw = str(attrs.get("relation") or attrs.get("predicate") or attrs.get("label") or "")
    words = []
    for name in raw.split():
        # An IRI or a prefixed name: keep the local name.
        for sep in ("#", "/", ":"):
            name = name.rsplit(sep, 1)[-1]
        words.append(RELATION_LABELS.get(name, name))
    return ", ".join(words)


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _support(attrs: Mapping[str, Any]) -> int:
    try:
        return max(int(attrs.get("support") or attrs.get("count") or 0), 0)
    except (TypeError, ValueError):
        return 0


def cap_graph(
    graph: nx.Graph, cap: int, *, centre: Hashable | None = None
) -> tuple[nx.Graph, bool]:
    """At most `cap` nodes of `graph`: the centre first, then by hops from it, then support.

    Returns the subgraph and whether anything was left out.
    """
    if cap < 1:
        raise ValueError(f"cap must be at least 1, not {cap}")
    if graph.number_of_nodes() <= cap:
        return graph, False
    distance: dict[Hashable, int] = {}
    if centre is not None and centre in graph:
        undirected = graph.to_undirected(as_view=True)
        distance = dict(nx.single_source_shortest_path_length(undirected, centre))
    far = len(graph) + 1
    ranked = sorted(
        graph.nodes(data=True),
        key=lambda item: (
            distance.get(item[0], far),
            -_support(item[1]),
            -graph.degree(item[0]),
            str(item[0]),
        ),
    )
    keep = [node for node, _ in ranked[:cap]]
    return graph.subgraph(keep).copy(), True


def tooltip(type_: str, attrs: Mapping[str, Any], label: str) -> str:
    """Plain text: vis-network sets it with innerText, so nothing here is markup."""
    name = NODE_STYLES.get(type_, OTHER_STYLE)[0]
    lines = [f"{name}: {label}"]
    support = _support(attrs)
    if type_ == "paper":
        if attrs.get("year"):
            lines.append(f"Year: {attrs['year']}")
    elif type_ == "more":
        pass
    elif support:
        lines.append(f"Support: {support} paper{'s' if support != 1 else ''}")
    aliases = [str(a) for a in attrs.get("aliases") or () if str(a) != label]
    if aliases:
        lines.append("Also: " + ", ".join(sorted(aliases)[:8]))
    if type_ == "claim" and attrs.get("text"):
        lines.append(shorten(str(attrs["text"]), 300))
    return "\n".join(lines)


def _physics(n_nodes: int) -> dict[str, Any]:
    # Iterations grow slowly with size and are bounded; the layout is frozen afterwards anyway.
    iterations = int(min(300, 60 + 25 * math.log2(max(n_nodes, 2))))
    return {
        "enabled": True,
        "solver": "barnesHut",
        "barnesHut": {
            "gravitationalConstant": -6000,
            "centralGravity": 0.35,
            "springLength": 130,
            "springConstant": 0.05,
            "damping": 0.6,
            "avoidOverlap": 0.2,
        },
        "maxVelocity": 60,
        "minVelocity": 1.5,
        "timestep": 0.6,
        "adaptiveTimestep": True,
        "stabilization": {
            "enabled": True,
            "iterations": iterations,
            "updateInterval": iterations,
            "fit": True,
        },
    }


def view_options(n_nodes: int) -> dict[str, Any]:
    """vis-network options of a view with `n_nodes` nodes."""
    return {
        "autoResize": True,
        "nodes": {
            "borderWidth": 1,
            "font": {"size": 13, "face": "system-ui, sans-serif", "color": "#222"},
            "scaling": {"min": 8, "max": 36, "label": {"enabled": False}},
        },
        "edges": {
            # Straight edges: dynamic smoothing adds a physics body per edge.
            "smooth": False,
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.45}},
            "color": {"color": "#a9a9a9", "highlight": "#333333", "hover": "#555555"},
            "font": {"size": 9, "align": "middle", "color": "#666666", "strokeWidth": 2},
            "width": 1,
        },
        "layout": {"randomSeed": 7, "improvedLayout": n_nodes <= 100},
        "interaction": {
            "hover": True,
            "tooltipDelay": 120,
            "hideEdgesOnDrag": n_nodes > 200,
            "navigationButtons": False,
            "keyboard": False,
        },
        "physics": _physics(n_nodes),
    }


def view_data(
    graph: nx.Graph,
    *,
    cap: int = DEFAULT_CAP,
    centre: Hashable | None = None,
    link_base: str | None = "/id",
    base: str = DEFAULT_BASE,
) -> dict[str, Any]:
    """Nodes, edges and options of a view, through pyvis's `Network`, capped at `cap` nodes.

    Node links are `{link_base}/{type}/{slug}`; with `link_base=None` a node links to its IRI.
    """
    total = graph.number_of_nodes()
    shown, trimmed = cap_graph(graph, cap, centre=centre)
    net = Network(directed=shown.is_directed(), cdn_resources="remote")
    ids: dict[Hashable, str] = {}
    for node, attrs in shown.nodes(data=True):
        type_, slug = node_ref(node, attrs, base)
        if type_ == "more":
            label = str(attrs.get("label") or "more")
        elif type_ == "claim":
            label = "claim"
        else:
            label = str(attrs.get("label") or slug)
        name, colour, shape = NODE_STYLES.get(type_, MORE_STYLE if type_ == "more" else OTHER_STYLE)
        node_id = f"{type_}/{slug}"
        ids[node] = node_id
        extra: dict[str, Any] = {}
        if type_ not in ("more", "other"):
            extra["url"] = (
                f"{link_base}/{type_}/{slug}" if link_base is not None else f"{base}{type_}/{slug}"
            )
        net.add_node(
            node_id,
            label=shorten(label),
            title=tooltip(type_, attrs, label),
            color=colour,
            shape=shape,
            # Size shows how many papers name an entity; a paper's own count would dwarf them.
            value=1 if type_ == "paper" else max(_support(attrs), 1),
            group=type_,
            **extra,
        )
        # pyvis drops `color` when a group is given; the colour is what the legend shows.
        net.nodes[-1]["color"] = colour
        if node == centre:
            net.nodes[-1]["borderWidth"] = 4
    for u, v, attrs in shown.edges(data=True):
        words = _relation_words(attrs)
        net.add_edge(ids[u], ids[v], label=words, title=words)
    return {
        "nodes": net.nodes,
        "edges": net.edges,
        "options": view_options(len(net.nodes)),
        "total": total,
        "shown": len(net.nodes),
        "trimmed": trimmed,
        "cap": cap,
    }
