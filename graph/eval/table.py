"""One table for every corpus: corpus x row, P / R / F1 (or the row's one share), targets."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from graph import nlp as nlp_loader
from graph.eval.corpora import CORPORA, check_errors_allowed, corpus, gold_path
from graph.eval.run import CorpusResult, run_corpus


def _cell(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def format_table(results: Sequence[CorpusResult]) -> str:
    head = (
        f"{'corpus':<11}{'split':<6}{'row':<17}{'n':>6}{'P':>8}{'R':>8}{'F1':>8}{'share':>8}"
        f"  {'target':<22}result"
    )
    lines = [head, "-" * len(head)]
    for res in results:
        for r in res.rows:
            target = ", ".join(
                f"{'' if m == 'value' else {'f1': 'F1 ', 'precision': 'P '}.get(m, m + ' ')}{t}"
                for m, t in r.targets.items()
            )
            verdict = "n/a" if r.met is None else ("pass" if r.met else "MISS")
            if not r.targets:
                verdict = ""
            lines.append(
                f"{res.corpus:<11}{res.split:<6}{r.row:<17}{r.n:>6}{_cell(r.precision):>8}"
                f"{_cell(r.recall):>8}{_cell(r.f1):>8}{_cell(r.value):>8}  {target or '-':<22}"
                f"{verdict}".rstrip()
            )
    papers = ", ".join(f"{r.corpus} {r.papers}" for r in results)
    lines += ["", f"papers: {papers}"]
    missing = sorted({m for r in results for m in r.not_run})
    if missing:
        lines.append(f"not run (module missing): {', '.join(missing)}")
    return "\n".join(lines)


def format_errors(results: Sequence[CorpusResult]) -> str:
    return "\n".join(line for r in results for line in r.errors)


def to_json(results: Sequence[CorpusResult]) -> str:
    return json.dumps(
        [
            {"corpus": r.corpus, "split": r.split, "papers": r.papers, "not_run": r.not_run,
             "rows": [row.to_dict() for row in r.rows],
             **({"errors": r.errors} if r.errors else {})}
            for r in results
        ],
        indent=2, ensure_ascii=False,
    )


def run_table(
    names: Sequence[str] | None, split: str = "dev", *, errors: bool = False,
    shared: str | Path | None = None, as_json: bool = False, limit: int | None = None,
) -> str:
    """What `paperkg eval --corpus/--all` prints: the table (or JSON), and with `errors` each
    paper's errors after it (refused on dev splits before anything runs)."""
    chosen = [corpus(n).name for n in names] if names else [
        n for n in CORPORA if split in CORPORA[n].files
    ]
    # with --all, a corpus whose gold file is not there yet is named, not fatal
    absent = [n for n in chosen if names is None and not gold_path(CORPORA[n], split).exists()]
    chosen = [n for n in chosen if n not in absent]
    if errors:
        for name in chosen:
            check_errors_allowed(CORPORA[name], split)
    nlp = nlp_loader.load()
    results = [
        run_corpus(name, split, shared=shared, errors=errors, limit=limit, nlp=nlp)
        for name in chosen
    ]
    if as_json:
        return to_json(results)
    text = format_table(results)
    if absent:
        text += f"\nnot scored (gold file missing): {', '.join(absent)}"
    return f"{text}\n\n{format_errors(results)}" if errors else text
