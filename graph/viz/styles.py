"""How a view draws each kind of node and names each kind of edge."""

from __future__ import annotations

from graph.vocab import LINK_TABLE, MAKES_CLAIM

#: Node types with their legend name, colour and vis-network shape.
NODE_STYLES: dict[str, tuple[str, str, str]] = {
    "paper": ("Paper", "#4e79a7", "square"),
    "method": ("Method", "#f28e2b", "dot"),
    "dataset": ("Dataset", "#59a14f", "diamond"),
    "model": ("Model", "#e15759", "hexagon"),
    "task": ("Task", "#76b7b2", "triangle"),
    "metric": ("Metric", "#edc948", "triangleDown"),
    "domain": ("Domain", "#b07aa1", "star"),
    "claim": ("Claim", "#9c755f", "box"),
}
#: Style of nodes that stand for many others ("+12 papers") and of unknown types.
MORE_STYLE = ("More", "#bab0ac", "dot")
OTHER_STYLE = ("Other", "#79706e", "dot")
#: Edge relations with the words the page shows for them.
RELATION_LABELS: dict[str, str] = {
    **{name: f"{verb} {type_}" if type_ else verb for name, type_, verb in LINK_TABLE},
    MAKES_CLAIM: "makes claim",
    "about": "about",
    "broader": "broader",
    "cooccurs": "co-occurs",
    "more": "more",
}
