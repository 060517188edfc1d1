"""The HTML page of a graph view: `templates/view.html` with the legend, and the script that
draws and freezes it (`static/view.js`), both shipped as package data.

graph.viz.data makes a view's nodes, edges and options; this module turns them into one page.
In the server vis-network is linked from the static folder; `inline_lib` puts the copy bundled
with pyvis into the page so that a saved file works offline. Strings from the graph reach the
page only as JSON inside `<script type="application/json">` or as autoescaped text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

import jinja2

from graph.viz.styles import MORE_STYLE, NODE_STYLES

VIS_LIB = "vis-9.1.2"
_PACKAGE = "graph.viz"


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader(_PACKAGE, "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


@cache
def view_script() -> str:
    """The page's own script: draw, freeze the layout once stabilised, follow node links."""
    return (resources.files(_PACKAGE) / "static" / "view.js").read_text(encoding="utf-8")


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
    return _environment().get_template("view.html").render(
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
        init_js=view_script(),
    )
