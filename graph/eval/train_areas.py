"""Train the research-area classifier: `paperkg train --model areas`.

Data: the unlabelled abstracts of ../shared/data/paperlists. AAAI 2022 papers outside the 30 %
dev split (`graph.eval.splits`) are labelled by their primary area (the first slug of its
track in graph.eval.gold_areas.TRACK_AREAS, as the evaluation reads them; a track with none,
"Domain(s) Of Application", is left out); CVPR, ACL, NAACL, NeurIPS and ICML papers by their
venue (weak labels: a whole conference stands for its field). The dev split is never read.

The decision rule (how many areas a paper gets) is chosen on AAAI train by k-fold
cross-validation: each fold's papers are predicted by a model fitted without them (the venue
papers always train), and the rule that gives the most papers an agreeing area with precision
at least TARGET_PRECISION is kept (where none reaches it, the one with the best harmonic mean of
the two). The shipped model is then fitted on all training papers.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graph.errors import InputError
from graph.eval.gold_areas import TRACK_AREAS, read_paperlists
from graph.eval.splits import AAAI_DEV_SHARE, bucket, is_dev
from graph.extractors import areas
from graph.taxonomy import load as load_taxonomy

SETTINGS = {"ngram_range": [1, 2], "min_df": 3, "max_features": 30000}
#: a regularisation strength and how much one AAAI paper weighs against one venue paper
C = 4.0
AAAI_WEIGHT = 30.0
SEED = 0
FOLDS = 5
TARGET_PRECISION = 0.80
FLOORS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.01)
MIN_PROBABILITIES = (0.1, 0.15, 0.2, 0.3)

#: venue -> the field the whole venue stands for (weak labels)
VENUE_AREAS: dict[str, str] = {
    "CVPR": "computer-vision",
    "ACL": "natural-language-processing",
    "NAACL": "natural-language-processing",
    "NeurIPS": "machine-learning",
    "ICML": "machine-learning",
}


def track_areas(track: str | None) -> tuple[str, ...]:
    """The slugs that agree with an AAAI 2022 primary area; () for none or an unknown one."""
    return TRACK_AREAS.get((track or "").strip(), ())


@dataclass
class Example:
    id: str
    text: str
    label: str
    track: str | None  # AAAI primary area; None for a venue label


def read_examples(path: Path) -> list[Example]:
    """Training examples; AAAI dev papers and unlabelled tracks left out."""
    examples: list[Example] = []
    for number, record in enumerate(read_paperlists(path), 1):
        try:
            rid, venue, text = str(record["id"]), record["venue"], record["abstract"]
        except (KeyError, TypeError) as exc:
            raise InputError(f"{path}: record {number}: not a paper record: {exc}") from exc
        track = record.get("primary_area")
        if track:
            if is_dev(rid, AAAI_DEV_SHARE):
                continue
            slugs = track_areas(track)
            if slugs:
                examples.append(Example(rid, text, slugs[0], track))
        elif venue in VENUE_AREAS and text:
            examples.append(Example(rid, text, VENUE_AREAS[venue], None))
    if not examples:
        raise InputError(f"{path}: no labelled abstracts")
    return examples


def _fold(example: Example) -> int:
    # AAAI train ids have buckets in [AAAI_DEV_SHARE, 1): spread them over the folds
    share = (bucket(example.id) - AAAI_DEV_SHARE) / (1 - AAAI_DEV_SHARE)
    return min(FOLDS - 1, int(share * FOLDS))


def _fit(features, labels: list[str], weights: np.ndarray):
    # deferred: scikit-learn is heavy and only fitting needs it
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=300, random_state=SEED)
    model.fit(features, labels, sample_weight=weights)
    return model


def _weights(examples: list[Example]) -> np.ndarray:
    return np.array([AAAI_WEIGHT if e.track else 1.0 for e in examples])


def score(chosen: list[list[str]], tracks: list[str]) -> tuple[float, float]:
    """(share of papers with an agreeing area, share of areas that agree)."""
    taxonomy = load_taxonomy()

    def agrees(slug: str, track: str) -> bool:
        return any(taxonomy.is_broader_or_narrower(slug, t) for t in track_areas(track))

    pairs = list(zip(chosen, tracks, strict=True))
    papers = sum(any(agrees(s, t) for s in areas_) for areas_, t in pairs)
    flat = [(s, t) for areas_, t in pairs for s in areas_]
    right = sum(agrees(s, t) for s, t in flat)
    return papers / max(1, len(tracks)), right / max(1, len(flat))


def train(out_dir: str | None = None, *, source: Path | str) -> str:
    """Cross-validate the decision rule, fit on all training papers, write the model and its
    report; returns the report as text."""
    examples = read_examples(Path(source))
    vec = areas.vectorizer(SETTINGS)
    features = vec.fit_transform([e.text for e in examples])
    labels = [e.label for e in examples]
    weights = _weights(examples)
    aaai = [i for i, e in enumerate(examples) if e.track]
    folds = {i: _fold(examples[i]) for i in aaai}

    held_out: dict[int, np.ndarray] = {}
    classes: tuple[str, ...] = ()
    for k in range(FOLDS):
        test = [i for i in aaai if folds[i] == k]
        train_rows = [i for i in range(len(examples)) if folds.get(i) != k]
        model = _fit(features[train_rows], [labels[i] for i in train_rows], weights[train_rows])
        probs = model.predict_proba(features[test])
        # a class missing from a fold's training papers gets probability 0
        classes = tuple(sorted(set(labels)))
        full = np.zeros((len(test), len(classes)))
        for j, name in enumerate(model.classes_):
            full[:, classes.index(name)] = probs[:, j]
        held_out.update(zip(test, full, strict=True))

    tracks = [examples[i].track or "" for i in aaai]
    best = None
    sweep = []
    for floor in FLOORS:
        for minimum in MIN_PROBABILITIES:
            chosen = [[s for s, _ in areas.choose(held_out[i], classes, floor, minimum)]
                      for i in aaai]
            agree, precision = score(chosen, tracks)
            sweep.append({"relative_floor": floor, "min_probability": minimum,
                          "agree": round(agree, 4), "precision": round(precision, 4)})
            balance = 2 * agree * precision / (agree + precision) if agree + precision else 0.0
            key = (precision >= TARGET_PRECISION,
                   agree if precision >= TARGET_PRECISION else balance, precision)
            if best is None or key > best[0]:
                best = (key, floor, minimum)
    if best is None:
        raise InputError("areas training: no (floor, minimum) setting was tried")
    _, floor, minimum = best

    model = _fit(features, labels, weights)
    settings = dict(SETTINGS, relative_floor=floor, min_probability=minimum, max_areas=3,
                    C=C, aaai_weight=AAAI_WEIGHT)
    data = areas.to_json(vec, model.classes_, model.coef_, model.intercept_, settings)
    target = Path(out_dir) if out_dir else areas.DEFAULT_PATH.parent
    target.mkdir(parents=True, exist_ok=True)
    areas.write(target / areas.DEFAULT_PATH.name, data)
    chosen_cv = next(s for s in sweep if s["relative_floor"] == floor
                     and s["min_probability"] == minimum)
    report = {
        "examples": dict(sorted(Counter(labels).items())),
        "aaai_train_papers": len(aaai),
        "cross_validated": {"folds": FOLDS, **chosen_cv},
        "sweep": sweep,
        "features": len(data["terms"]),
    }
    (target / "areas.report.json").write_text(json.dumps(report, indent=2) + "\n",
                                              encoding="utf-8")
    return (f"areas model: {len(examples)} abstracts ({len(aaai)} AAAI train), "
            f"{len(data['terms'])} features; {FOLDS}-fold on AAAI train: "
            f"agree {chosen_cv['agree']:.3f}, precision {chosen_cv['precision']:.3f} "
            f"(floor {floor}, min p {minimum}); wrote {target / areas.DEFAULT_PATH.name}")
