"""pyvis views of networkx subgraphs: capped, offline, stabilised then frozen.

A view is one HTML page drawn with vis-network (the copy bundled in the pyvis package):
`data` makes its nodes, edges and options, `page` renders `templates/view.html` with the
script `static/view.js` (both package data), `neighbourhood` draws the graph around one node,
for the server (`/viz/neighbourhood`) and as a saved file (`paperkg viz`), and `styles` holds
the colours, shapes and edge words. The page loads nothing from outside.
"""

from graph.network import UnknownNode
from graph.viz.data import (
    DEFAULT_CAP,
    LABEL_CHARS,
    cap_graph,
    node_ref,
    shorten,
    tooltip,
    view_data,
    view_options,
)
from graph.viz.neighbourhood import neighbourhood_html, neighbourhood_subgraph, write_viz
from graph.viz.page import render_view, vis_library
from graph.viz.styles import MORE_STYLE, NODE_STYLES, OTHER_STYLE, RELATION_LABELS

__all__ = [
    "DEFAULT_CAP", "LABEL_CHARS", "MORE_STYLE", "NODE_STYLES", "OTHER_STYLE", "RELATION_LABELS",
    "UnknownNode", "cap_graph", "neighbourhood_html", "neighbourhood_subgraph", "node_ref",
    "render_view", "shorten", "tooltip", "view_data", "view_options", "vis_library", "write_viz",
]
