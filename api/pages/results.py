"""Results: every `pkg:Result` with its claim sentence, and a leaderboard per dataset and metric.

A Result names its metric, dataset, model and baseline either as entity IRIs (labelled with
rdfs:label) or as literals (`pkg:metric "F1"` or `pkg:metricName "F1"`); the queries read
both. Which way a metric is better comes from a direction on the Result or on its metric
entity (`pkg:direction` "higher"/"lower" or an IRI ending so, `pkg:higherIsBetter` /
`pkg:lowerIsBetter` true/false), else from the metric's name for a few well-known error-like
metrics, else it is unknown and the leaderboard says so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from flask import render_template, request

from .common import Node, bp, iri, labels, local_name, node, select

RESULTS_LIMIT = 5000
PARTS = ("metric", "dataset", "model", "baseline")
# Metrics whose smaller values are better, by words of their names; anything else is unknown
# unless the graph says.
_LOWER_WORDS = re.compile(
    r"\b(error|errors|loss|perplexity|ppl|fid|wer|cer|mae|mse|rmse|latency|regret|"
    r"distance|divergence|runtime|time)\b", re.I)
_HIGHER_WORDS = re.compile(
    r"\b(accuracy|acc|f1|f-score|f-measure|bleu|rouge(-\w+)?|meteor|precision|recall|auc|"
    r"map|ndcg|mrr|exact match|em|success rate|top-1|top-5|iou|miou|psnr|ssim|reward|score)\b",
    re.I)
DIRECTION_PROPS = ("direction", "higherIsBetter", "lowerIsBetter")


def _part_patterns(name: str) -> str:
    """Bind ?{name} (an IRI or nothing) and ?{name}Label (its label or the literal)."""
    return f"""
  OPTIONAL {{ ?r pkg:{name} ?{name}0 . OPTIONAL {{ ?{name}0 rdfs:label ?{name}0l }} }}
  OPTIONAL {{ ?r pkg:{name}Name ?{name}1 }}
  BIND(IF(isIRI(?{name}0), ?{name}0, ?nothing) AS ?{name})
  BIND(COALESCE(IF(isIRI(?{name}0), ?{name}0l, STR(?{name}0)), STR(?{name}1)) AS ?{name}Label)"""


def _direction_patterns() -> str:
    props = " ".join(f"pkg:{p}" for p in DIRECTION_PROPS)
    return f"""
  OPTIONAL {{ VALUES ?dp {{ {props} }} ?r ?dp ?dv }}
  OPTIONAL {{ VALUES ?mp {{ {props} }} ?metric0 ?mp ?mv }}"""


def results_query(scope: str, *, limit: int = RESULTS_LIMIT) -> str:
    """SELECT of the Results that `scope` binds to ?r (with ?c, ?paper), at most `limit`."""
    parts = "".join(_part_patterns(name) for name in PARTS)
    part_vars = " ".join(f"?{n} ?{n}Label" for n in PARTS)
    return f"""
SELECT ?paper ?c ?claimText ?r ?value ?unit ?text {part_vars} ?dp ?dv ?mp ?mv WHERE {{
  {{ SELECT DISTINCT ?paper ?c ?r WHERE {{
      {scope}
      ?paper pkg:makesClaim ?c . ?c pkg:result ?r .
  }} ORDER BY ?r LIMIT {limit} }}
  ?r pkg:value ?value .
  OPTIONAL {{ ?c schema:text ?claimText }}
  OPTIONAL {{ ?r pkg:unit ?unit }}
  OPTIONAL {{ ?r schema:text ?text }}{parts}{_direction_patterns()}
}}"""


@dataclass
class ResultRow:
    iri: str
    value: str
    unit: str | None
    text: str | None
    metric: Node | None
    dataset: Node | None
    model: Node | None
    baseline: Node | None
    claim: str | None = None
    claim_text: str | None = None
    paper: Node | None = None
    direction: str | None = None  # "higher", "lower" or None: unknown
    hints: list[tuple[str, str]] = field(default_factory=list)

    @property
    def number(self) -> str:
        try:
            return format(Decimal(self.value).normalize(), "f")
        except InvalidOperation:
            return self.value

    @property
    def decimal(self) -> Decimal | None:
        try:
            return Decimal(self.value)
        except InvalidOperation:
            return None

    @property
    def sentence(self) -> tuple[str, str, str] | None:
        """The claim sentence split around the quantity: (before, quantity, after)."""
        if not self.claim_text:
            return None
        quote = self.text or ""
        at = self.claim_text.find(quote) if quote else -1
        if at < 0:
            return self.claim_text, "", ""
        return (self.claim_text[:at], quote, self.claim_text[at + len(quote):])


def _direction_of(prop: str, value: str) -> str | None:
    name, text = local_name(prop), local_name(value).lower()
    if name == "direction":
        if "lower" in text or "less" in text or "min" in text:
            return "lower"
        if "higher" in text or "greater" in text or "max" in text:
            return "higher"
        return None
    truth = text in ("true", "1")
    if name == "higherIsBetter":
        return "higher" if truth else "lower"
    if name == "lowerIsBetter":
        return "lower" if truth else "higher"
    return None


def result_rows(rows: Iterable[Mapping[str, str | None]]) -> list[ResultRow]:
    """One ResultRow per Result, from rows of `results_query` (first binding of each wins)."""
    rows = list(rows)
    paper_labels = labels(row["paper"] or "" for row in rows if row.get("paper"))

    def part(row: Mapping[str, str | None], name: str) -> Node | None:
        found, label = row.get(name), row.get(name + "Label")
        if found:
            return node(found, label)
        if label:
            return Node(iri="", label=" ".join(label.split()), type=name, url=None)
        return None

    results: dict[str, ResultRow] = {}
    for row in rows:
        key = row["r"] or ""
        result = results.get(key)
        if result is None:
            paper_iri = row.get("paper")
            result = results[key] = ResultRow(
                iri=key, value=row["value"] or "", unit=row.get("unit"), text=row.get("text"),
                metric=part(row, "metric"), dataset=part(row, "dataset"),
                model=part(row, "model"), baseline=part(row, "baseline"),
                claim=row.get("c"), claim_text=row.get("claimText"),
                paper=node(paper_iri, paper_labels.get(paper_iri)) if paper_iri else None,
            )
        for prop, value, source in (("dp", "dv", "result"), ("mp", "mv", "metric")):
            if row.get(prop) and row.get(value):
                result.hints.append((source, _direction_of(row[prop] or "", row[value] or "")
                                     or ""))
    for result in results.values():
        result.direction = _decide_direction(result)
    return sorted(results.values(), key=lambda r: r.iri)


def _decide_direction(result: ResultRow) -> str | None:
    for source in ("result", "metric"):
        for hint_source, direction in result.hints:
            if hint_source == source and direction:
                return direction
    if result.metric and _LOWER_WORDS.search(result.metric.label):
        return "lower"
    if result.metric and _HIGHER_WORDS.search(result.metric.label):
        return "higher"
    return None


@dataclass
class Leaderboard:
    dataset: Node
    metric: Node
    unit: str
    direction: str | None
    entries: list[ResultRow]


def leaderboards(rows: Iterable[ResultRow]) -> list[Leaderboard]:
    """One board per (dataset, metric, unit) named by at least one Result, best value first.

    Values in other units (83.1 % and "1.8 points" better) are not ranked together.

    The direction is the one most of the board's Results give (ties and none: unknown, and
    the board keeps higher values first, saying the direction is not known).
    """
    groups: dict[tuple[str, str, str], list[ResultRow]] = defaultdict(list)
    for row in rows:
        if row.dataset and row.metric and row.decimal is not None:
            groups[(row.dataset.label, row.metric.label, row.unit or "")].append(row)
    boards = []
    for (_, _, unit), entries in sorted(groups.items(), key=lambda kv: (
            kv[0][0].lower(), kv[0][1].lower(), kv[0][2])):
        votes = [e.direction for e in entries if e.direction]
        direction = None
        if votes:
            top = max(set(votes), key=lambda d: (votes.count(d), d))
            if votes.count(top) * 2 > len(votes):
                direction = top
        ranked = sorted(entries, key=lambda e: (e.decimal if direction == "lower"
                                                else -(e.decimal or 0), e.iri))
        dataset, metric = entries[0].dataset, entries[0].metric
        if dataset is None or metric is None:  # grouped above only with both
            continue
        boards.append(Leaderboard(dataset=dataset, metric=metric,
                                  unit=unit, direction=direction, entries=ranked))
    return boards


def results_with(entity_iri: str) -> list[ResultRow]:
    """Results whose metric, dataset, model or baseline is the entity."""
    term = iri(entity_iri)
    scope = (f"{{ ?r pkg:metric {term} }} UNION {{ ?r pkg:dataset {term} }} UNION "
             f"{{ ?r pkg:model {term} }} UNION {{ ?r pkg:baseline {term} }}")
    return result_rows(select(results_query(scope, limit=500)))


def results_of(paper_iri: str) -> list[ResultRow]:
    return result_rows(select(results_query(f"VALUES ?paper {{ {iri(paper_iri)} }}", limit=500)))


def all_results() -> list[ResultRow]:
    return result_rows(select(results_query("")))


def _options(rows: Iterable[ResultRow], name: str) -> list[str]:
    found = {getattr(r, name).label for r in rows if getattr(r, name)}
    return sorted(found, key=str.lower)


@bp.get("/results")
def results() -> str:
    rows = all_results()
    chosen = {name: request.args.get(name, "").strip() for name in ("dataset", "metric")}
    return render_template(
        "pages/results.html", rows=rows, limit=RESULTS_LIMIT, boards=leaderboards(rows),
        datasets=_options(rows, "dataset"), metrics=_options(rows, "metric"), chosen=chosen,
    )
