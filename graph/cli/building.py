"""`paperkg build` (and `build --add`) and `paperkg remove`: the commands that write the graph.

The imports inside the commands defer spaCy, the extractors, the build machinery and pyoxigraph
(from 0.06 s to seconds each to import), so that `paperkg --help` and the other commands start
at once.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from graph import lookup
from graph.cli.common import UserError, cli, store_option, user_errors


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
def build(inputs: tuple[str, ...], out_dir: str, store: str | None, workers: int,
          scheduler: str | None, base_iri: str | None, spacy_model: str | None, add: bool,
          progress: bool | None) -> None:
    """Build the graph from corpus files (default: the demo corpus in data/)."""
    from graph import nlp as nlp_loader

    model = spacy_model or nlp_loader.DEFAULT_MODEL
    show = sys.stderr.isatty() if progress is None else progress
    if add:
        from graph.build.incremental import add_files

        if not inputs:
            raise UserError("--add needs at least one INPUT file")
        added = add_files(list(inputs), store=store, base=base_iri, spacy_model=model,
                          out_dir=out_dir)
        click.echo(added.summary())
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
    from graph.build.incremental import store_base
    from graph.network import search_index
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
def remove(key: str, store: str | None) -> None:
    """Remove one paper (by key, original id, DOI, arXiv or OpenAlex id) and its facts."""
    from graph.build.incremental import remove_paper, store_base
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
