"""The annotated corpora `paperkg eval --corpus NAME` knows: where each one's gold lies, what it
scores and which splits may be read for errors (graph.eval.targets holds the targets)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graph.errors import InputError, PaperkgError
from graph.eval.gold import GoldPaper, gold_papers, load_gold
from graph.eval.gold_areas import records_by_id
from graph.eval.gold_results import load as load_results
from graph.paths import ROOT

GOLD_DIR = ROOT / "tests" / "gold"
SPLITS = ("train", "dev")


@dataclass(frozen=True)
class Corpus:
    name: str
    #: "entities", "claims", "areas" or "numbers"
    kind: str
    description: str
    #: split -> gold file name in tests/gold (the AAAI file holds both splits)
    files: dict[str, str]
    #: errors may be listed on these splits only
    error_splits: tuple[str, ...] = ("train",)


CORPORA: dict[str, Corpus] = {
    c.name: c
    for c in (
        Corpus("scirex", "entities", "SciREX abstracts (Method, Material as dataset, Task, Metric)",
               {"train": "scirex-train.json", "dev": "scirex-dev.json"}),
        Corpus("scierc", "entities", "SciERC abstracts (Material with a capital or digit as "
               "dataset; OtherScientificTerm and Generic neutral)",
               {"train": "scierc-train.json", "dev": "scierc-dev.json"}),
        Corpus("csabstruct", "claims", "CSAbstruct sentence roles, for claims",
               {"train": "csabstruct-train.json", "dev": "csabstruct-dev.json"}),
        Corpus("aaai", "areas", "AAAI 2022 primary areas, for research areas",
               {"train": "aaai-areas.json", "dev": "aaai-areas.json"}),
        # annotated by hand as a held-out set: one split, never read for errors
        Corpus("results", "numbers", "numbers in result sentences of paper lists abstracts",
               {"dev": "results.json"}, error_splits=()),
    )
}


def corpus(name: str) -> Corpus:
    try:
        return CORPORA[name]
    except KeyError:
        raise PaperkgError(f"unknown corpus {name!r}; known: {', '.join(CORPORA)}") from None


def gold_path(c: Corpus, split: str, gold_dir: Path = GOLD_DIR) -> Path:
    if split not in c.files:
        raise PaperkgError(f"corpus {c.name} has no {split} split (it has: {', '.join(c.files)})")
    return gold_dir / c.files[split]


def check_errors_allowed(c: Corpus, split: str) -> None:
    """Errors are read on train splits only, so the dev figures stay honest."""
    if split not in c.error_splits:
        raise PaperkgError(
            f"--errors: refused on the {c.name} {split} split; errors are read on train splits "
            "only, so that dev figures stay honest"
        )


def is_dev_gold(path: str | Path) -> bool:
    """A dev split's own gold file (its per-paper listing must not be read)."""
    name = Path(path).name
    return any(
        c.files.get("dev") == name and c.files.get("train") != name for c in CORPORA.values()
    )


def load_papers(
    c: Corpus, split: str, *, shared: str | Path | None = None, gold_dir: Path = GOLD_DIR,
    limit: int | None = None,
) -> Sequence:
    """The corpus's gold papers of one split (GoldPaper, or ResultsPaper for numbers)."""
    path = gold_path(c, split, gold_dir)
    if c.kind == "numbers":
        return load_results(path, shared)[:limit]
    if c.kind == "areas":
        return load_area_papers(path, split, shared)[:limit]
    return load_gold(path, limit=limit)


def load_area_papers(path: Path, split: str, shared: str | Path | None) -> list[GoldPaper]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        chosen = [p for p in data["papers"] if p["split"] == split]
    except FileNotFoundError:
        raise InputError(f"{path}: gold file not found") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a readable areas gold file: {exc!r}") from None
    texts = records_by_id([p["id"] for p in chosen], shared)
    records = [
        {"id": p["id"], "title": texts[p["id"]].get("title"),
         "abstract": texts[p["id"]].get("abstract") or "", "domains": p["domains"]}
        for p in chosen
    ]
    return gold_papers(records, path)
