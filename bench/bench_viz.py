"""How long a 500-node graph view takes to become interactive and still in Chromium.

    .venv/bin/python bench/bench_viz.py [--nodes 500] [--repeat 3] [--timeout 180]

The same seeded graph (papers linked to methods, datasets, models, tasks, metrics and
domains, with Zipf-like popularity) is drawn twice with the same node and edge data:

- paperkg: graph.viz's options (bounded stabilisation, straight edges, physics frozen on
  `stabilizationIterationsDone`);
- pyvis default: pyvis 0.3.2's `Network()` options and template (1,000 stabilisation
  iterations, dynamic smooth edges, physics left running until it settles).

Both pages inline vis-network and open from file://; every other request is aborted (the
pyvis template links Bootstrap from a CDN). Times are from navigation start:
"interactive" is `stabilizationIterationsDone` (the layout is drawn and answers the mouse),
"still" is when nothing moves any more (physics off for paperkg, the `stabilized` event for
pyvis). Medians are printed, with the ratio of the "still" times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
from pyvis.network import Network

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graph import viz  # noqa: E402
from graph.vocab import LINK_OF_TYPE  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ENTITY_SHARE = {"method": 0.33, "dataset": 0.22, "model": 0.15, "task": 0.12, "metric": 0.07,
                "domain": 0.11}
RELATION = LINK_OF_TYPE
# Recorded by both pages. It must run in the same script as the network's construction:
# stabilisation starts on a timer, which may fire between two scripts.
PROBE = """;(function () {
  var net = window.paperkgNetwork || window.network;
  window.__t = {created: performance.now()};
  net.once("stabilizationIterationsDone", function () { __t.interactive = performance.now(); });
  net.once("stabilized", function () { __t.stabilized = performance.now(); });
})();
"""
OURS_HOOK = "window.paperkgNetwork = network;"
THEIRS_HOOK = "drawGraph();"


def make_graph(n_nodes: int, seed: int = 7) -> nx.DiGraph:
    """A paper graph of exactly `n_nodes` nodes: ~30% papers, each naming 4-8 entities."""
    rng = random.Random(seed)
    n_papers = int(n_nodes * 0.3)
    graph = nx.DiGraph()
    pools: dict[str, list[str]] = {}
    left = n_nodes - n_papers
    types = list(ENTITY_SHARE)
    for i, type_ in enumerate(types):
        count = left - sum(len(p) for p in pools.values()) if i == len(types) - 1 else int(
            (n_nodes - n_papers) * ENTITY_SHARE[type_])
        pools[type_] = [f"{type_}/{type_}-{k}" for k in range(count)]
        for k, node in enumerate(pools[type_]):
            graph.add_node(node, type=type_, label=f"{type_.title()} {k}", support=0)
    for p in range(n_papers):
        paper = f"paper/p{p:04d}"
        graph.add_node(paper, type="paper", label=f"Paper {p}", year=2020 + p % 6)
        for _ in range(rng.randint(4, 8)):
            type_ = rng.choices(types, weights=[ENTITY_SHARE[t] for t in types])[0]
            pool = pools[type_]
            # Zipf-like: low ranks are named by many papers.
            rank = min(int(rng.paretovariate(1.1)) - 1, len(pool) - 1)
            graph.add_edge(paper, pool[rank], relation=RELATION[type_])
    # Entities no paper drew still belong to one, so the graph is one component.
    for type_, pool in pools.items():
        for node in pool:
            if graph.in_degree(node) == 0:
                paper = f"paper/p{rng.randrange(n_papers):04d}"
                graph.add_edge(paper, node, relation=RELATION[type_])
            graph.nodes[node]["support"] = graph.in_degree(node)
    assert graph.number_of_nodes() == n_nodes
    return graph


def pages(graph: nx.DiGraph, folder: Path) -> dict[str, Path]:
    data = viz.view_data(graph, cap=graph.number_of_nodes())
    ours = viz.render_view(data, title="bench", inline_lib=True)
    default = Network(cdn_resources="in_line")
    default.nodes = data["nodes"]
    default.edges = data["edges"]
    default.node_ids = [n["id"] for n in data["nodes"]]
    theirs = default.generate_html()
    paths = {}
    for name, html, hook in (("paperkg", ours, OURS_HOOK), ("pyvis default", theirs, THEIRS_HOOK)):
        if html.count(hook) != 1:
            raise RuntimeError(f"{name}: cannot find where to attach the timers ({hook!r})")
        path = folder / f"{name.replace(' ', '-')}.html"
        path.write_text(html.replace(hook, hook + PROBE), encoding="utf-8")
        paths[name] = path
    return paths


@dataclass
class Run:
    created: float | None = None  # vis-network parsed and the network constructed
    interactive: float | None = None  # stabilizationIterationsDone
    still: float | None = None  # nothing moves any more


def measure(browser: Any, path: Path, timeout_s: float) -> Run:
    """Times of one page load, in ms from navigation start; None past the timeout."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:")
                  else r.abort())
    page = context.new_page()
    deadline = time.monotonic() + timeout_s
    page.goto(path.as_uri(), wait_until="commit", timeout=timeout_s * 1000)
    run = Run()
    while time.monotonic() < deadline:
        state = page.evaluate(
            "() => { const n = window.paperkgNetwork || window.network;"
            " if (!n || !window.__t) return null;"
            " return {t: window.__t, physics: n.physics.physicsEnabled !== false &&"
            " n.physics.options.enabled !== false}; }"
        )
        if state is not None:
            t = state["t"]
            run.created = t.get("created")
            run.interactive = t.get("interactive")
            if run.interactive is not None and not state["physics"]:
                run.still = run.interactive  # frozen in the same handler
                break
            if t.get("stabilized"):
                run.still = t["stabilized"]
                break
        time.sleep(0.1)
    context.close()
    return run


def _ms(value: float | None, timeout_s: float) -> str:
    return f"{value:8.0f} ms" if value is not None else f"  >{timeout_s:.0f} s  "


def _median(values: list[float | None]) -> float | None:
    return statistics.median(values) if values and None not in values else None  # type: ignore[type-var]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=150.0,
                        help="seconds to wait for one page to become still")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    graph = make_graph(args.nodes)
    started = time.perf_counter()
    viz.neighbourhood_html(graph, title="bench", cap=args.nodes)
    render_ms = (time.perf_counter() - started) * 1000
    print(f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges; "
          f"page rendered in {render_ms:.0f} ms (Python)")
    results: dict[str, list[Run]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        paths = pages(graph, Path(tmp))
        for _ in range(args.repeat):
            for name, path in paths.items():
                results.setdefault(name, []).append(measure(browser, path, args.timeout))
        browser.close()
    medians: dict[str, float | None] = {}
    for name, runs in results.items():
        created = _median([r.created for r in runs])
        interactive = _median([r.interactive for r in runs])
        still = _median([r.still for r in runs])
        medians[name] = still
        print(f"{name:14s} constructed {_ms(created, args.timeout)}  interactive "
              f"{_ms(interactive, args.timeout)}  still {_ms(still, args.timeout)}  "
              f"({len(runs)} runs, medians)")
    ours, theirs = medians["paperkg"], medians["pyvis default"]
    if ours:
        bound = theirs if theirs is not None else args.timeout * 1000
        sign = "" if theirs is not None else ">= "
        print(f"still: pyvis default / paperkg = {sign}{bound / ours:.1f}x (target >= 5x)")


if __name__ == "__main__":
    main()
