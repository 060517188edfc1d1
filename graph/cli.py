"""The `paperkg` command: thin wrappers over library functions.

User errors (PaperkgError) print one line and exit 2; anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from graph.errors import PaperkgError

STORE_HELP = "Store: a folder (embedded Oxigraph) or an http(s) URL of a SPARQL 1.1 server. " \
             "Default: $PAPERKG_STORE or .paperkg/store"


class UserError(click.ClickException):
    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"paperkg: error: {self.format_message()}", err=True)


def user_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PaperkgError as exc:
            raise UserError(str(exc)) from None
        except KeyError as exc:
            if str(exc).startswith("\"unknown extractor"):
                raise UserError(exc.args[0]) from None
            raise

    return wrapper


store_option = click.option("--store", default=None, help=STORE_HELP)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperkg")
def cli() -> None:
    """Knowledge graphs of research literature from paper abstracts."""


@cli.command()
@click.argument("inputs", nargs=-1, type=click.Path())
@click.option("--out", "out_dir", default="exports", show_default=True, help="Export folder.")
@store_option
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Local processes for extraction and RDF writing.")
@click.option("--scheduler", default=None, help="Dask scheduler address (tcp://host:port).")
@click.option("--base-iri", default=None, help="Base IRI of the instances.")
@click.option("--spacy-model", default=None, help="Installed spaCy pipeline to parse with.")
@click.option("--add", "add", is_flag=True,
              help="Add (or replace) these papers in the existing graph instead of rebuilding.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a TTY).")
@user_errors
def build(inputs, out_dir, store, workers, scheduler, base_iri, spacy_model, add, progress):
    """Build the graph from corpus files (default: the demo corpus in data/)."""
    from graph import nlp as nlp_loader

    model = spacy_model or nlp_loader.DEFAULT_MODEL
    show = sys.stderr.isatty() if progress is None else progress
    if add:
        from graph.incremental import add_files

        if not inputs:
            raise UserError("--add needs at least one INPUT file")
        result = add_files(list(inputs), store=store, base=base_iri, spacy_model=model,
                           out_dir=out_dir)
        click.echo(result.summary())
        return
    from graph.build import build as run_build

    result = run_build(list(inputs) or None, out_dir=out_dir, store=store, base=base_iri,
                       workers=workers, scheduler=scheduler, spacy_model=model, progress=show)
    for warning in result.warnings:
        click.echo(f"paperkg: warning: {warning}", err=True)
    click.echo(f"built {result.papers} papers, {result.entities} entities, "
               f"{result.quads} quads into {result.store}")
    _index_store(result.store)
    if result.exports:
        click.echo(f"exports: {', '.join(str(p) for p in result.exports)}")


def _index_store(location: Any) -> None:
    """Write the search index of a freshly built store, so a server's first search is fast."""
    from graph import search_index
    from graph.incremental import store_base
    from graph.store import open_store

    target = open_store(str(location), read_only=True)
    try:
        search_index.ensure_index(target, store_base(target))
    finally:
        target.close()


@cli.command()
@click.argument("key")
@store_option
@user_errors
def remove(key, store):
    """Remove one paper (by key, original id, DOI, arXiv or OpenAlex id) and its facts."""
    from graph import lookup
    from graph.incremental import remove_paper, store_base
    from graph.store import open_store

    target = open_store(store)
    try:
        base = store_base(target)
        removed = remove_paper(target, lookup.paper(target, key, base), base=base)
    finally:
        target.close()
    if not removed:
        raise UserError(f"no paper with key {key!r} in the store")
    click.echo(f"removed paper {key}")


@cli.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="HTTP worker processes.")
def serve(store, host, port, workers):
    """Serve the SPARQL endpoint, graph API and web pages (gunicorn)."""
    args = [sys.executable, "-m", "api.serve", "--host", host, "--port", str(port),
            "--workers", str(workers)]
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
def query(sparql, store, fmt):
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
@click.option("--depth", default=1, show_default=True, type=click.IntRange(1, 3))
@click.option("--types", default=None, help="Comma-separated node types to keep.")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 5000))
@click.option("--json", "as_json", is_flag=True, help="Print nodes and edges as JSON.")
@user_errors
def neighbours(node, store, depth, types, limit, as_json):
    """The k-hop neighbourhood of a node (an IRI, type/slug, a paper's key or id, a label)."""
    from dataclasses import asdict

    from graph import lookup, network
    from graph.incremental import store_base
    from graph.store import open_store

    target = open_store(store, read_only=True)
    try:
        base = store_base(target)
        graph = network.projection(target, base)
        centre = network.resolve(graph, network.node_id(lookup.resolve(target, node, base), base),
                                 base)
        data = asdict(network.neighbourhood(graph, centre, depth=depth, types=_types(types),
                                            limit=limit))
    finally:
        target.close()
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from graph.text_clean import collapse

    for item in data["nodes"]:
        click.echo(f"{item['type']:8} {collapse(item['label'] or '')}  <{item['iri']}>")
    if data["truncated"]:
        click.echo(f"(trimmed to {limit} nodes)")


@cli.command()
@click.argument("node")
@store_option
@click.option("--depth", default=1, show_default=True, type=click.IntRange(1, 3))
@click.option("--types", default=None, help="Comma-separated node types to keep.")
@click.option("--limit", default=150, show_default=True, type=click.IntRange(1, 2000))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@user_errors
def viz(node, store, depth, types, limit, out_path):
    """Write a standalone, offline HTML view of a node's neighbourhood."""
    from graph import lookup, network
    from graph.incremental import store_base
    from graph.store import open_store
    from graph.viz import write_viz

    target = open_store(store, read_only=True)
    try:
        base = store_base(target)
        centre = network.node_id(lookup.resolve(target, node, base), base)
        write_viz(target, centre, depth=depth, types=_types(types), limit=limit,
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
def export(store, fmt, out_path):
    """Export the graph in one format."""
    from graph.store import open_store

    target = open_store(store, read_only=True)
    try:
        if fmt == "graphml":
            from graph import network
            from graph.incremental import store_base

            network.write_graphml(network.projection(target, store_base(target)), Path(out_path))
        else:
            from graph.export import export_store

            export_store(target, fmt, Path(out_path))
    finally:
        target.close()
    click.echo(f"wrote {out_path}")


@cli.command(name="eval")
@click.option("--gold", default=None, type=click.Path(exists=True, dir_okay=False),
              help="A gold file to score (the full report of one file).")
@click.option("--corpus", "corpora", multiple=True,
              type=click.Choice(["scirex", "scierc", "csabstruct", "aaai", "results"]),
              help="Score an annotated corpus (repeatable): one table, corpus x row.")
@click.option("--all", "all_corpora", is_flag=True, help="Score every corpus (make eval).")
@click.option("--split", default="dev", show_default=True, type=click.Choice(["train", "dev"]))
@click.option("--errors", is_flag=True,
              help="Also list each paper's errors (train splits only: dev figures stay honest).")
@click.option("--shared", default=None, type=click.Path(file_okay=False),
              help="Shared data folder with paperlists/ (default $PAPERKG_SHARED or "
                   "../shared/data).")
@click.option("--json", "as_json", is_flag=True)
@click.option("--limit", default=None, type=click.IntRange(1), help="Only the first N papers.")
@click.option("--threshold", default=None, type=click.FloatRange(0, 1),
              help="Drop mentions with confidence below this.")
@click.option("--thresholds", default=None,
              help="Comma-separated thresholds: print a precision/recall sweep instead.")
@click.option("--consistency", is_flag=True,
              help="How consistently the gold annotates its own recurring names, and how many "
                   "false positives are such names, instead.")
@user_errors
def eval_cmd(gold, corpora, all_corpora, split, errors, shared, as_json, limit, threshold,
             thresholds, consistency):
    """Score the extractors against a gold file or the annotated corpora (tests/gold)."""
    from graph.evaluate import run_eval

    if corpora or all_corpora:
        if gold or threshold is not None or thresholds or consistency:
            raise UserError("--corpus/--all: leave out --gold, --threshold(s), --consistency")
        from graph.eval.table import run_table

        click.echo(run_table(list(corpora) or None, split, errors=errors, shared=shared,
                             as_json=as_json, limit=limit))
        return
    if gold is None:
        raise UserError("eval: give --gold FILE, --corpus NAME or --all")
    from graph.eval.corpora import is_dev_gold

    if (as_json or consistency) and is_dev_gold(gold):
        raise UserError(f"--json/--consistency: refused on {gold}, a dev split (its per-paper "
                        "errors are not to be read); use --corpus NAME for its figures")
    if errors:
        raise UserError("--errors: goes with --corpus (the --gold report lists every paper)")
    if consistency:
        if threshold is not None or thresholds:
            raise UserError("--consistency: scores at the shipped thresholds; "
                            "leave out --threshold/--thresholds")
        from graph.gold_consistency import run_consistency

        click.echo(run_consistency(gold, as_json=as_json, limit=limit))
        return
    sweep = None
    if thresholds:
        try:
            sweep = [float(t) for t in thresholds.split(",") if t.strip()]
        except ValueError:
            raise UserError(f"--thresholds: not a list of numbers: {thresholds!r}") from None
    click.echo(run_eval(gold, as_json=as_json, limit=limit, threshold=threshold,
                        thresholds=sweep))


@cli.command()
@click.option("--model", "which", default="scorer", show_default=True,
              type=click.Choice(["scorer", "tagger", "claims", "areas"]),
              help="scorer: the mention scorer (SciREX train split); tagger: the mention tagger "
                   "(torch, the `train` extra; data/models/TAGGER.md); claims: the claim "
                   "classifier (CSAbstruct train; CLAIMS.md); areas: the research-area "
                   "classifier (paper lists, AAAI 2022 train split; AREAS.md).")
@click.option("--out", "out_dir", default=None, help="Where to write the trained model.")
@click.option("--run-dir", default="tagger-run", show_default=True,
              help="--model tagger: where the training run's checkpoints go.")
@click.option("--csabstruct", "csabstruct_dir", default="../shared/data/csabstruct",
              show_default=True, help="CSAbstruct train.jsonl/dev.jsonl (--model claims).")
@click.option("--compare", is_flag=True,
              help="--model claims: also cross-validate the smaller feature designs.")
@click.option("--report-dev", is_flag=True,
              help="--model claims: score the fitted model on CSAbstruct dev (report only).")
@click.option("--abstracts", default="../shared/data/paperlists/abstracts.jsonl.gz",
              show_default=True, help="The paper lists the areas classifier learns from.")
@click.option("--scirex", "scirex_dir", default="../shared/data/scirex", show_default=True,
              type=click.Path(exists=True, file_okay=False))
@click.option("--abstract-weight", default=0, show_default=True, type=click.IntRange(min=0),
              help="Also train on each paper's abstract, counted this many times.")
@click.option("--gold", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Gold file to report held-out scores against (with --folds).")
@click.option("--folds", default=0, show_default=True, type=click.IntRange(min=0),
              help="Cross-validate by paper: held-out scores and thresholds (--model tagger: "
                   "out-of-fold predictions in --run-dir, graph.tagger.cv).")
@click.option("--max-body-tokens", default=None, type=click.IntRange(min=1),
              help="Tokens of each paper's body to train on (default: the shipped model's).")
@user_errors
def train(which, out_dir, run_dir, csabstruct_dir, compare, report_dev, abstracts, scirex_dir,
          abstract_weight, gold, folds, max_body_tokens):
    """Train a shipped model (default: the mention scorer, on the SciREX train split) and write
    it to data/models/."""
    if which == "tagger" and folds > 1:
        from graph.tagger.cv import run as run_folds

        click.echo(run_folds(run_dir, folds))
        return
    if which == "tagger":
        from graph.tagger.train import reproduce

        click.echo(reproduce(run_dir, out_dir))
        return
    if which == "areas":
        from graph.train_areas import train as train_areas

        click.echo(train_areas(out_dir, source=abstracts))
        return
    if which == "claims":
        from graph.train_claims import train as train_claims

        if not Path(csabstruct_dir, "train.jsonl").is_file():
            raise UserError(f"--csabstruct: no train.jsonl in {csabstruct_dir}")
        click.echo(train_claims(out_dir, csabstruct_dir=csabstruct_dir, folds=folds or 5,
                                compare=compare, report_dev=report_dev))
        return
    from graph.train import train as run_train

    if folds > 1 and gold is None:
        raise UserError("--folds: held-out scores need a gold file (--gold FILE)")
    options = {} if max_body_tokens is None else {"max_body_tokens": max_body_tokens}
    click.echo(run_train(out_dir, scirex_dir=scirex_dir, abstract_weight=abstract_weight,
                         gold=gold, folds=folds, **options))


@cli.command()
@store_option
@click.option("--json", "as_json", is_flag=True)
@click.option("--top", default=0, show_default=True, type=click.IntRange(min=0),
              help="Also list the N entities of each type that the most papers link.")
@user_errors
def stats(store, as_json, top):
    """Counts of papers, entities per type, claims, results and triples."""
    from graph.stats import store_stats, top_entities

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


def _types(value: str | None) -> list[str] | None:
    return [t.strip() for t in value.split(",") if t.strip()] if value else None


def main() -> None:
    cli(prog_name="paperkg")
