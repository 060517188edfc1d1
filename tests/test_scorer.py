"""The learned scorer's probabilities: the five-class path gives the general loop's floats."""

from __future__ import annotations

import json
import math
import random

from graph.eval.train_scorer import F1_TIE, MAX_BODY_TOKENS, best_thresholds
from graph.extractors import scorer

CLASSES = ("dataset", "method", "metric", "none", "task")


def general(s: scorer.Scorer, features: dict[str, float]) -> dict[str, float]:
    logits = list(s.intercept)
    for name, value in features.items():
        row = s.weights.get(name)
        if row is None or not value:
            continue
        for k, w in enumerate(row):
            logits[k] += w * value
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return {c: e / total for c, e in zip(s.classes, exps, strict=True)}


def test_five_classes_give_the_general_loops_floats_bit_for_bit():
    rng = random.Random(3)
    weights = {f"f{i}": tuple(rng.uniform(-3, 3) for _ in CLASSES) for i in range(200)}
    s = scorer.Scorer(CLASSES, tuple(rng.uniform(-1, 1) for _ in CLASSES), weights, {})
    for _ in range(300):
        names = rng.sample(sorted(weights) + ["unknown"], 25)
        features = {n: rng.choice([1.0, 1.0, 0.0, rng.random()]) for n in names}
        got = s.probabilities(features)
        want = general(s, features)
        assert list(got) == list(CLASSES)
        assert [v.hex() for v in got.values()] == [v.hex() for v in want.values()]


def test_other_widths_use_the_general_loop():
    s = scorer.Scorer(("none", "method"), (0.0, -1.0), {"bias": (0.0, 2.0), "x": (1.0, 0.5)}, {})
    probs = s.probabilities({"bias": 1.0, "x": 0.5, "y": 1.0})
    assert probs == general(s, {"bias": 1.0, "x": 0.5, "y": 1.0})
    assert math.isclose(probs["method"], 1 / (1 + math.exp(-(-1.0 + 2.0 + 0.25 - 0.5))))


def test_the_shipped_scorer_is_what_the_train_command_writes_by_default():
    """Its thresholds are the best held-out F1 of its own report, and it was fitted on the
    body length `paperkg train` uses unless told otherwise."""
    model = json.loads(scorer.DEFAULT_PATH.read_text(encoding="utf-8"))
    report = json.loads(scorer.DEFAULT_PATH.with_suffix(".report.json").read_text(encoding="utf-8"))
    assert f"up to {MAX_BODY_TOKENS} tokens each" in model["trained_on"]
    assert model["thresholds"] == best_thresholds(report["heldout"])


def test_a_held_out_tie_goes_to_the_higher_threshold():
    def rows(method: float, task: float) -> dict:
        return {"entities": {"method": {"f1": method}, "task": {"f1": task},
                             "dataset": None, "metric": None}}

    best_method, best_task = 0.6359, 0.5828
    heldout = {"0.30": rows(0.6000, 0.5800),
               "0.40": rows(best_method, best_task),
               # method: within the tie of the best; task: just outside it
               "0.50": rows(best_method - F1_TIE / 2, best_task - F1_TIE * 1.2)}
    assert best_thresholds(heldout) == {"method": 0.5, "task": 0.4, "model": 0.5}
