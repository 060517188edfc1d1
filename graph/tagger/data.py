"""Training and scoring examples for the tagger: text with typed character spans.

SciERC sentences (Method, Task, Metric; Material as dataset where it is a name) and SciREX
train-split papers (the abstract, and optionally passages of the body). SciREX dev papers
(graph.eval.splits) are never returned by the train readers.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graph.errors import InputError
from graph.eval.scirex_passages import abstract_passage, join_tokens, passages
from graph.eval.splits import SCIREX_DEV_SHARE, is_dev
from graph.paths import ROOT
from graph.tagger.folds import fold_of

TYPES = ("method", "dataset", "task", "metric")
#: the annotated corpora, beside the repository (see each SOURCE.md there)
SHARED = ROOT.parent / "shared" / "data"
_SCIERC_TYPES = {"Method": "method", "Task": "task", "Metric": "metric", "Material": "dataset"}
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
        "``": '"', "''": '"'}
# SciERC's Material covers data in general ("images", "speech"); only names count as datasets.
_NAME_LIKE = re.compile(r"[A-Z0-9]")


@dataclass(frozen=True, slots=True)
class Example:
    source: str
    text: str
    spans: tuple[tuple[int, int, str], ...]


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{n}: not a JSON line ({exc.msg})") from None
    return rows


def scierc_docs(path: str | Path) -> Iterator[tuple[str, list[Example]]]:
    """(doc_key, one Example per sentence) for each SciERC abstract in a JSON Lines file."""
    for doc in _read_jsonl(Path(path)):
        offset = 0
        out = []
        for sent, ner in zip(doc["sentences"], doc["ner"], strict=True):
            toks = [_PTB.get(t, t) for t in sent]
            text, tok_spans = join_tokens(toks)
            spans = []
            for a, b, label in ner:
                typ = _SCIERC_TYPES.get(label)
                s, e = tok_spans[a - offset][0], tok_spans[b - offset][1]
                if typ == "dataset" and not _NAME_LIKE.search(text[s:e]):
                    typ = None
                if typ:
                    spans.append((s, e, typ))
            out.append(Example(doc["doc_key"], text, tuple(sorted(spans))))
            offset += len(sent)
        yield doc["doc_key"], out


def scierc_neutral(path: str | Path) -> dict[str, list[str]]:
    """Per doc, the surfaces that count neither right nor wrong when predicted: OtherScientificTerm,
    Generic and non-name Material spans."""
    out: dict[str, list[str]] = {}
    for doc in _read_jsonl(Path(path)):
        words = [_PTB.get(t, t) for s in doc["sentences"] for t in s]
        neutral = []
        for ner in doc["ner"]:
            for a, b, label in ner:
                text = join_tokens(words[a:b + 1])[0]
                if label in ("OtherScientificTerm", "Generic") or (
                    label == "Material" and not _NAME_LIKE.search(text)
                ):
                    neutral.append(text)
        out[doc["doc_key"]] = neutral
    return out


def scirex_docs(scirex_dir: str | Path, *, dev: bool) -> list[dict]:
    """The SciREX documents of one split (dev: graph.eval.splits' held-out share), by doc_id."""
    root = Path(scirex_dir)
    if not any(root.glob("*.json")) and (root / "train_docs").is_dir():
        root = root / "train_docs"
    paths = sorted(root.glob("*.json"))
    if not paths:
        raise InputError(f"{root}: no SciREX documents (*.json) found")
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            doc = json.load(fh)
        if is_dev(doc["doc_id"], SCIREX_DEV_SHARE) == dev:
            docs.append(doc)
    return docs


def scirex_examples(
    docs: list[dict], *, body_tokens: int = 0, seed: int = 0
) -> list[Example]:
    """Each paper's title and abstract, plus about `body_tokens` tokens of its body."""
    rng = random.Random(seed)
    out = []
    for doc in docs:
        chosen = abstract_passage(doc)
        if body_tokens:
            chosen += passages(doc, body_tokens, rng)
        for p in chosen:
            out.append(Example(doc["doc_id"], p.text, tuple(sorted(p.mentions))))
    return out


def select_examples(
    scierc: str | Path, scirex: str | Path | None, *, body_tokens: int = 0, seed: int = 0,
    fold: tuple[int, int] | None = None,
) -> list[Example]:
    """A training run's examples: SciERC train sentences, and with `scirex` the SciREX
    train-split papers (title and abstract, `body_tokens` of the body). With fold (i, K), the
    documents of cross-validation fold i are left out (graph.tagger.folds)."""
    def keep(doc_id: str) -> bool:
        return fold is None or fold_of(doc_id, fold[1]) != fold[0]

    examples = [ex for key, sents in scierc_docs(scierc) if keep(key) for ex in sents]
    if scirex is not None:
        docs = [d for d in scirex_docs(scirex, dev=False) if keep(d["doc_id"])]
        examples += scirex_examples(docs, body_tokens=body_tokens, seed=seed)
    return examples
