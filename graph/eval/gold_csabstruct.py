"""CSAbstruct (JSON Lines of labelled sentences) as gold papers in the dev.json schema.

The abstract is the sentences joined by one space; each sentence keeps its character span, its
role (`background`, `objective`, `method`, `result`, `other`) and the annotators' confidence.
No entities: these papers score claims only (graph.eval.claims_score).
"""

from __future__ import annotations

from pathlib import Path

from graph.errors import InputError
from graph.eval.gold_scierc import read_jsonl

LABELS = ("background", "objective", "method", "result", "other")
SOURCE = (
    "CSAbstruct (Cohan et al., EMNLP 2019), copied from allenai/sequential_sentence_classification "
    "@ cf5ad6c6 data/CSAbstruct/{train,dev}.jsonl; Apache License 2.0 (LICENSE alongside). "
    "Abstract = sentences joined by a space; each sentence with its span, label and confidence."
)


def convert(record: dict, split: str, line: int) -> dict:
    """One CSAbstruct line as a gold paper; its id is the split and the record's number (1-based):
    the copies' `abstract_id` is 0 on every line."""
    sentences, labels, confs = record["sentences"], record["labels"], record["confs"]
    if not (len(sentences) == len(labels) == len(confs)):
        raise ValueError("sentences, labels and confs differ in length")
    parts: list[str] = []
    spans: list[dict] = []
    pos = 0
    for text, label, conf in zip(sentences, labels, confs, strict=True):
        label = str(label).lower()
        if label not in LABELS:
            raise ValueError(f"unknown label {label!r}")
        text = str(text).strip()
        if parts:
            pos += 1
        spans.append({"start": pos, "end": pos + len(text), "label": label,
                      "conf": round(float(conf), 4)})
        parts.append(text)
        pos += len(text)
    return {
        "id": f"csabstruct:{split}:{line}",
        "title": None,
        "abstract": " ".join(parts),
        "entities": {},
        "sentences": spans,
    }


def build(path: Path, split: str) -> dict:
    papers = []
    for n, record in enumerate(read_jsonl(path), 1):
        try:
            papers.append(convert(record, split, n))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}:{n}: bad CSAbstruct record ({exc!r})") from None
    return {"version": 1, "source": f"{SOURCE} Split: {split}.", "papers": papers}
