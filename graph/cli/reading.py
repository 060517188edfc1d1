"""The commands that read the graph: `query`, `neighbours`, `viz`, `export`, `stats`, and
`serve`, which hands the store to the web server.

The imports inside the commands defer pyoxigraph, rdflib, networkx, pyvis and the build modules
(from 0.06 s to over a second each to import): `paperkg --help` then starts in about a quarter
of a second instead of twice that or more.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from graph import lookup
from graph.cli.common import cli, parse_types, store_option, user_errors, walk_options
from graph.nlp.text_clean import collapse


@cli.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="HTTP worker processes.")
@click.option("--worker-timeout", type=click.FloatRange(min=0), default=None,
              help="Seconds one request may run in the app before its worker is replaced "
              "(default: twice the query time limit plus 10, at least 30; 0: never).")
@click.option("--access-log", is_flag=True,
              help="Write a line for each request to standard output (off: it costs time).")
def serve(store: str | None, host: str, port: int, workers: int,
          worker_timeout: float | None, access_log: bool) -> None:
    """Serve the SPARQL endpoint, graph API and web pages (granian)."""
    args = [sys.executable, "-m", "api.serve", "--host", host, "--port", str(port),
            "--workers", str(workers)]
    if worker_timeout is not None:
        args += ["--worker-timeout", f"{worker_timeout:g}"]
    if access_log:
        args.append("--access-log")
    if store:
        args += ["--store", store]
    # graph/ never imports Flask: the server runs as its own program.
    os.execv(sys.executable, args)


@cli.command()
@click.argument("sparql")
@store_option
@click.option("--format", "fmt", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv", "tsv", "xml", "turtle", "nt"]))
@user_errors
def query(sparql: str, store: str | None, fmt: str) -> None:
    """Run a SPARQL query against the store and print the results."""
    from graph.store import open_store
    from graph.textquery import render

    target = open_store(store, read_only=True)
    try:
        click.echo(render(target, sparql, fmt), nl=False)
    finally:
        target.close()


@cli.command()
@click.argument("node")
@store_option
@walk_options(limit=100, most=5000)
@click.option("--json", "as_json", is_flag=True, help="Print nodes and edges as JSON.")
@user_errors
def neighbours(node: str, store: str | None, depth: int, types: str | None, limit: int,
               as_json: bool) -> None:
    """The k-hop neighbourhood of a node (an IRI, type/slug, a paper's key or id, a label)."""
    from graph import network
    from graph.build.incremental import store_base
    from graph.store import open_store

    target = open_store(store, read_only=True)
    try:
        base = store_base(target)
        # The walk the graph API answers, from the store: it reads the neighbourhood only.
        questions = network.questions_for(target, base)
        centre = network.find_node(questions,
                                   network.node_id(lookup.resolve(target, node, base), base))
        nodes, edges, truncated = questions.neighbourhood(
            centre["iri"], depth=depth, types=parse_types(types), limit=limit)
        data: dict[str, Any] = {"nodes": nodes, "edges": edges, "truncated": truncated}
    finally:
        target.close()
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for item in data["nodes"]:
        click.echo(f"{item['type']:8} {collapse(item['label'] or '')}  <{item['iri']}>")
    if data["truncated"]:
        click.echo(f"(trimmed to {limit} nodes)")


@cli.command()
@click.argument("node")
@store_option
@walk_options(limit=150, most=2000)
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@user_errors
def viz(node: str, store: str | None, depth: int, types: str | None, limit: int,
        out_path: str) -> None:
    """Write a standalone, offline HTML view of a node's neighbourhood."""
    from graph import network
    from graph.build.incremental import store_base
    from graph.store import open_store
    from graph.viz import write_viz

    target = open_store(store, read_only=True)
    try:
        base = store_base(target)
        centre = network.node_id(lookup.resolve(target, node, base), base)
        write_viz(target, centre, depth=depth, types=parse_types(types), limit=limit,
                  out_path=Path(out_path))
    finally:
        target.close()
    click.echo(f"wrote {out_path}")


@cli.command()
@store_option
@click.option("--format", "fmt", required=True,
              type=click.Choice(["ttl", "nt", "jsonld", "rdfxml", "trig", "nq", "graphml"]))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@user_errors
def export(store: str | None, fmt: str, out_path: str) -> None:
    """Export the graph in one format."""
    from graph.store import open_store

    target = open_store(store, read_only=True)
    try:
        if fmt == "graphml":
            from graph import network
            from graph.build.incremental import store_base

            network.write_graphml(network.projection(target, store_base(target)), Path(out_path))
        else:
            from graph.export import export_store

            export_store(target, fmt, Path(out_path))
    finally:
        target.close()
    click.echo(f"wrote {out_path}")


@cli.command()
@store_option
@click.option("--json", "as_json", is_flag=True)
@click.option("--top", default=0, show_default=True, type=click.IntRange(min=0),
              help="Also list the N entities of each type that the most papers link.")
@user_errors
def stats(store: str | None, as_json: bool, top: int) -> None:
    """Counts of papers, entities per type, claims, results and triples."""
    from graph.network.stats import store_stats, top_entities

    data = store_stats(store)
    if top:
        ranked = top_entities(store, top)
        if as_json:
            click.echo(json.dumps({"counts": data, "top": ranked}, indent=2, ensure_ascii=False))
            return
        for name, rows in ranked.items():
            click.echo(f"{name}: " + "; ".join(f"{label} ({n})" for label, n in rows))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    width = max(len(k) for k in data)
    for name, value in data.items():
        click.echo(f"{name:<{width}}  {value}")
