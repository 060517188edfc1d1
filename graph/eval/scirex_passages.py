"""SciREX full-text documents as training text: the fixed train split, passages of a paper's
body (or its title and abstract) with their SciREX mentions as character spans, and the names
a paper gives each type. The entity scorer (graph.eval.train_scorer) and the mention tagger's
data (graph.tagger.data) read SciREX through these.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from graph.errors import InputError
from graph.eval.matching import normalise
from graph.eval.splits import SCIREX_DEV_SHARE, is_dev

SCIREX_TYPES = {"Method": "method", "Material": "dataset", "Task": "task", "Metric": "metric"}
#: the entity types SciREX annotates, in the scorer's class order
TYPES: tuple[str, ...] = ("method", "dataset", "task", "metric")

# Sections shorter than this at the start of a paper are its title alone.
_TITLE_ONLY = 40
_PASSAGE_TOKENS = 120
_MAX_SENTENCE_TOKENS = 90
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "%", "?", "!", "'s", "n't"}
_NO_SPACE_AFTER = {"(", "["}
_JOINERS = {"-", "/"}
# LaTeX sectioning words left at the start of a sentence ("section : Results")
_HEADINGS = {"section", "subsection", "subsubsection", "paragraph"}


@dataclass
class Passage:
    doc_id: str
    text: str
    #: (start, end, type) character spans of SciREX mentions in `text`
    mentions: list[tuple[int, int, str]]
    #: how many times each of its candidates counts in the fit
    weight: int = 1


def join_tokens(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """Readable text from pre-split tokens, and each token's character span in it."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev: str | None = None
    for tok in tokens:
        if prev is not None and not (
            tok in _NO_SPACE_BEFORE or tok in _JOINERS
            or prev in _NO_SPACE_AFTER or prev in _JOINERS
        ):
            out.append(" ")
            pos += 1
        spans.append((pos, pos + len(tok)))
        out.append(tok)
        pos += len(tok)
        prev = tok
    return "".join(out), spans


def _body_start(doc: dict) -> int | None:
    """The first token after the title and abstract; None when the paper has no body."""
    sections = doc["sections"]
    skip = 1 if sections[0][1] - sections[0][0] >= _TITLE_ONLY or len(sections) < 2 else 2
    if len(sections) <= skip:
        return None
    return sections[skip][0]


def _body_sentences(doc: dict) -> list[tuple[int, int]]:
    body_start = _body_start(doc)
    if body_start is None:
        return []
    words = doc["words"]
    out = []
    for a, b in doc["sentences"]:
        if a < body_start or b - a > _MAX_SENTENCE_TOKENS or b - a < 4:
            continue
        toks = words[a:b]
        if toks.count("=") >= 2 or (toks[1] == ":" and toks[0] in _HEADINGS):
            continue
        out.append((a, b))
    return out


def passages(doc: dict, max_tokens: int, rng: random.Random) -> list[Passage]:
    """Passages of about _PASSAGE_TOKENS tokens spread evenly over the body, max_tokens in all."""
    sents = _body_sentences(doc)
    groups: list[list[tuple[int, int]]] = []
    cur: list[tuple[int, int]] = []
    size = 0
    for a, b in sents:
        cur.append((a, b))
        size += b - a
        if size >= _PASSAGE_TOKENS:
            groups.append(cur)
            cur, size = [], 0
    if cur:
        groups.append(cur)
    budget = max(1, max_tokens // _PASSAGE_TOKENS)
    if len(groups) > budget:
        groups = [groups[i] for i in sorted(rng.sample(range(len(groups)), budget))]
    return _passages_of(doc, groups)


def abstract_passage(doc: dict) -> list[Passage]:
    """The title and abstract as one passage: the kind of text the scorer is used on."""
    end = _body_start(doc)
    sents = [(a, b) for a, b in doc["sentences"] if end is None or b <= end]
    return _passages_of(doc, [sents]) if sents else []


def _passages_of(doc: dict, groups: list[list[tuple[int, int]]]) -> list[Passage]:
    words = doc["words"]
    ner = sorted((a, b, SCIREX_TYPES[t]) for a, b, t in doc["ner"] if t in SCIREX_TYPES)
    out = []
    for group in groups:
        lo, hi = group[0][0], group[-1][1]
        idx = [i for a, b in group for i in range(a, b)]
        pos_of = {tok_i: k for k, tok_i in enumerate(idx)}
        text, spans = join_tokens([words[i] for i in idx])
        ments = [
            (spans[pos_of[a]][0], spans[pos_of[b - 1]][1], t)
            for a, b, t in ner
            if lo <= a and b <= hi and a in pos_of and (b - 1) in pos_of
        ]
        out.append(Passage(doc["doc_id"], text, ments))
    return out


def doc_names(doc: dict) -> dict[str, set[str]]:
    """Normalised names of every SciREX mention in the paper, per type."""
    words = doc["words"]
    names: dict[str, set[str]] = {t: set() for t in TYPES}
    for a, b, t in doc["ner"]:
        if t in SCIREX_TYPES:
            names[SCIREX_TYPES[t]].add(normalise(join_tokens(words[a:b])[0]))
    return names


def train_split(docs: Iterable[dict]) -> list[dict]:
    """The SciREX documents outside the fixed dev split (graph.eval.splits): the dev papers' bodies
    must not teach the scorer what their abstracts are scored on."""
    return [d for d in docs if not is_dev(d["doc_id"], SCIREX_DEV_SHARE)]


def load_scirex(scirex_dir: Path) -> list[dict]:
    paths = sorted(Path(scirex_dir).glob("*.json"))
    if not paths:
        raise InputError(f"{scirex_dir}: no SciREX documents (*.json) found")
    docs = []
    for path in paths:
        try:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
        except ValueError as exc:
            raise InputError(f"{path}: not valid JSON: {exc}") from exc
    return docs
