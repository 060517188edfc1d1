"""Gold files (tests/gold/*.json, the schema of tests/gold/README.md) read as gold papers: their
entities by name and match keys, areas, claims with their numbers, proposed names, annotated
mentions, neutral spans and sentence roles."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from graph.errors import InputError
from graph.eval.matching import name_keys
from graph.model import ENTITY_TYPES


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

