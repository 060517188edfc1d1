"""Score the extractors against a gold set (tests/gold/dev.json): `paperkg eval`.

Entities are scored by name, per paper, micro-averaged: a predicted entity (its label and
aliases) is a true positive when one of its names equals a gold entity's name or alias after
`normalise`, each gold entity matched at most once. Domains, claims and the numbers in claims
are scored on the papers whose gold has them. See tests/gold/README.md for the gold set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from spacy.language import Language

from graph import extractors as registry
from graph.errors import InputError, PaperkgError

# the tables live in graph.eval.gold_report; their names stay importable from here
from graph.eval.gold_report import (  # noqa: F401
    TARGETS,
    Check,
    checks,
    format_sweep,
    format_table,
)
from graph.model import ENTITY_TYPES, Mention, Paper, PaperExtraction

DEFAULT_EXTRACTORS: tuple[str, ...] = registry.DEFAULT_EXTRACTORS
#: `broader(slug)` gives the slugs of the concepts directly (or transitively) broader than it.
Broader = Callable[[str], Iterable[str]]

_DASHES = re.compile(r"[-‐‑–—/_]")
_PUNCT = re.compile(r"[^\w\s.+#]")
# a dot is punctuation unless it sits between digits ("2.0", "0.5")
_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")


def normalise(name: str) -> str:
    """Match key of a name: case, hyphens/slashes, spaces, punctuation and plurals folded.

    "Convolutional Neural Networks" == "convolutional neural network"; "V-Net" == "V Net";
    "CNNs" == "CNN"; "FlowNet 2.0" keeps its "2.0".
    """
    s = _DASHES.sub(" ", name.lower())
    s = _PUNCT.sub(" ", s)
    s = _DOT.sub(" ", s)
    words = []
    for w in s.split():
        if len(w) > 3 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        words.append(w)
    return " ".join(words)


def match_key(name: str) -> str:
    """`normalise` without the spaces: "CNN/DailyMail" == "CNN / Daily Mail", "VNet" == "V-Net"."""
    return normalise(name).replace(" ", "")


def name_keys(names: Iterable[str]) -> frozenset[str]:
    return frozenset(k for k in (match_key(n) for n in names) if k)


# ---------------------------------------------------------------------------- scores


@dataclass
class Score:
    """Counts for one measure; precision/recall/F1 are 0.0 when their denominator is 0."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def n_pred(self) -> int:
        return self.tp + self.fp

    @property
    def n_gold(self) -> int:
        return self.tp + self.fn

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        # 2PR / (P + R) in counts: one division, so an F1 that is exactly a target (330/550 =
        # 0.6) is not rounded below it
        total = self.n_pred + self.n_gold
        return 2 * self.tp / total if total else 0.0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def to_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def max_matching(
    n_left: int, n_right: int, edges: Callable[[int], Iterable[int]]
) -> dict[int, int]:
    """Maximum bipartite matching (augmenting paths), left index -> right index.

    Deterministic: left items are tried in order, their candidates in the order given.
    """
    match_right: dict[int, int] = {}

    def augment(left: int, seen: set[int]) -> bool:
        for right in edges(left):
            if right in seen:
                continue
            seen.add(right)
            if right not in match_right or augment(match_right[right], seen):
                match_right[right] = left
                return True
        return False

    for left in range(n_left):
        augment(left, set())
    return {left: right for right, left in match_right.items()}


@dataclass
class EntityMatch:
    score: Score
    #: gold names not found / predicted names matching nothing
    missed: list[str]
    spurious: list[str]
    #: predicted names matching no gold entity but a neutral span (counted neither way)
    neutral: list[str] = field(default_factory=list)


def match_entities(
    predicted: Sequence[tuple[str, frozenset[str]]],
    gold: Sequence[tuple[str, frozenset[str]]],
    neutral: frozenset[str] = frozenset(),
) -> EntityMatch:
    """Score predicted against gold entities, each given as (display name, normalised names).

    A predicted entity that matches no gold entity but has a key in `neutral` (the names of
    spans the gold marks as neither right nor wrong) is not a false positive.
    """
    matching = max_matching(
        len(predicted),
        len(gold),
        lambda i: [j for j, (_, keys) in enumerate(gold) if keys & predicted[i][1]],
    )
    matched_gold = set(matching.values())
    unmatched = [i for i in range(len(predicted)) if i not in matching]
    neutral_hits = [i for i in unmatched if predicted[i][1] & neutral]
    fp = len(unmatched) - len(neutral_hits)
    score = Score(tp=len(matching), fp=fp, fn=len(gold) - len(matching))
    return EntityMatch(
        score=score,
        missed=[name for j, (name, _) in enumerate(gold) if j not in matched_gold],
        spurious=[predicted[i][0] for i in unmatched if i not in neutral_hits],
        neutral=[predicted[i][0] for i in neutral_hits],
    )


def group_names(named: Iterable[tuple[str, Iterable[str]]]) -> list[tuple[str, frozenset[str]]]:
    """Merge (label, aliases) records that share a normalised name into one entity each.

    An abstract names the same thing several times; each mention must not count as an entity.
    The first label seen names the group.
    """
    groups: list[tuple[str, set[str]]] = []
    for label, aliases in named:
        keys = set(name_keys([label, *aliases]))
        if not keys:
            continue
        hits = [g for g in groups if g[1] & keys]
        if not hits:
            groups.append((label, keys))
            continue
        first = hits[0]
        first[1].update(keys)
        for other in hits[1:]:
            first[1].update(other[1])
            groups.remove(other)
    return [(label, frozenset(keys)) for label, keys in groups]


def spans_match(a: tuple[int, int], b: tuple[int, int], share: float = 0.5) -> bool:
    """Two spans overlap by at least `share` of the shorter one."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    shorter = min(a[1] - a[0], b[1] - b[0])
    return overlap > 0 and shorter > 0 and overlap >= share * shorter


# ---------------------------------------------------------------------------- gold


@dataclass(frozen=True)
class GoldClaim:
    start: int
    end: int
    kind: str
    quantities: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class GoldSentence:
    """A sentence of a gold abstract with its role (CSAbstruct) and the annotators' confidence."""

    start: int
    end: int
    label: str
    conf: float


@dataclass(frozen=True)
class GoldPaper:
    id: str
    abstract: str
    title: str | None
    entities: Mapping[str, tuple[tuple[str, frozenset[str]], ...]]
    domains: tuple[str, ...] | None = None
    claims: tuple[GoldClaim, ...] | None = None
    #: the names the paper introduces as its own (pkg:proposes), None where not annotated
    proposes: tuple[tuple[str, frozenset[str]], ...] | None = None
    #: per type, each entity's name and aliases as written (`entities` holds their match keys)
    forms: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: the annotated mentions, (start, end, type) in `abstract`, where the gold file gives them
    mentions: tuple[tuple[int, int, str], ...] = ()
    #: spans a prediction may match without being right or wrong, (start, end, text)
    neutral: tuple[tuple[int, int, str], ...] = ()
    #: the abstract's sentences with their roles, where the gold file gives them
    sentences: tuple[GoldSentence, ...] | None = None


def load_gold(path: str | Path, *, limit: int | None = None) -> list[GoldPaper]:
    """Read a gold file; errors name the file and the paper record."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: gold file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON gold file: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("papers"), list):
        raise InputError(f"{path}: expected a JSON object with a 'papers' list")
    return gold_papers(data["papers"][:limit] if limit is not None else data["papers"], path)


def gold_papers(records: Iterable[dict], where: str | Path) -> list[GoldPaper]:
    """Gold papers from records of a gold file's `papers` list; errors name `where` and the
    record."""
    papers: list[GoldPaper] = []
    seen: set[str] = set()
    for n, rec in enumerate(records):
        try:
            papers.append(_gold_paper(rec))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where}: papers[{n}]: bad gold record ({exc!r})") from None
        # predictions are matched to gold papers by id
        if papers[-1].id in seen:
            raise InputError(f"{where}: papers[{n}]: id {papers[-1].id!r} given twice")
        seen.add(papers[-1].id)
    return papers


def _gold_paper(rec: dict) -> GoldPaper:
    entities: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
    forms: dict[str, tuple[tuple[str, ...], ...]] = {}
    for etype in ENTITY_TYPES:
        items = rec.get("entities", {}).get(etype, [])
        forms[etype] = tuple((e["name"], *e.get("aliases", [])) for e in items)
        entities[etype] = tuple((names[0], name_keys(names)) for names in forms[etype])
    mentions = tuple(
        (int(m["start"]), int(m["end"]), str(m["type"])) for m in rec.get("mentions", [])
    )
    claims = None
    if "claims" in rec:
        claims = tuple(
            GoldClaim(
                start=int(c["start"]),
                end=int(c["end"]),
                kind=str(c["kind"]),
                quantities=tuple(
                    (int(q["start"]), int(q["end"]), q["text"]) for q in c.get("quantities", [])
                ),
            )
            for c in rec["claims"]
        )
    domains = tuple(rec["domains"]) if "domains" in rec else None
    neutral = tuple(
        (int(m["start"]), int(m["end"]), str(m["text"])) for m in rec.get("neutral", [])
    )
    sentences = None
    if "sentences" in rec:
        sentences = tuple(
            GoldSentence(int(s["start"]), int(s["end"]), str(s["label"]), float(s["conf"]))
            for s in rec["sentences"]
        )
    proposes = None
    if "proposes" in rec:
        # a bare string is a name without other forms
        items = [{"name": e} if isinstance(e, str) else e for e in rec["proposes"]]
        proposes = tuple(
            (e["name"], name_keys([e["name"], *e.get("aliases", [])])) for e in items
        )
    return GoldPaper(
        id=str(rec["id"]),
        abstract=str(rec["abstract"]),
        title=rec.get("title"),
        entities=entities,
        domains=domains,
        claims=claims,
        proposes=proposes,
        forms=forms,
        mentions=mentions,
        neutral=neutral,
        sentences=sentences,
    )


# ---------------------------------------------------------------------------- predictions


def predicted_entities(
    extractions: Sequence[PaperExtraction], *, use_resolver: bool = True
) -> dict[str, dict[str, list[tuple[str, Iterable[str]]]]]:
    """paper key -> entity type -> [(label, aliases)], one record per mention.

    With graph.resolve present its canonical labels and alias tables name the mentions;
    without it, the mention's own label/text/aliases do.
    """
    resolve = _resolver() if use_resolver else None
    out: dict[str, dict[str, list[tuple[str, Iterable[str]]]]] = {}
    if resolve is not None:
        corpus = resolve(list(extractions))
        for ext in extractions:
            key = ext.paper.key
            per = out.setdefault(key, {t: [] for t in ENTITY_TYPES})
            for ref in corpus.links.get(key, []):
                if ref is None or ref not in corpus.entities:
                    continue
                entity = corpus.entities[ref]
                if entity.type in per:
                    per[entity.type].append((entity.label, sorted(entity.aliases)))
        return out
    for ext in extractions:
        per = out.setdefault(ext.paper.key, {t: [] for t in ENTITY_TYPES})
        for m in ext.mentions:
            if m.type in per:
                per[m.type].append((m.label or m.text, (m.text, *m.aliases)))
    return out


def _resolver() -> Callable[[list[PaperExtraction]], Any] | None:
    try:
        module = import_module("graph.resolve")
    except ModuleNotFoundError as exc:
        if exc.name in ("graph.resolve", "graph"):
            return None
        raise
    return getattr(module, "resolve", None)


def filter_confidence(
    extractions: Sequence[PaperExtraction], threshold: float | None
) -> list[PaperExtraction]:
    if threshold is None:
        return list(extractions)
    return [
        PaperExtraction(
            paper=e.paper, mentions=[m for m in e.mentions if m.confidence >= threshold]
        )
        for e in extractions
    ]


# ---------------------------------------------------------------------------- report


@dataclass
class PaperDiff:
    id: str
    missed: dict[str, list[str]] = field(default_factory=dict)
    spurious: dict[str, list[str]] = field(default_factory=dict)
    domains_predicted: list[str] | None = None
    domains_gold: list[str] | None = None
    proposed_missed: list[str] | None = None
    proposed_spurious: list[str] | None = None


@dataclass
class DomainScore:
    papers: int = 0
    papers_hit: int = 0
    predicted: int = 0
    correct: int = 0

    @property
    def hit_rate(self) -> float:
        return self.papers_hit / self.papers if self.papers else 0.0

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "papers_hit": self.papers_hit,
            "hit_rate": round(self.hit_rate, 4),
            "predicted": self.predicted,
            "correct": self.correct,
            "precision": round(self.precision, 4),
        }


@dataclass
class ClaimScore:
    papers: int = 0
    sentences: Score = field(default_factory=Score)
    kind_correct: int = 0
    quantities: int = 0
    quantities_captured: int = 0

    @property
    def kind_accuracy(self) -> float:
        return self.kind_correct / self.sentences.tp if self.sentences.tp else 0.0

    @property
    def numbers(self) -> float:
        return self.quantities_captured / self.quantities if self.quantities else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            **self.sentences.to_dict(),
            "kind_accuracy": round(self.kind_accuracy, 4),
            "quantities": self.quantities,
            "quantities_captured": self.quantities_captured,
            "numbers": round(self.numbers, 4),
        }


@dataclass
class EvalReport:
    gold: str
    n_papers: int
    extractors: list[str]
    threshold: float | None
    resolver: bool
    entities: dict[str, Score]
    #: types with no gold entity in any paper (scored n/a)
    no_gold: list[str]
    #: methods as the method extractor alone finds them (the `method` row also counts models)
    method_only: Score
    #: model predictions matched against gold methods, on papers without gold models
    model_vs_methods: Score
    domains: DomainScore
    claims: ClaimScore
    papers: list[PaperDiff]
    not_run: list[str] = field(default_factory=list)
    #: proposed names (any entity type) on the papers whose gold has `proposes`
    proposed: ProposedScore = field(default_factory=lambda: ProposedScore())
    #: per type, predicted entities that matched only a neutral span (neither right nor wrong)
    neutral: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "gold": self.gold,
            "papers": self.n_papers,
            "extractors": self.extractors,
            "not_run": self.not_run,
            "threshold": self.threshold,
            "resolver": self.resolver,
            "entities": {
                t: (None if t in self.no_gold else s.to_dict()) for t, s in self.entities.items()
            },
            "method_only": self.method_only.to_dict(),
            "model_vs_methods": self.model_vs_methods.to_dict(),
            "domains": self.domains.to_dict() if self.domains.papers else None,
            "claims": self.claims.to_dict() if self.claims.papers else None,
            "proposed": self.proposed.to_dict() if self.proposed.papers else None,
            **({"neutral": self.neutral} if any(self.neutral.values()) else {}),
            "checks": [asdict(c) for c in checks(self)],
            "per_paper": [asdict(p) for p in self.papers],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)


def score(
    gold: Sequence[GoldPaper],
    extractions: Sequence[PaperExtraction],
    *,
    broader: Broader | None = None,
    use_resolver: bool = True,
    gold_name: str = "",
    extractors: Sequence[str] = (),
    threshold: float | None = None,
) -> EvalReport:
    """Compare extractions (paper key = gold id) with the gold papers."""
    by_key = {e.paper.key: e for e in extractions}
    predicted = predicted_entities(extractions, use_resolver=use_resolver)
    has_gold = {t: any(p.entities[t] for p in gold) for t in ENTITY_TYPES}
    totals = {t: Score() for t in ENTITY_TYPES}
    method_only, model_vs_methods = Score(), Score()
    domains, claims = DomainScore(), ClaimScore()
    proposed = ProposedScore()
    neutral_counts: dict[str, int] = {}
    diffs: list[PaperDiff] = []
    ancestors = _closure(broader)
    for paper in gold:
        pred = predicted.get(paper.id, {t: [] for t in ENTITY_TYPES})
        diff = PaperDiff(id=paper.id)
        ext = by_key.get(paper.id)
        neutral = neutral_keys(paper, ext.mentions if ext is not None else [])
        for etype in ENTITY_TYPES:
            records = list(pred.get(etype, []))
            if etype == "model" and not paper.entities["model"]:
                # SciREX-style gold has no Model type: its Methods include named models.
                models = group_names(records)
                model_vs_methods.add(match_entities(models, paper.entities["method"]).score)
                continue
            if etype == "method" and not paper.entities["model"]:
                method_only.add(
                    match_entities(group_names(records), paper.entities["method"]).score
                )
                records += list(pred.get("model", []))
            result = match_entities(group_names(records), paper.entities[etype], neutral)
            totals[etype].add(result.score)
            neutral_counts[etype] = neutral_counts.get(etype, 0) + len(result.neutral)
            if result.missed:
                diff.missed[etype] = result.missed
            if result.spurious:
                diff.spurious[etype] = result.spurious
        mentions = ext.mentions if ext is not None else []
        if paper.domains is not None:
            got = sorted({m.label or m.text for m in mentions if m.type == "domain"})
            _score_domains(domains, paper.domains, got, ancestors)
            diff.domains_predicted, diff.domains_gold = got, list(paper.domains)
        if paper.claims is not None:
            _score_claims(claims, paper.claims, [m for m in mentions if m.type == "claim"])
        if paper.proposes is not None:
            result = score_proposed(paper.proposes, mentions)
            proposed.papers += 1
            proposed.names.add(result.score)
            diff.proposed_missed, diff.proposed_spurious = result.missed, result.spurious
        diffs.append(diff)
    return EvalReport(
        gold=gold_name,
        n_papers=len(gold),
        extractors=list(extractors),
        threshold=threshold,
        resolver=use_resolver and _resolver() is not None,
        entities=totals,
        no_gold=[t for t in ENTITY_TYPES if not has_gold[t]],
        method_only=method_only,
        model_vs_methods=model_vs_methods,
        domains=domains,
        claims=claims,
        papers=diffs,
        proposed=proposed,
        neutral=neutral_counts,
    )


def neutral_keys(paper: GoldPaper, mentions: Iterable[Mention]) -> frozenset[str]:
    """Match keys a prediction may have without counting against it: the texts of the gold's
    neutral spans, and the names of predicted mentions that sit on such a span."""
    if not paper.neutral:
        return frozenset()
    keys = set(name_keys(text for _, _, text in paper.neutral))
    for m in mentions:
        if m.type in ENTITY_TYPES and any(
            spans_match((m.start, m.end), (s, e), share=0.8) for s, e, _ in paper.neutral
        ):
            keys |= name_keys([m.label or m.text, m.text, *m.aliases])
    return frozenset(keys)


def _closure(broader: Broader | None) -> Callable[[str], set[str]]:
    cache: dict[str, set[str]] = {}

    def ancestors(slug: str) -> set[str]:
        if broader is None:
            return set()
        if slug not in cache:
            cache[slug] = set()
            todo, seen = list(broader(slug)), set()
            while todo:
                s = todo.pop()
                if s in seen or s == slug:
                    continue
                seen.add(s)
                todo.extend(broader(s))
            cache[slug] = seen
        return cache[slug]

    return ancestors


def domain_correct(pred: str, gold: Iterable[str], ancestors: Callable[[str], set[str]]) -> bool:
    """Equal to a gold slug, or narrower/broader than one in the taxonomy."""
    return any(pred == g or g in ancestors(pred) or pred in ancestors(g) for g in gold)


def _score_domains(
    acc: DomainScore, gold: Sequence[str], got: Sequence[str], ancestors: Callable[[str], set[str]]
) -> None:
    correct = [d for d in got if domain_correct(d, gold, ancestors)]
    acc.papers += 1
    acc.papers_hit += bool(correct)
    acc.predicted += len(got)
    acc.correct += len(correct)


def _score_claims(acc: ClaimScore, gold: Sequence[GoldClaim], predicted: Sequence[Mention]) -> None:
    acc.papers += 1
    matching = max_matching(
        len(predicted),
        len(gold),
        lambda i: [
            j
            for j, g in enumerate(gold)
            if spans_match((predicted[i].start, predicted[i].end), (g.start, g.end))
        ],
    )
    acc.sentences.add(
        Score(tp=len(matching), fp=len(predicted) - len(matching), fn=len(gold) - len(matching))
    )
    acc.kind_correct += sum(predicted[i].claim_kind == gold[j].kind for i, j in matching.items())
    results = [(r.start, r.end) for m in predicted for r in m.results]
    for claim in gold:
        for start, end, _ in claim.quantities:
            acc.quantities += 1
            acc.quantities_captured += any(min(e, end) > max(s, start) for s, e in results)


# ---------------------------------------------------------------------------- proposed


@dataclass
class ProposedScore:
    """Names the extractors mark `proposed`, against the gold `proposes` of annotated papers."""

    papers: int = 0
    names: Score = field(default_factory=Score)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": self.papers, **self.names.to_dict()}


def score_proposed(
    gold: Sequence[tuple[str, frozenset[str]]], mentions: Iterable[Mention]
) -> EntityMatch:
    """Match the proposed entity mentions of one paper (any type, grouped by name) to its gold
    proposed names. The mention's own label/text/aliases name it: whether a paper proposes a
    thing is a fact about that paper, not about the corpus-wide entity."""
    records = [
        (m.label or m.text, (m.text, *m.aliases))
        for m in mentions
        if m.proposed and m.type in ENTITY_TYPES
    ]
    return match_entities(group_names(records), gold)


# ---------------------------------------------------------------------------- running


def available_extractors(names: Iterable[str] = DEFAULT_EXTRACTORS) -> tuple[list[str], list[str]]:
    """(importable, missing) extractor names: a half-built pipeline can still be measured."""
    ok, missing = [], []
    for name in names:
        try:
            registry.get(name)
        except ModuleNotFoundError:
            missing.append(name)
        else:
            ok.append(name)
    return ok, missing


def extract_gold(
    gold: Sequence[GoldPaper], *, extractors: Sequence[str], nlp: Language | None = None
) -> list[PaperExtraction]:
    from graph.extractors.pipeline import extract_papers

    papers = [Paper(key=g.id, abstract=g.abstract, title=g.title, id=g.id) for g in gold]
    return extract_papers(papers, nlp=nlp, extractors=tuple(extractors))


def _prepare(gold_path, extractors, limit):
    gold = load_gold(gold_path, limit=limit)
    if extractors is None or extractors is DEFAULT_EXTRACTORS:
        names, missing = available_extractors(DEFAULT_EXTRACTORS)
    else:
        names, missing = list(extractors), []
        unknown = [n for n in names if n not in registry.names()]
        if unknown:
            raise PaperkgError(
                f"unknown extractor(s) {', '.join(unknown)}; known: {', '.join(registry.names())}"
            )
    return gold, names, missing


def evaluate(
    gold_path: str | Path,
    *,
    extractors: Sequence[str] | None = DEFAULT_EXTRACTORS,
    nlp: Language | None = None,
    limit: int | None = None,
    threshold: float | None = None,
    broader: Broader | None = None,
    use_resolver: bool = True,
) -> EvalReport:
    """Run the pipeline on the gold abstracts and score it.

    With the default extractors, those whose module is not there yet are left out and listed in
    `report.not_run`; an extractor named explicitly must exist. `threshold` drops mentions with a
    lower confidence. `broader` defaults to the taxonomy in data/taxonomy.ttl when present.
    """
    gold, names, missing = _prepare(gold_path, extractors, limit)
    extractions = extract_gold(gold, extractors=names, nlp=nlp)
    report = score(
        gold,
        filter_confidence(extractions, threshold),
        broader=broader if broader is not None else taxonomy_broader(),
        use_resolver=use_resolver,
        gold_name=str(gold_path),
        extractors=names,
        threshold=threshold,
    )
    report.not_run = missing
    return report


def sweep(
    gold_path: str | Path,
    thresholds: Sequence[float],
    *,
    extractors: Sequence[str] | None = DEFAULT_EXTRACTORS,
    nlp: Language | None = None,
    limit: int | None = None,
    broader: Broader | None = None,
    use_resolver: bool = True,
) -> list[EvalReport]:
    """One report per confidence threshold, extracting once (a precision/recall curve)."""
    gold, names, missing = _prepare(gold_path, extractors, limit)
    extractions = extract_gold(gold, extractors=names, nlp=nlp)
    broader = broader if broader is not None else taxonomy_broader()
    reports = []
    for t in thresholds:
        report = score(
            gold,
            filter_confidence(extractions, t),
            broader=broader,
            use_resolver=use_resolver,
            gold_name=str(gold_path),
            extractors=names,
            threshold=t,
        )
        report.not_run = missing
        reports.append(report)
    return reports


TAXONOMY = Path(__file__).resolve().parent.parent / "data" / "taxonomy.ttl"


def taxonomy_broader(path: Path = TAXONOMY) -> Broader | None:
    """`broader` from the skos:broader links of a taxonomy file (slug = last IRI segment)."""
    if not path.exists():
        return None
    from rdflib import Graph
    from rdflib.namespace import SKOS

    graph = Graph()
    graph.parse(path, format="turtle")
    links: dict[str, set[str]] = {}
    for narrow, _, broad in graph.triples((None, SKOS.broader, None)):
        links.setdefault(_slug(str(narrow)), set()).add(_slug(str(broad)))
    return lambda slug: links.get(slug, ())


def _slug(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def run_eval(
    gold: str | Path,
    *,
    as_json: bool = False,
    limit: int | None = None,
    threshold: float | None = None,
    thresholds: Sequence[float] | None = None,
) -> str:
    """The text `paperkg eval` prints: the table, the JSON report, or a threshold sweep."""
    if thresholds:
        reports = sweep(gold, thresholds, limit=limit)
        if as_json:
            return json.dumps([r.to_dict() for r in reports], indent=2, ensure_ascii=False)
        return format_sweep(reports)
    report = evaluate(gold, limit=limit, threshold=threshold)
    return report.to_json() if as_json else format_table(report)
