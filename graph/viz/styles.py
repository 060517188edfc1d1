"""How a view draws each kind of node and names each kind of edge."""

from __future__ import annotations

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
    "proposes": "proposes",
    "usesMethod": "uses method",
    "usesDataset": "uses dataset",
    "usesModel": "uses model",
    "addressesTask": "addresses task",
    "reportsMetric": "reports metric",
    "inDomain": "in domain",
    "makesClaim": "makes claim",
    "about": "about",
    "broader": "broader",
    "cooccurs": "co-occurs",
    "more": "more",
}
