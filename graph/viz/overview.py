"""The overview: papers linked through the entities they share, grouped into communities.

Read from the store with a few bounded SPARQL queries (no whole-graph projection): the entities
named by at least two papers (and by at most a fifth of the cap), most papers first, then those
entities' paper links. Entities are taken greedily while they fit under the cap together with
all their papers, those sharing a paper with the picture so far first, so every entity drawn
has all its papers and links at least two of them. networkx's Louvain method (fixed seed)
groups the bipartite paper-entity graph into communities, each named by its best-connected
entities; the page colours nodes by community and draws them with graph.viz's template.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from pyvis.network import Network

from graph.store import Store, solutions
from graph.viz.data import DEFAULT_CAP, node_ref, shorten, view_options
from graph.viz.data import tooltip as node_tooltip
from graph.viz.page import render_view
from graph.viz.styles import NODE_STYLES, OTHER_STYLE
from graph.vocab import CLASSES, CONCEPT_TYPES, DEFAULT_BASE, LINKS, PKG

#: Classes the overview draws (local names under pkg:), with their type names.
ENTITY_CLASSES = {CLASSES[type_]: type_ for type_ in CONCEPT_TYPES}
SEED = 7
#: Community colours (Tableau 10 and its light variants); communities beyond them are grey.
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#a0cbe8", "#ffbe7d", "#8cd17d", "#86bcb6", "#f1ce63")
REST_COLOUR = "#bab0ac"
NAME_ENTITIES = 3
#: No entity drawn has more papers than cap // ENTITY_SHARE (and 2 at least).
ENTITY_SHARE = 5
#: The smallest cap: one entity and the two papers it links.
MIN_CAP = 3
ENTITY_FONT = 22
PAPER_FONT = 16


@dataclass
class Community:
    number: int
    name: str
    colour: str
    papers: int
    entities: int


@dataclass
class Overview:
    graph: nx.Graph
    communities: list[Community] = field(default_factory=list)
    papers_total: int = 0
    entities_total: int = 0
    cap: int = DEFAULT_CAP

    @property
    def papers_shown(self) -> int:
        return sum(1 for _, a in self.graph.nodes(data=True) if a["type"] == "paper")

    @property
    def entities_shown(self) -> int:
        return self.graph.number_of_nodes() - self.papers_shown

    @property
    def trimmed(self) -> bool:
        return self.papers_shown < self.papers_total or self.entities_shown < self.entities_total


def _prologue() -> str:
    return (f"PREFIX pkg: <{PKG}>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
            "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
            "PREFIX dcterms: <http://purl.org/dc/terms/>\n")


def _rows(store: Store, query: str) -> list[dict[str, str]]:
    rows = solutions(store, _prologue() + query)
    names = [v.value for v in rows.variables]
    return [{n: str(row[n].value) for n in names if row[n] is not None} for row in rows]


def _values(iris: list[str]) -> str:
    return " ".join(f"<{i}>" for i in iris)


def _entities(store: Store, limit: int, most: int) -> list[dict[str, str]]:
    classes = " ".join(f"pkg:{c}" for c in ENTITY_CLASSES)
    return _rows(store, f"""
SELECT ?e ?cls ?n WHERE {{
  VALUES ?cls {{ {classes} }}
  ?e a ?cls ; pkg:support ?n .
  FILTER(?n >= 2 && ?n <= {most})
}} ORDER BY DESC(?n) ?e LIMIT {limit}""")


def _count(store: Store, query: str) -> int:
    rows = _rows(store, query)
    return int(rows[0].get("n", 0)) if rows else 0


def overview(store: Store, *, cap: int = DEFAULT_CAP, base: str = DEFAULT_BASE,
             seed: int = SEED) -> Overview:
    """The overview of the graph in `store`, at most `cap` nodes, with its communities."""
    if cap < MIN_CAP:
        raise ValueError(f"cap must be at least {MIN_CAP}, not {cap}")
    classes = " ".join(f"pkg:{c}" for c in ENTITY_CLASSES)
    papers_total = _count(store, "SELECT (COUNT(?p) AS ?n) WHERE { ?p a pkg:Paper }")
    entities_total = _count(store, f"""
SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE {{
  VALUES ?cls {{ {classes} }} ?e a ?cls ; pkg:support ?s . FILTER(?s >= 2) }}""")
    # An entity is drawn with all its papers, and none may fill the picture on its own: one
    # with 140 papers under a cap of 150 would leave a star and nothing else.
    candidates = _entities(store, 2 * cap, max(2, cap // ENTITY_SHARE))
    kinds = {row["e"]: ENTITY_CLASSES[row["cls"].rsplit("#", 1)[-1]] for row in candidates}
    papers_of: dict[str, list[str]] = {row["e"]: [] for row in candidates}
    if candidates:
        # A path of alternatives with the object bound: Oxigraph starts from each entity.
        # (Two VALUES joined with `?p ?rel ?e` made it scan every paper first.)
        rels = "|".join(f"pkg:{r}" for r in LINKS)
        for row in _rows(store, f"""
SELECT DISTINCT ?p ?e WHERE {{
  VALUES ?e {{ {_values(list(papers_of))} }}
  ?p {rels} ?e .
}} LIMIT {2 * cap * cap}"""):  # never reached: 2·cap entities of < cap papers each
            papers_of[row["e"]].append(row["p"])
    for papers in papers_of.values():
        papers.sort()
    chosen, shown = _choose(papers_of, cap)
    names = _labels(store, chosen + sorted(shown))
    graph = nx.Graph()
    for item in sorted(shown):
        graph.add_node(item, type="paper", label=names.get(item, item), iri=item)
    for entity in chosen:
        graph.add_node(entity, type=kinds[entity], label=names.get(entity, entity), iri=entity,
                       support=len(papers_of[entity]))
        for paper in papers_of[entity]:
            graph.add_edge(paper, entity)
    found = Overview(graph=graph, papers_total=papers_total, entities_total=entities_total,
                     cap=cap)
    found.communities = _communities(graph, seed)
    return found


def _choose(papers_of: dict[str, list[str]], cap: int) -> tuple[list[str], set[str]]:
    """Entities (in the order of `papers_of`: most papers first) and their papers, under `cap`.

    Each step takes, of the entities that still fit with all their papers, one that shares
    a paper with the picture so far if any does (the one with most papers, then most
    shared), else the first: the picture grows connected and starts a new group only when
    nothing links to it.
    """
    chosen: list[str] = []
    shown: set[str] = set()
    left = [e for e, papers in papers_of.items() if len(papers) >= 2]
    while left:
        best, best_key = None, None
        for entity in left:
            papers = papers_of[entity]
            new = len(set(papers) - shown)
            if len(chosen) + len(shown) + 1 + new > cap:
                continue
            shared = len(papers) - new
            key = (shared > 0, len(papers), shared)
            if best_key is None or key > best_key:
                best, best_key = entity, key
        if best is None:
            break
        chosen.append(best)
        shown.update(papers_of[best])
        left.remove(best)
    return chosen, shown


def _labels(store: Store, iris: list[str]) -> dict[str, str]:
    if not iris:
        return {}
    rows = _rows(store, f"""
SELECT ?s (MIN(STR(?l)) AS ?label) WHERE {{
  VALUES ?s {{ {_values(iris)} }} ?s rdfs:label|skos:prefLabel|dcterms:title ?l .
}} GROUP BY ?s""")
    return {row["s"]: " ".join(row["label"].split()) for row in rows if "label" in row}


def _communities(graph: nx.Graph, seed: int) -> list[Community]:
    """Louvain communities, largest first, each node's `community` attribute set to its number."""
    if graph.number_of_nodes() == 0:
        return []
    parts = nx.community.louvain_communities(graph, seed=seed)
    parts = sorted(parts, key=lambda part: (-len(part), min(part)))
    communities = []
    for number, part in enumerate(parts):
        entities = [n for n in part if graph.nodes[n]["type"] != "paper"]
        entities.sort(key=lambda n: (-graph.degree(n), graph.nodes[n]["label"].lower()))
        name = " · ".join(graph.nodes[n]["label"] for n in entities[:NAME_ENTITIES])
        colour = PALETTE[number] if number < len(PALETTE) else REST_COLOUR
        for member in part:
            graph.nodes[member]["community"] = number
        communities.append(Community(number=number + 1, name=name or "papers", colour=colour,
                                     papers=len(part) - len(entities), entities=len(entities)))
    return communities


#: Half the width and height, in canvas pixels, the layout is spread over (a wide screen).
SPREAD = (560.0, 330.0)
KAMADA_KAWAI_NODES = 60


def layout(graph: nx.Graph) -> dict[str, tuple[float, float]]:
    """Start positions, stretched to the screen: Kamada-Kawai for small graphs, else a seeded
    Fruchterman-Reingold (Kamada-Kawai takes ~10 s at 150 nodes on a busy core).

    The browser's physics then only settles overlaps from there, so the picture keeps the
    shape the graph distances give it instead of the long chains a force layout from random
    starts leaves. Both are deterministic.
    """
    if graph.number_of_nodes() == 0:
        return {}
    if graph.number_of_nodes() == 1:
        return {n: (0.0, 0.0) for n in graph}
    if graph.number_of_nodes() <= KAMADA_KAWAI_NODES:
        raw = nx.kamada_kawai_layout(graph)
    else:
        raw = nx.spring_layout(graph, seed=SEED)
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    width = (max(xs) - min(xs)) / 2 or 1.0
    height = (max(ys) - min(ys)) / 2 or 1.0
    mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return {n: (round((p[0] - mid_x) / width * SPREAD[0], 1),
                round((p[1] - mid_y) / height * SPREAD[1], 1)) for n, p in raw.items()}


def view_data(found: Overview, *, link_base: str | None = "/id",
              base: str = DEFAULT_BASE) -> dict[str, Any]:
    """Nodes, edges and options of the overview page, through pyvis's `Network`."""
    graph = found.graph
    net = Network(cdn_resources="remote")
    colours = {c.number - 1: c.colour for c in found.communities}
    positions = layout(graph)
    names = {c.number - 1: c.name for c in found.communities}
    for item, attrs in sorted(graph.nodes(data=True), key=lambda kv: kv[0]):
        type_, slug = node_ref(item, attrs, base)
        label = str(attrs["label"])
        community = attrs.get("community", -1)
        url = f"{link_base}/{type_}/{slug}" if link_base is not None else str(item)
        tooltip = node_tooltip(type_, attrs, label)
        if community in names:
            tooltip += f"\nGroup {community + 1}: {names[community]}"
        paper = type_ == "paper"
        net.add_node(
            f"{type_}/{slug}", label=shorten(label, 28 if paper else 32), title=tooltip,
            shape=NODE_STYLES.get(type_, OTHER_STYLE)[2],
            value=1 if paper else max(int(attrs.get("support") or 1), 1),
            group=f"c{community + 1}", url=url,
            font={"size": PAPER_FONT if paper else ENTITY_FONT,
                  "color": "#555" if paper else "#111"},
        )
        net.nodes[-1]["color"] = colours.get(community, REST_COLOUR)
        net.nodes[-1]["x"], net.nodes[-1]["y"] = positions[item]
        net.nodes[-1]["type"] = type_
    for u, v in sorted(graph.edges(), key=lambda e: tuple(sorted(map(str, e)))):
        ends = [node_ref(n, graph.nodes[n], base) for n in (u, v)]
        net.add_edge(*(f"{t}/{s}" for t, s in ends))
    options = view_options(len(net.nodes))
    options["edges"]["arrows"] = {"to": {"enabled": False}}
    options["edges"]["color"] = {"color": "#c8c8c8", "highlight": "#333333"}
    options["nodes"]["scaling"] = {"min": 10, "max": 34, "label": {"enabled": False}}
    # Weak forces: the start positions are already a layout; physics only pushes labels apart.
    options["layout"] = {"randomSeed": 7, "improvedLayout": False}
    options["physics"]["barnesHut"].update({"gravitationalConstant": -800,
                                            "centralGravity": 0.05, "springLength": 70,
                                            "springConstant": 0.01, "avoidOverlap": 1})
    options["physics"]["stabilization"]["iterations"] = 60
    return {"nodes": net.nodes, "edges": net.edges, "options": options,
            "total": found.papers_total + found.entities_total, "shown": len(net.nodes),
            "trimmed": found.trimmed, "cap": found.cap, "zoom": 0.9}


def notice(found: Overview) -> str | None:
    """The line saying what the cap left out, or None when everything is drawn."""
    if not found.trimmed:
        return None
    return (f"Showing {found.papers_shown} of {found.papers_total} papers and "
            f"{found.entities_shown} of {found.entities_total} entities that two or more "
            f"papers share: this view is capped at {found.cap} nodes and keeps widely shared "
            "entities that link to each other. Papers that share no drawn entity are left "
            "out.")


def overview_html(found: Overview, *, title: str = "Overview", static_url: str = "/static",
                  embed: bool = False, link_base: str | None = "/id", inline_lib: bool = False,
                  base: str = DEFAULT_BASE) -> str:
    """The HTML page of an overview."""
    data = view_data(found, link_base=link_base, base=base)
    groups = [(c.colour, f"{c.name} ({c.papers} paper{'s' if c.papers != 1 else ''})")
              for c in found.communities]
    return render_view(data, title=title, static_url=static_url, inline_lib=inline_lib,
                           embed=embed, notice=notice(found), groups=groups)
