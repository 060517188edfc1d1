"""The text of `paperkg eval --gold FILE`: the report's table with its targets, and the
precision/recall sweep over confidence thresholds (graph.eval.scoring builds the reports)."""

from __future__ import annotations

from collections.abc import Sequence

from graph.eval.scores import EvalReport, Score, checks
from graph.model import ENTITY_TYPES


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def format_table(report: EvalReport) -> str:
    """Plain-text table: counts, P/R/F1 per row, then each target with pass/fail."""
    lines = [
        f"gold: {report.gold}  papers: {report.n_papers}  "
        f"threshold: {report.threshold if report.threshold is not None else 'none'}  "
        f"resolver: {'graph.resolve' if report.resolver else 'mention labels'}"
    ]
    if report.not_run:
        lines.append(f"not run (module missing): {', '.join(report.not_run)}")
    head = f"{'row':<22}{'gold':>6}{'pred':>6}{'tp':>6}{'P':>8}{'R':>8}{'F1':>8}"
    lines += ["", head, "-" * len(head)]

    def row(name: str, s: Score, na: bool = False) -> str:
        if na:
            return f"{name:<22}{'0':>6}{s.n_pred:>6}{'-':>6}{'n/a':>8}{'n/a':>8}{'n/a':>8}"
        return (
            f"{name:<22}{s.n_gold:>6}{s.n_pred:>6}{s.tp:>6}"
            f"{s.precision:>8.3f}{s.recall:>8.3f}{s.f1:>8.3f}"
        )

    for etype in ENTITY_TYPES:
        label = "method (+model)" if etype == "method" and "model" in report.no_gold else etype
        na = etype in report.no_gold
        if etype == "model" and na:
            s = report.model_vs_methods
            lines.append(
                f"{'model':<22}{'n/a':>6}{s.n_pred:>6}{'-':>6}{'n/a':>8}{'n/a':>8}{'n/a':>8}"
                "   (no gold models)"
            )
            continue
        lines.append(row(label, report.entities[etype], na))
    if "model" in report.no_gold:
        lines.append(row("  method extractor only", report.method_only))
        s = report.model_vs_methods
        lines.append(
            f"{'  model vs gold methods':<22}{'':>6}{s.n_pred:>6}{s.tp:>6}"
            f"{s.precision:>8.3f}{'':>8}{'':>8}"
        )
    d, c = report.domains, report.claims
    lines.append("")
    if d.papers:
        lines.append(
            f"domains: {d.papers} papers, {d.papers_hit} with a correct area "
            f"({d.hit_rate:.3f}); {d.correct}/{d.predicted} areas correct "
            f"(P {d.precision:.3f})"
        )
    else:
        lines.append("domains: no gold domains")
    if c.papers:
        s = c.sentences
        lines.append(
            f"claims: {c.papers} papers, {s.n_gold} gold / {s.n_pred} predicted, "
            f"{s.tp} matched (R {s.recall:.3f}, P {s.precision:.3f}); kind accuracy "
            f"{c.kind_accuracy:.3f}; numbers as Results {c.quantities_captured}/"
            f"{c.quantities} ({c.numbers:.3f})"
        )
    else:
        lines.append("claims: no gold claims")
    pr = report.proposed
    if pr.papers:
        s = pr.names
        lines.append(
            f"proposed: {pr.papers} papers, {s.n_gold} gold / {s.n_pred} predicted, "
            f"{s.tp} matched (P {s.precision:.3f}, R {s.recall:.3f}, F1 {s.f1:.3f})"
        )
    lines += ["", f"{'target':<30}{'value':>8}{'min':>8}  result", "-" * 54]
    for ch in checks(report):
        result = "n/a" if ch.passed is None else ("pass" if ch.passed else "FAIL")
        lines.append(
            f"{ch.row + ' ' + ch.measure:<30}{_pct(ch.value):>8}{_pct(ch.target):>8}  {result}"
        )
    return "\n".join(lines)


def format_sweep(reports: Sequence[EvalReport]) -> str:
    """Precision/recall per entity type at each threshold."""
    proposed = any(r.proposed.papers for r in reports)
    head = f"{'threshold':>9}" + "".join(f"{t + ' P/R':>16}" for t in ENTITY_TYPES)
    head += f"{'proposed P/R':>16}" if proposed else ""
    lines = [head, "-" * len(head)]
    for r in reports:
        cells = []
        for t in ENTITY_TYPES:
            s = r.entities[t]
            cells.append(
                f"{'n/a':>16}" if t in r.no_gold else f"{s.precision:>8.3f}/{s.recall:<7.3f}"
            )
        if proposed:
            s = r.proposed.names
            cells.append(f"{s.precision:>8.3f}/{s.recall:<7.3f}")
        lines.append(f"{_pct(r.threshold):>9}" + "".join(cells))
    return "\n".join(lines)
