"""Fit the claim classifier (graph.extractors.claim_model): `paperkg train --model claims`.

Training data: CSAbstruct train (every sentence with its role) and the hand-annotated SciREX
abstracts of tests/gold/annotations.json (a claim sentence is a result when its kind is
empirical or theoretical, an objective when it is a contribution; the other sentences are
`other`). The threshold on the claim score is chosen on out-of-fold predictions of CSAbstruct
train (folds by abstract), never on a dev split. `--report-dev` scores the fitted model on
CSAbstruct dev, for reporting only.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graph import nlp as nlp_loader
from graph.errors import InputError
from graph.extractors.claim_model import (
    CLAIM_ROLES,
    DESIGNS,
    ROLES,
    ClaimModel,
    abstract_features,
    claim_score,
)
from graph.extractors.claims import opens_with_proposal, rule_kinds, sentence_spans
from graph.paths import DATA_DIR, ROOT

MODEL_FILE = "claims.json"
REPORT_FILE = "claims.report.json"
#: CSAbstruct's result sentences count for recall when the annotators agreed this much
RESULT_CONFIDENCE = 0.7
#: the claim-score thresholds the out-of-fold predictions are scored at
THRESHOLDS = tuple(round(0.30 + 0.025 * k, 3) for k in range(27))
#: the threshold rule: the most result recall with at most this share of background taken
#: and at least this precision, out of fold on train (a margin under the targets 0.10 / 0.85)
MAX_BACKGROUND = 0.08
MIN_PRECISION = 0.87
SEED = 13
L2_C = 4.0


@dataclass
class Abstract:
    sentences: list[str]
    labels: list[str]
    confs: list[float]
    source: str


def read_csabstruct(path: Path | str) -> list[Abstract]:
    path = Path(path)
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            sentences, labels = list(record["sentences"]), list(record["labels"])
            confs = [float(c) for c in record.get("confs", [1.0] * len(labels))]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: line {n}: not a CSAbstruct record ({exc})") from None
        unknown = next((lab for lab in labels if lab not in ROLES), None)
        if len(sentences) != len(labels) or unknown is not None:
            raise InputError(f"{path}: line {n}: labels do not match sentences ({unknown!r})")
        out.append(Abstract(sentences, labels, confs, f"{path.name}:{n}"))
    return out


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def read_annotated_scirex(annotations: Path | str, texts: Path | str) -> list[Abstract]:
    """The hand-annotated SciREX abstracts, split into sentences the way the extractor does."""
    notes = json.loads(Path(annotations).read_text(encoding="utf-8"))["papers"]
    papers = {p["id"]: p for p in json.loads(Path(texts).read_text(encoding="utf-8"))["papers"]}
    nlp = nlp_loader.load()
    out = []
    for doc_id in sorted(notes):
        paper = papers.get(doc_id)
        if paper is None:
            raise InputError(f"{annotations}: paper {doc_id} is not in {texts}")
        text = paper["abstract"]
        kinds = {_norm(c["text"]): c["kind"] for c in notes[doc_id].get("claims", [])}
        sentences, labels = [], []
        for start, end in sentence_spans(nlp(text)):
            sentence = text[start:end]
            kind = kinds.get(_norm(sentence)) or next(
                (k for t, k in kinds.items() if t in _norm(sentence) or _norm(sentence) in t), None
            )
            sentences.append(sentence)
            labels.append("other" if kind is None else
                          "objective" if kind == "contribution" else "result")
        out.append(Abstract(sentences, labels, [1.0] * len(labels), f"scirex:{doc_id}"))
    return out


def _rows(
    abstracts: Sequence[Abstract], design: str
) -> tuple[list[dict[str, float]], list[str], list[float]]:
    feats, labels, weights = [], [], []
    for a in abstracts:
        feats += abstract_features(a.sentences, design)
        labels += a.labels
        # a sentence the annotators disagreed on teaches less
        weights += [0.5 + 0.5 * c for c in a.confs]
    return feats, labels, weights


def fit(abstracts: Sequence[Abstract], c: float = L2_C, threshold: float = 0.5,
        design: str = "context", rule_threshold: float = 1.0,
        proposals: bool = False) -> ClaimModel:
    # deferred: scikit-learn is heavy and only fitting needs it
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    feats, labels, weights = _rows(abstracts, design)
    vec = DictVectorizer(sort=True)
    x = vec.fit_transform(feats)
    # features seen in one training sentence only cannot be learned: they are dropped
    seen = (x != 0).sum(axis=0).A1 >= 2
    names = [n for n, keep in zip(vec.get_feature_names_out(), seen, strict=True) if keep]
    x = x[:, seen.nonzero()[0]]
    clf = LogisticRegression(C=c, max_iter=2000, random_state=SEED)
    clf.fit(x, labels, sample_weight=weights)
    order = [list(clf.classes_).index(r) if r in clf.classes_ else None for r in ROLES]
    weights_by_name = {}
    for j, name in enumerate(names):
        row = tuple(0.0 if k is None else float(clf.coef_[k, j]) for k in order)
        if any(abs(w) >= 5e-4 for w in row):
            weights_by_name[str(name)] = row
    intercept = tuple(-30.0 if k is None else float(clf.intercept_[k]) for k in order)
    model = ClaimModel(ROLES, intercept, weights_by_name, threshold, design, rule_threshold,
                       proposals)
    # what is shipped is the rounded JSON: score with exactly that
    return ClaimModel.from_json(model.to_json())


def rule_votes(abstracts: Sequence[Abstract]) -> list[list[int]]:
    """Per sentence: 2 when it opens with "we propose/introduce/present", 1 when the
    hand-written rules take it as a claim otherwise (read without the parser: names the parser
    would find are left out), 0 when they do not."""
    return [[2 if opens_with_proposal(s) else int(kind is not None)
             for s, kind in zip(a.sentences, rule_kinds(a.sentences), strict=True)]
            for a in abstracts]


def measure(abstracts: Sequence[Abstract], scores: Sequence[Sequence[float]],
            threshold: float, rules: Sequence[Sequence[int]] | None = None,
            rule_threshold: float = 1.0, proposals: bool = False) -> dict[str, float | int]:
    """The issue's three figures: recall of result sentences (annotator confidence >= 0.7),
    the share of background sentences taken, and the share of claims that are result,
    objective or method sentences. A sentence is a claim when its score reaches `threshold`,
    or `rule_threshold` where the rules take it."""
    results = results_found = background = background_taken = taken = right = 0
    for i, (a, row) in enumerate(zip(abstracts, scores, strict=True)):
        votes = rules[i] if rules is not None else [False] * len(row)
        for label, conf, score, vote in zip(a.labels, a.confs, row, votes, strict=True):
            claim = (score >= threshold or (vote and score >= rule_threshold)
                     or (proposals and vote == 2))
            if label == "result" and conf >= RESULT_CONFIDENCE:
                results += 1
                results_found += claim
            if label == "background":
                background += 1
                background_taken += claim
            taken += claim
            right += claim and label in CLAIM_ROLES
    return {
        "result_recall": round(results_found / results, 4) if results else 0.0,
        "background_taken": round(background_taken / background, 4) if background else 0.0,
        "precision": round(right / taken, 4) if taken else 0.0,
        "results": results,
        "background": background,
        "claims": taken,
    }


def errors(abstracts: Sequence[Abstract], scores: Sequence[Sequence[float]],
           rules: Sequence[Sequence[int]], threshold: float, rule_threshold: float,
           proposals: bool, per_kind: int = 30) -> dict[str, list[dict]]:
    """The first `per_kind` result sentences missed and background sentences taken, in file
    order, to read (train material only)."""
    out: dict[str, list[dict]] = {"missed_results": [], "background_taken": []}
    for a, row, votes in zip(abstracts, scores, rules, strict=True):
        for i, (label, conf, score) in enumerate(zip(a.labels, a.confs, row, strict=True)):
            claim = (score >= threshold or (votes[i] and score >= rule_threshold)
                     or (proposals and votes[i] == 2))
            kind = ("missed_results" if label == "result" and conf >= RESULT_CONFIDENCE
                    and not claim else "background_taken" if label == "background" and claim
                    else None)
            if kind and len(out[kind]) < per_kind:
                out[kind].append({"abstract": a.source, "sentence": i, "of": len(a.sentences),
                                  "score": round(score, 3), "text": a.sentences[i]})
    return out


def scores_of(model: ClaimModel, abstracts: Sequence[Abstract]) -> list[list[float]]:
    return [[claim_score(p) for p in model.classify(a.sentences)] for a in abstracts]


def out_of_fold(abstracts: Sequence[Abstract], extra: Sequence[Abstract], folds: int,
                c: float = L2_C, design: str = "context") -> list[list[float]]:
    """Claim scores of each abstract from a model fitted without its fold (and with `extra`)."""
    order = list(range(len(abstracts)))
    random.Random(SEED).shuffle(order)
    fold_of = {i: k % folds for k, i in enumerate(order)}
    scores: list[list[float]] = [[] for _ in abstracts]
    for f in range(folds):
        train = [a for i, a in enumerate(abstracts) if fold_of[i] != f]
        model = fit([*train, *extra], c, design=design)
        for i, a in enumerate(abstracts):
            if fold_of[i] == f:
                scores[i] = [claim_score(p) for p in model.classify(a.sentences)]
    return scores


def choose_threshold(abstracts: Sequence[Abstract], scores: Sequence[Sequence[float]],
                     rules: Sequence[Sequence[int]]):
    """The threshold rule on out-of-fold scores, for the score alone and for the score with a
    lower threshold where the rules take the sentence; (threshold, rule threshold) and the
    sweep of the first come back."""
    sweep = {t: measure(abstracts, scores, t) for t in THRESHOLDS}
    pairs = {(t, r, p): measure(abstracts, scores, t, rules, r, p)
             for t in THRESHOLDS for r in (*THRESHOLDS, 1.0) if r < t or r == 1.0
             for p in (False, True)}
    fine = [p for p, m in pairs.items()
            if m["background_taken"] <= MAX_BACKGROUND and m["precision"] >= MIN_PRECISION]
    if fine:
        best = max(fine, key=lambda p: (pairs[p]["result_recall"], -pairs[p]["background_taken"],
                                        p))
    else:
        best = min(pairs, key=lambda p: (pairs[p]["background_taken"], -p[0], -p[1], p[2]))
    return best, pairs[best], sweep


def train(
    out_dir: Path | str | None = None,
    *,
    csabstruct_dir: Path | str,
    annotations: Path | str | None = ROOT / "tests" / "gold" / "annotations.json",
    texts: Path | str = ROOT / "tests" / "gold" / "dev.json",
    folds: int = 5,
    compare: bool = False,
    report_dev: bool = False,
) -> str:
    """Choose the threshold out of fold, fit on all of train, write the model and its report;
    the lines to print come back."""
    out = Path(out_dir) if out_dir else DATA_DIR / "models"
    if folds < 2:
        raise InputError(f"--folds: the threshold is chosen out of fold: at least 2 ({folds})")
    train_set = read_csabstruct(Path(csabstruct_dir) / "train.jsonl")
    scirex = read_annotated_scirex(annotations, texts) if annotations is not None else []
    report: dict = {"format": "paperkg-claim-report/1", "folds": folds, "c": L2_C,
                    "train": {"csabstruct_abstracts": len(train_set), "scirex_abstracts":
                              len(scirex)}}
    lines = []
    designs = DESIGNS if compare else ("context",)
    rules = rule_votes(train_set)
    report["rules_alone"] = measure(train_set, [[1.0 if v else 0.0 for v in row]
                                                for row in rules], 0.5)
    lines.append("rules alone on CSAbstruct train: " + _figures(report["rules_alone"]))
    for design in designs:
        scores = out_of_fold(train_set, scirex, folds, design=design)
        (threshold, rule_threshold, proposals), chosen, sweep = choose_threshold(
            train_set, scores, rules)
        report.setdefault("designs", {})[design] = {
            "threshold": threshold, "rule_threshold": rule_threshold, "proposals": proposals,
            "out_of_fold": chosen,
            "score_alone": max(sweep.items(), key=lambda kv: (
                kv[1]["background_taken"] <= MAX_BACKGROUND, kv[1]["result_recall"]))[1],
        }
        if design == "context":
            report["threshold"], report["rule_threshold"] = threshold, rule_threshold
            report["proposals"] = proposals
            report["sweep"] = {str(t): m for t, m in sweep.items()}
            report["errors_out_of_fold"] = errors(train_set, scores, rules, threshold,
                                                  rule_threshold, proposals)
        lines.append(f"{design}: thresholds {threshold} / {rule_threshold} (where the rules take"
                     f" it), proposals always: {proposals}; out of fold on CSAbstruct train: "
                     + _figures(chosen))
    model = fit([*train_set, *scirex], threshold=report["threshold"],
                rule_threshold=report["rule_threshold"], proposals=report["proposals"])
    out.mkdir(parents=True, exist_ok=True)
    (out / MODEL_FILE).write_text(json.dumps(model.to_json(), sort_keys=True) + "\n",
                                  encoding="utf-8")
    report["features"] = len(model.weights)
    if report_dev:
        dev = read_csabstruct(Path(csabstruct_dir) / "dev.jsonl")
        report["dev"] = measure(dev, scores_of(model, dev), model.threshold, rule_votes(dev),
                                model.rule_threshold, model.proposals)
        lines.append("CSAbstruct dev (sentences as given): " + _figures(report["dev"]))
    (out / REPORT_FILE).write_text(json.dumps(report, indent=1, sort_keys=True) + "\n",
                                   encoding="utf-8")
    lines.append(f"wrote {out / MODEL_FILE} ({len(model.weights)} features)")
    return "\n".join(lines)


def _figures(m: dict) -> str:
    return (f"result recall {m['result_recall']:.3f}, background taken "
            f"{m['background_taken']:.3f}, precision {m['precision']:.3f}")
