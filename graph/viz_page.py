"""The HTML page of a graph view: template, legend, the script that draws and freezes it.

graph.viz makes a view's nodes, edges and options; this module turns them into one page. In
the server vis-network is linked from the static folder; `inline_lib` puts the copy bundled
with pyvis into the page so that a saved file works offline. Strings from the graph reach the
page only as JSON inside `<script type="application/json">` or as autoescaped text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

import jinja2

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
VIS_LIB = "vis-9.1.2"


# -- the page --------------------------------------------------------------------------------------

_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · paperkg</title>
{% if inline_lib %}<style>{{ lib_css|safe }}</style>
<script>{{ lib_js|safe }}</script>
{% else %}<link rel="stylesheet" href="{{ static_url }}/vendor/vis-network/vis-network.min.css">
<script src="{{ static_url }}/vendor/vis-network/vis-network.min.js"></script>
{% endif %}<style>
html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; color: #222; }
body { display: flex; flex-direction: column; }
header { padding: .4rem .8rem; border-bottom: 1px solid #ddd; background: #fafafa; }
header h1 { font-size: 1.05rem; margin: 0 0 .2rem; }
body.embed header h1 { display: none; }
.notice { margin: .2rem 0; color: #7a4b00; }
.legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
          gap: .2rem .9rem; }
.legend li { display: flex; align-items: center; gap: .3rem; font-size: 12px; }
.legend svg { width: 14px; height: 14px; }
.groups { margin: .3rem 0 0; padding-left: 1.4rem; columns: 2 22rem; font-size: 13px; }
.groups .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 50%;
                  margin-right: .35rem; vertical-align: -1px; }
#graph { flex: 1; min-height: 320px; position: relative; }
#graph-empty { padding: 2rem; color: #666; }
div.vis-tooltip { white-space: pre-line; max-width: 28rem; font: 12px/1.35 system-ui, sans-serif; }
</style>
</head>
<body class="{{ 'embed' if embed else '' }}" data-graph-state="loading">
<header>
<h1>{{ title }}</h1>
{% if notice -%}
<p class="notice" id="trim-notice" role="status">{{ notice }}</p>
{%- elif trimmed -%}
<p class="notice" id="trim-notice" role="status">Showing {{ shown }}
{%- if total %} of {{ total }}{% endif %} nodes: this view is capped at {{ cap }} nodes
{%- if centre_hint %} and keeps those nearest to {{ centre_hint }}{% endif %}
{%- if not total %}; more were left out{% endif %}.
{%- if has_more %} Grey nodes stand for the papers that did not fit.{% endif %}</p>
{%- endif %}
<ul class="legend" aria-label="Legend">
{% for type, name, colour, shape in legend %}<li data-type="{{ type }}">
<svg viewBox="0 0 14 14" aria-hidden="true">{{ shape_svg(shape, colour) }}</svg>{{ name }}</li>
{% endfor %}</ul>
{% if groups %}<ol class="groups" id="groups" aria-label="Groups">
{% for colour, name in groups %}<li>
<span class="swatch" style="background: {{ colour }}"></span>{{ name }}</li>
{% endfor %}</ol>{% endif %}
</header>
<div id="graph" role="img" aria-label="{{ title }}: {{ shown }} nodes, {{ edges }} edges">
{%- if not shown %}<p id="graph-empty">Nothing to show.</p>{% endif %}</div>
<script type="application/json" id="graph-data">{{ data|tojson }}</script>
<script>{{ init_js|safe }}</script>
</body>
</html>
"""

# The page's own script: draw, freeze the layout once stabilised, follow node links.
_INIT_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var body = document.body;
  if (!data.nodes.length) { body.dataset.graphState = "still"; return; }
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var network = new vis.Network(document.getElementById("graph"),
                                {nodes: nodes, edges: edges}, data.options);
  window.paperkgNetwork = network;
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({physics: false});
    if (data.zoom && data.zoom !== 1) {
      // fit() frames the nodes, not their labels: step back so the outer labels show.
      network.fit({animation: false});
      network.moveTo({scale: network.getScale() * data.zoom, animation: false});
    }
    window.paperkgStillAt = performance.now();
    body.dataset.graphState = "still";
  });
  network.on("hoverNode", function (params) {
    var node = nodes.get(params.node);
    network.canvas.body.container.style.cursor = node && node.url ? "pointer" : "default";
  });
  network.on("blurNode", function () {
    network.canvas.body.container.style.cursor = "default";
  });
  network.on("click", function (params) {
    if (params.nodes.length !== 1) { return; }
    var node = nodes.get(params.nodes[0]);
    if (!node || !node.url) { return; }
    var target = window;
    // Inside the paper/entity pages' iframe, open the page in the whole tab.
    try {
      if (window.top && window.top.location.host === window.location.host) { target = window.top; }
    } catch (e) { target = window; }
    target.location.assign(node.url);
  });
})();
"""

_SHAPES: dict[str, str] = {
    "dot": '<circle cx="7" cy="7" r="6" fill="{c}"/>',
    "square": '<rect x="1" y="1" width="12" height="12" fill="{c}"/>',
    "diamond": '<polygon points="7,0 14,7 7,14 0,7" fill="{c}"/>',
    "hexagon": '<polygon points="3.5,1 10.5,1 14,7 10.5,13 3.5,13 0,7" fill="{c}"/>',
    "triangle": '<polygon points="7,1 13.5,13 0.5,13" fill="{c}"/>',
    "triangleDown": '<polygon points="0.5,1 13.5,1 7,13" fill="{c}"/>',
    "star": '<polygon points="7,0 8.8,5 14,5 9.8,8.2 11.4,13.5 7,10.3 2.6,13.5 4.2,8.2 0,5 5.2,5" '
    'fill="{c}"/>',
    "box": '<rect x="0" y="3" width="14" height="8" rx="2" fill="{c}"/>',
}


def _shape_svg(shape: str, colour: str) -> jinja2.utils.markupsafe.Markup:
    # Both arguments come from NODE_STYLES, never from the graph.
    return jinja2.utils.markupsafe.Markup(_SHAPES.get(shape, _SHAPES["dot"]).format(c=colour))


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    env.globals["shape_svg"] = _shape_svg
    return env


@cache
def vis_library() -> tuple[str, str]:
    """(JavaScript, CSS) of the vis-network copy bundled with pyvis."""
    lib = resources.files("pyvis") / "templates" / "lib" / VIS_LIB
    js = (lib / "vis-network.min.js").read_text(encoding="utf-8")
    css = (lib / "vis-network.css").read_text(encoding="utf-8")
    # Inlined into a <script>/<style>: a closing tag inside would end it early.
    if "</script" in js.lower() or "</style" in css.lower():
        raise RuntimeError("bundled vis-network contains a closing tag; cannot inline it")
    return js, css


def _legend(types: Iterable[str], *, neutral: bool = False) -> list[tuple[str, str, str, str]]:
    present = set(types)
    rows = [(t, *NODE_STYLES[t]) for t in NODE_STYLES if t in present]
    if neutral:  # colours stand for something else: show the shapes in grey
        rows = [(t, name, "#777777", shape) for t, name, _, shape in rows]
    if "more" in present:
        rows.append(("more", *MORE_STYLE))
    return rows


def render_view(
    data: Mapping[str, Any],
    *,
    title: str,
    static_url: str = "/static",
    inline_lib: bool = False,
    embed: bool = False,
    centre_hint: str | None = None,
    notice: str | None = None,
    groups: list[tuple[str, str]] | None = None,
) -> str:
    """The HTML page of a view made by `view_data`.

    `notice` replaces the page's own line about the cap; `groups` lists (colour, name) of the
    communities the nodes are coloured by, and the legend then shows shapes only.
    """
    js, css = vis_library() if inline_lib else ("", "")
    payload = {"nodes": data["nodes"], "edges": data["edges"], "options": data["options"],
               "zoom": data.get("zoom", 1)}
    return _environment().from_string(_TEMPLATE).render(
        title=title,
        static_url=static_url.rstrip("/"),
        inline_lib=inline_lib,
        lib_js=js,
        lib_css=css,
        embed=embed,
        trimmed=data["trimmed"],
        shown=data["shown"],
        total=data["total"],
        cap=data["cap"],
        edges=len(data["edges"]),
        has_more=any(node.get("group") == "more" for node in data["nodes"]),
        centre_hint=centre_hint,
        legend=_legend((node.get("type") or node.get("group", "other") for node in data["nodes"]),
                       neutral=bool(groups)),
        notice=notice,
        groups=groups or [],
        data=payload,
        init_js=_INIT_JS,
    )
