"""The learned candidate scorer: a multinomial logistic regression over candidate features.

graph/train.py fits it on SciREX full texts and writes it as plain JSON (feature -> one weight
per class), so loading it needs neither pickle nor scikit-learn, and its output is a calibrated
probability that a candidate span names an entity of each type.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from graph.errors import InputError
from graph.paths import MODELS

DEFAULT_PATH = MODELS / "entity_scorer.json"
#: set to "off" to type candidates by the hand-written rules only
ENV_SWITCH = "PAPERKG_ENTITY_SCORER"
FORMAT = "paperkg-entity-scorer/1"
NONE = "none"


@dataclass(frozen=True)
class Scorer:
    classes: tuple[str, ...]
    intercept: tuple[float, ...]
    weights: Mapping[str, tuple[float, ...]]
    #: per type, the least probability at which a candidate is emitted
    thresholds: Mapping[str, float]

    def probabilities(self, features: Mapping[str, float]) -> dict[str, float]:
        weights = self.weights
        if len(self.intercept) == 5:
            logits = _logits5(self.intercept, weights, features)
        else:
            logits = list(self.intercept)
            for name, value in features.items():
                row = weights.get(name)
                if row is None or not value:
                    continue
                for k, w in enumerate(row):
                    logits[k] += w * value
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return {c: e / total for c, e in zip(self.classes, exps)}

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "classes": list(self.classes),
            "intercept": [round(v, 5) for v in self.intercept],
            "thresholds": dict(self.thresholds),
            "weights": {k: [round(v, 4) for v in row] for k, row in sorted(self.weights.items())},
        }

    @classmethod
    def from_json(cls, data: dict, source: str = "<scorer>") -> Scorer:
        if data.get("format") != FORMAT:
            raise InputError(f"{source}: not a {FORMAT} file (format={data.get('format')!r})")
        classes = tuple(data["classes"])
        width = len(classes)
        weights = {k: tuple(v) for k, v in data["weights"].items()}
        bad = next((k for k, v in weights.items() if len(v) != width), None)
        if bad is not None or len(data["intercept"]) != width:
            raise InputError(f"{source}: weight rows must have {width} entries (feature {bad!r})")
        return cls(classes, tuple(data["intercept"]), weights, dict(data.get("thresholds", {})))


def _logits5(
    intercept: tuple[float, ...],
    weights: Mapping[str, tuple[float, ...]],
    features: Mapping[str, float],
) -> list[float]:
    """The general loop unrolled for five classes (the shipped scorer's), one running sum per
    class in local variables: the same additions in the same order, so the same floats, in
    about half the time. A weight times 1.0 is the weight exactly."""
    a, b, c, d, e = intercept
    for name, value in features.items():
        row = weights.get(name)
        if row is None or not value:
            continue
        if value == 1.0:
            wa, wb, wc, wd, we = row
        else:
            wa, wb, wc, wd, we = (w * value for w in row)
        a += wa
        b += wb
        c += wc
        d += wd
        e += we
    return [a, b, c, d, e]


def load(path: str | Path) -> Scorer:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the entity scorer: {exc}") from exc
    return Scorer.from_json(data, str(path))


@lru_cache(maxsize=1)
def _default(path: Path) -> Scorer | None:
    return load(path) if path.exists() else None


def default() -> Scorer | None:
    """The shipped scorer, or None when it is absent or switched off (rules only)."""
    if os.environ.get(ENV_SWITCH, "").lower() in {"off", "0", "no", "rules"}:
        return None
    return _default(DEFAULT_PATH)
