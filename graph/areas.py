"""The research-area classifier: TF-IDF of an abstract's words and word pairs, multinomial
logistic regression over taxonomy concepts (data/models/areas.json.gz, made by
`paperkg train --model areas`, see data/models/AREAS.md).

The model file holds plain numbers (vocabulary, idf weights, coefficients), gzipped JSON, so it
loads without unpickling anything and the same training writes the same bytes.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graph.errors import InputError
from graph.paths import MODELS

DEFAULT_PATH = MODELS / "areas.json.gz"
FORMAT = "paperkg-areas/1"
#: sklearn's default token pattern, which the vectorizer was trained with
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


@dataclass(frozen=True)
class AreaModel:
    classes: tuple[str, ...]
    vectorizer: object  # a fitted sklearn TfidfVectorizer
    coef: np.ndarray  # classes x features
    intercept: np.ndarray
    #: a further area is kept when its probability reaches this share of the best one's
    relative_floor: float
    #: ... and this probability
    min_probability: float
    max_areas: int = 3

    def probabilities(self, texts: list[str]) -> np.ndarray:
        features = self.vectorizer.transform(texts)
        return _softmax(features @ self.coef.T + self.intercept)

    def predict(self, text: str) -> list[tuple[str, float]]:
        """One to `max_areas` (slug, probability) pairs, most likely first."""
        return choose(self.fast_probabilities(text), self.classes, self.relative_floor,
                      self.min_probability, self.max_areas)

    def fast_probabilities(self, text: str) -> np.ndarray:
        """`probabilities` of one text without sklearn's per-call checks (a build calls this
        once per abstract): the same tokens, sublinear tf, idf and l2 norm."""
        vocabulary, idf = self.vectorizer.vocabulary_, self.vectorizer.idf_
        words = _TOKEN.findall(text.lower())
        low, high = self.vectorizer.ngram_range
        counts: dict[int, int] = {}
        for n in range(low, high + 1):
            for i in range(len(words) - n + 1):
                column = vocabulary.get(" ".join(words[i : i + n]))
                if column is not None:
                    counts[column] = counts.get(column, 0) + 1
        if not counts:
            return _softmax(self.intercept[None, :])[0]
        columns = np.fromiter(counts, dtype=np.int64, count=len(counts))
        values = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64,
                                           count=len(counts)))) * idf[columns]
        values /= np.sqrt((values * values).sum())
        return _softmax((self.coef[:, columns] @ values + self.intercept)[None, :])[0]


def _softmax(scores: np.ndarray) -> np.ndarray:
    scores = scores - scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=1, keepdims=True)


def choose(probs, classes, relative_floor: float, min_probability: float,
           max_areas: int = 3) -> list[tuple[str, float]]:
    order = sorted(range(len(classes)), key=lambda i: (-probs[i], classes[i]))
    best = float(probs[order[0]])
    chosen = [(classes[order[0]], best)]
    for i in order[1:max_areas]:
        p = float(probs[i])
        if p < min_probability or p < relative_floor * best:
            break
        chosen.append((classes[i], p))
    return chosen


def vectorizer(settings: dict, vocabulary: dict[str, int] | None = None):
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        lowercase=True,
        ngram_range=tuple(settings["ngram_range"]),
        min_df=settings["min_df"],
        max_features=settings["max_features"],
        sublinear_tf=True,
        dtype=np.float64,
        vocabulary=vocabulary,
    )


def to_json(model_vectorizer, classes, coef, intercept, settings: dict) -> dict:
    vocabulary = model_vectorizer.vocabulary_
    terms = sorted(vocabulary, key=vocabulary.get)
    return {
        "format": FORMAT,
        "settings": settings,
        "classes": list(classes),
        "terms": terms,
        "idf": [round(float(v), 5) for v in model_vectorizer.idf_],
        "coef": [[round(float(v), 5) for v in row] for row in coef],
        "intercept": [round(float(v), 5) for v in intercept],
    }


def write(path: Path, data: dict) -> None:
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")
    # mtime 0 and no file name in the header: the same model gives the same bytes
    with open(path, "wb") as handle, gzip.GzipFile(
        filename="", mode="wb", fileobj=handle, mtime=0, compresslevel=9
    ) as out:
        out.write(raw)


def parse(path: Path | str) -> AreaModel:
    path = Path(path)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the areas model: {exc}") from exc
    if data.get("format") != FORMAT:
        raise InputError(f"{path}: not an areas model of format {FORMAT}")
    settings = data["settings"]
    vec = vectorizer(settings, {term: i for i, term in enumerate(data["terms"])})
    vec.idf_ = np.asarray(data["idf"], dtype=np.float64)
    return AreaModel(
        classes=tuple(data["classes"]),
        vectorizer=vec,
        coef=np.asarray(data["coef"], dtype=np.float64),
        intercept=np.asarray(data["intercept"], dtype=np.float64),
        relative_floor=settings["relative_floor"],
        min_probability=settings["min_probability"],
        max_areas=settings.get("max_areas", 3),
    )


@functools.lru_cache(maxsize=2)
def load(path: str | None = None) -> AreaModel | None:
    """The shipped model, or None when there is none (the rules then work alone)."""
    target = Path(path) if path else DEFAULT_PATH
    if not target.exists():
        return None
    return parse(target)
