"""`paperkg eval` and `paperkg train`: scoring the extractors against the gold sets and fitting
the shipped models.

The imports inside the commands defer spaCy, scikit-learn and the training code (seconds to
import; torch for the tagger), so that the other commands start at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from graph.cli.common import UserError, cli, user_errors


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
def eval_cmd(gold: str | None, corpora: tuple[str, ...], all_corpora: bool, split: str,
             errors: bool, shared: str | None, as_json: bool, limit: int | None,
             threshold: float | None, thresholds: str | None, consistency: bool) -> None:
    """Score the extractors against a gold file or the annotated corpora (tests/gold)."""
    from graph.eval.gold_run import run_eval

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
        from graph.eval.consistency import run_consistency

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
              type=click.Path(file_okay=False),
              help="SciREX's folder (the mention scorer only; checked when it is trained).")
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
def train(which: str, out_dir: str | None, run_dir: str, csabstruct_dir: str, compare: bool,
          report_dev: bool, abstracts: str, scirex_dir: str, abstract_weight: int,
          gold: str | None, folds: int, max_body_tokens: int | None) -> None:
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
        from graph.eval.train_areas import train as train_areas

        click.echo(train_areas(out_dir, source=abstracts))
        return
    if which == "claims":
        from graph.eval.train_claims import train as train_claims

        if not Path(csabstruct_dir, "train.jsonl").is_file():
            raise UserError(f"--csabstruct: no train.jsonl in {csabstruct_dir}")
        click.echo(train_claims(out_dir, csabstruct_dir=csabstruct_dir, folds=folds or 5,
                                compare=compare, report_dev=report_dev))
        return
    from graph.eval.train_scorer import train as run_train

    if folds > 1 and gold is None:
        raise UserError("--folds: held-out scores need a gold file (--gold FILE)")
    if not Path(scirex_dir).is_dir():
        raise UserError(f"--scirex: no folder {scirex_dir}")
    options: dict[str, Any] = {} if max_body_tokens is None else {
        "max_body_tokens": max_body_tokens}
    click.echo(run_train(out_dir, scirex_dir=scirex_dir, abstract_weight=abstract_weight,
                         gold=gold, folds=folds, **options))
