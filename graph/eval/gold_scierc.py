"""SciERC (JSON Lines of PTB-tokenised abstracts) as gold papers in the dev.json schema.

Method, Task and Metric spans become method, task and metric mentions; a Material span becomes a
dataset mention only where it is a name (a capital letter or a digit in it: "Penn Treebank",
"WSJ", "TREC-8"; the capital a sentence starts with does not count), since SciERC's Material
also covers kinds of data ("images", "text").
OtherScientificTerm and Generic spans, and Material spans that are not names, are `neutral`: a
prediction matching one (and no gold entity) counts neither as right nor wrong.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from graph.errors import InputError
from graph.eval.matching import match_key
from graph.vocab import ENTITY_TYPES

TYPES = {"Method": "method", "Task": "task", "Metric": "metric", "Material": "dataset"}
NEUTRAL_LABELS = {"OtherScientificTerm", "Generic"}
SOURCE = (
    "SciERC (Luan et al., EMNLP 2018), copied from JerryHao2001/thesis-tanl @ 79612fe4 "
    "data/scierc/{train,dev}.json; research use, no licence stated by its distributors. "
    "Method/Task/Metric as method/task/metric, Material as dataset where it has a capital or a "
    "digit; OtherScientificTerm, Generic and other Material spans are neutral."
)

PTB = {
    "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
    "``": '"', "''": '"', "`": "'",
}
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "'s", "n't", "'re", "'ll",
                    "'ve", "'d", "'m", "'"}
_NO_SPACE_AFTER = {"(", "[", "{"}
_NAME = re.compile(r"[A-Z0-9]")


def detokenise(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """Text from PTB tokens (-LRB- as "(", `` and '' as '"'), and each token's character span."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev: str | None = None
    quote_open = False
    for raw in tokens:
        tok = PTB.get(raw, raw)
        opening = raw == "``" or (raw == '"' and not quote_open)
        closing = raw == "''" or (raw == '"' and quote_open)
        space = prev is not None and not (
            tok in _NO_SPACE_BEFORE or closing or prev in _NO_SPACE_AFTER or prev == "OPEN_QUOTE"
        )
        if space:
            out.append(" ")
            pos += 1
        spans.append((pos, pos + len(tok)))
        out.append(tok)
        pos += len(tok)
        if opening or closing:
            quote_open = opening
        prev = "OPEN_QUOTE" if opening else tok
    return "".join(out), spans


def is_name(text: str, starts_sentence: bool = False) -> bool:
    """A Material span that names a data set rather than a kind of data: a capital or a digit,
    not counting the capital every sentence starts with ("Image sets" is not a name)."""
    return bool(_NAME.search(text[1:] if starts_sentence else text))


def convert(record: dict) -> dict:
    """One SciERC line as a gold paper (id, abstract, entities, mentions, neutral)."""
    tokens = [t for sentence in record["sentences"] for t in sentence]
    abstract, spans = detokenise(tokens)
    sentence_starts, n = set(), 0
    for sentence in record["sentences"]:
        sentence_starts.add(n)
        n += len(sentence)
    mentions: list[dict] = []
    neutral: list[dict] = []
    for sentence_ner in record["ner"]:
        for first, last, label in sentence_ner:
            start, end = spans[first][0], spans[last][1]
            text = abstract[start:end]
            etype = TYPES.get(label)
            if etype == "dataset" and not is_name(text, first in sentence_starts):
                etype = None
            if etype is None:
                neutral.append({"start": start, "end": end, "text": text, "label": label})
            else:
                mentions.append({"type": etype, "start": start, "end": end, "text": text})
    mentions.sort(key=lambda m: (m["start"], m["end"], m["type"]))
    neutral.sort(key=lambda m: (m["start"], m["end"]))
    return {
        "id": f"scierc:{record['doc_key']}",
        "title": None,
        "abstract": abstract,
        "entities": group_entities(abstract, mentions),
        "mentions": mentions,
        "neutral": neutral,
    }


_PAREN = re.compile(r"\s*\(([^()]+)\)")


def inner_forms(text: str) -> list[str]:
    """The forms a span that defines an acronym inside itself also names: "natural language
    processing (NLP)" is "natural language processing" and "NLP"; "lexical conceptual structure
    (LCS) representations" is "lexical conceptual structure representations"."""
    m = _PAREN.search(text)
    if m is None or m.start() == 0:
        return []
    without = " ".join((text[:m.start()] + text[m.end():]).split())
    forms = [without] if without else []
    if m.end() == len(text):
        forms.append(m.group(1).strip())
    return forms


def group_entities(abstract: str, mentions: Sequence[dict]) -> dict[str, list[dict]]:
    """Mentions of one type grouped into entities: equal match keys, and `Long Form (LF)`
    where both parts are annotated with that type. Name: the most frequent form, then the
    longest, then the first in sorted order; the other forms, and the forms a span with an
    acronym in brackets names (`inner_forms`), are aliases."""
    entities: dict[str, list[dict]] = {}
    for etype in ENTITY_TYPES:
        ms = [m for m in mentions if m["type"] == etype]
        parent = list(range(len(ms)))
        by_key: dict[str, int] = {}
        for i, m in enumerate(ms):
            k = match_key(m["text"])
            if k in by_key:
                _union(parent, by_key[k], i)
            else:
                by_key[k] = i
        for i, m in enumerate(ms):
            for j, other in enumerate(ms):
                after = abstract[other["end"]:other["end"] + 2].strip()
                if abstract[m["end"]:other["start"]].strip() == "(" and after[:1] == ")":
                    _union(parent, i, j)
        groups: dict[int, list[str]] = {}
        for i, m in enumerate(ms):
            groups.setdefault(_find(parent, i), []).append(m["text"])
        items = []
        for forms in groups.values():
            counts = Counter(forms)
            name = sorted(counts, key=lambda f: (-counts[f], -len(f), f))[0]
            others = {alias for f in forms for alias in (f, *inner_forms(f))} - {name}
            items.append({"name": name, "aliases": sorted(others)})
        entities[etype] = sorted(items, key=lambda e: (e["name"].lower(), e["name"]))
    return entities


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _union(parent: list[int], keep: int, other: int) -> None:
    parent[_find(parent, other)] = _find(parent, keep)


def read_jsonl(path: Path) -> Iterable[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{n}: not a JSON line: {exc}") from None


def build(path: Path, split: str) -> dict:
    papers = []
    for n, record in enumerate(read_jsonl(path), 1):
        try:
            papers.append(convert(record))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InputError(f"{path}:{n}: bad SciERC record ({exc!r})") from None
    papers.sort(key=lambda p: p["id"])
    return {"version": 1, "source": f"{SOURCE} Split: {split}.", "papers": papers}
