"""The learned sentence-role classifier behind claims: a multinomial logistic regression over
the words of a sentence, its place in the abstract, cue phrases, and the same of its neighbours.

graph/train_claims.py fits it on CSAbstruct train (and the hand-annotated SciREX abstracts) and
writes it as plain JSON (feature -> one weight per role), so scoring needs neither pickle nor
scikit-learn. The roles are CSAbstruct's: background, objective, method, result, other. A
sentence's claim score is the probability of the roles a claim has (objective, method, result);
the shipped thresholds on it (one for every sentence, a lower one for the sentences the
hand-written rules take as claims) were chosen by cross-validation on train.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from graph.errors import InputError
from graph.paths import MODELS

DEFAULT_PATH = MODELS / "claims.json"
#: set to "off" to find claims by the hand-written rules only
ENV_SWITCH = "PAPERKG_CLAIM_MODEL"
FORMAT = "paperkg-claim-classifier/1"
ROLES: tuple[str, ...] = ("background", "objective", "method", "result", "other")
CLAIM_ROLES = frozenset({"objective", "method", "result"})
#: feature sets: "words" (uni- and bigrams only), "sentence" (with cues and position),
#: "context" (with the words and cues of the neighbouring sentences; the shipped design)
DESIGNS = ("words", "sentence", "context")

_I = re.IGNORECASE
_WORD = re.compile(r"[a-z][a-z'\-]*|\d+(?:[.,]\d+)*")
# (feature name, pattern): phrases that mark what a sentence does, read on the raw sentence
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, _I))
    for name, pattern in (
        ("we", r"\b(?:we|our|us)\b"),
        ("this_paper", r"\b(?:this|the present|our)\s+(?:paper|work|article|study|thesis)\b"),
        ("propose", r"\b(?:propos|present|introduc|develop|design|describ)\w*"),
        ("aim", r"\b(?:aim|goal|objective|purpose)s?\b|\bin order to\b|\bseeks? to\b"),
        ("show", r"\b(?:show|demonstrat|prove|establish|find|found|reveal|confirm)\w*"),
        ("results_say", r"\b(?:results?|findings?|experiments?|evaluations?|analys[ie]s)\s+"
                        r"(?:\w+\s+){0,3}(?:show|indicate|suggest|reveal|demonstrate|confirm"
                        r"|prove|support)\w*"),
        ("compare", r"\b(?:outperform\w*|surpass\w*|superior|better|worse|higher|lower|faster"
                    r"|slower|improv\w*|significant\w*|compared|state[- ]of[- ]the[- ]art)\b"),
        ("than", r"\bthan\b"),
        ("number", r"\d"),
        ("percent", r"\d\s?(?:\\?%|per\s?cent|percent)"),
        ("hedge", r"\b(?:may|might|could|suggests?|likely|potential(?:ly)?)\b"),
        ("past", r"\b(?:was|were|had|showed|found|achieved|obtained|performed|yielded)\b"),
        ("passive", r"\b(?:is|are|was|were)\s+\w+ed\b"),
        ("background", r"\b(?:has|have)\s+been\b|\b(?:recent(?:ly)?|existing|previous|prior"
                       r"|traditional|conventional|widely|increasingly|popular|however)\b"),
        ("problem", r"\b(?:challeng\w*|problem|difficult\w*|limitation|lack|suffer\w*|remains?)\b"),
        ("future", r"\bfuture\b|\bfurther (?:work|research|stud)"),
        ("experiment", r"\b(?:experiment\w*|evaluat\w*|dataset|benchmark|empirical\w*)\b"),
    )
)


@dataclass(frozen=True)
class ClaimModel:
    roles: tuple[str, ...]
    intercept: tuple[float, ...]
    weights: Mapping[str, tuple[float, ...]]
    #: least claim score (probability of objective, method or result) for a claim
    threshold: float
    design: str = "context"
    #: the least claim score for a sentence the hand-written rules take as a claim
    rule_threshold: float = 1.0
    #: whether a sentence opening with "we propose/introduce/present" is a claim at any score
    proposals: bool = False

    def probabilities(self, features: Mapping[str, float]) -> dict[str, float]:
        logits = list(self.intercept)
        width = len(logits)
        for name, value in features.items():
            row = self.weights.get(name)
            if row is None:
                continue
            for k in range(width):
                logits[k] += row[k] * value
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return {role: e / total for role, e in zip(self.roles, exps, strict=True)}

    def classify(self, sentences: Sequence[str]) -> list[dict[str, float]]:
        """Role probabilities of each sentence of one abstract, in order."""
        return [self.probabilities(f) for f in abstract_features(sentences, self.design)]

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "roles": list(self.roles),
            "threshold": self.threshold,
            "design": self.design,
            "rule_threshold": self.rule_threshold,
            "proposals": self.proposals,
            "intercept": [round(v, 5) for v in self.intercept],
            "weights": {k: [round(v, 4) for v in row] for k, row in sorted(self.weights.items())},
        }

    @classmethod
    def from_json(cls, data: dict, source: str = "<claim model>") -> ClaimModel:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise InputError(f"{source}: not a {FORMAT} file (format={found!r})")
        roles = tuple(data["roles"])
        weights = {k: tuple(v) for k, v in data["weights"].items()}
        bad = next((k for k, v in weights.items() if len(v) != len(roles)), None)
        if bad is not None or len(data["intercept"]) != len(roles):
            raise InputError(f"{source}: weight rows must have {len(roles)} entries ({bad!r})")
        design = data.get("design", "context")
        if design not in DESIGNS:
            raise InputError(f"{source}: design {design!r} is not one of {', '.join(DESIGNS)}")
        return cls(roles, tuple(data["intercept"]), weights, float(data["threshold"]), design,
                   float(data.get("rule_threshold", 1.0)), bool(data.get("proposals", False)))


def claim_score(probabilities: Mapping[str, float]) -> float:
    return sum(p for role, p in probabilities.items() if role in CLAIM_ROLES)


def _words(sentence: str) -> list[str]:
    # every number reads the same: which number it is says nothing of the sentence's role
    return ["0" if w[0].isdigit() else w for w in _WORD.findall(sentence.lower())]


def _ngrams(words: list[str], prefix: str, bigrams: bool) -> dict[str, float]:
    grams = {f"{prefix}{w}" for w in words}
    if bigrams:
        padded = ["<s>", *words]
        grams.update(f"{prefix}{a}_{b}" for a, b in zip(padded, padded[1:], strict=False))
    if not grams:
        return {}
    # L2-normalised presence: a long sentence's words count as much in all as a short one's
    value = 1.0 / math.sqrt(len(grams))
    return dict.fromkeys(grams, value)


def _cues(sentence: str, prefix: str) -> dict[str, float]:
    return {f"{prefix}{name}": 1.0 for name, pattern in _CUES if pattern.search(sentence)}


def abstract_features(
    sentences: Sequence[str], design: str = "context"
) -> list[dict[str, float]]:
    """The features of each sentence of one abstract: its own words (uni- and bigrams) and
    cues, its relative position, and the words and cues of the sentences before and after
    (less of it in the smaller designs, which are there to be compared)."""
    own = [(_words(s), _cues(s, "c:")) for s in sentences]
    n = len(sentences)
    out = []
    for i, (words, cues) in enumerate(own):
        feats = _ngrams(words, "w:", True)
        if design == "words":
            out.append(feats)
            continue
        feats.update(cues)
        position = i / (n - 1) if n > 1 else 0.0
        feats["pos"] = position
        feats[f"pos:{min(int(position * 5), 4)}"] = 1.0
        if i == 0:
            feats["first"] = 1.0
        if i == n - 1:
            feats["last"] = 1.0
        for j, prefix in ((i - 1, "p:"), (i + 1, "n:")):
            if design == "context" and 0 <= j < n:
                feats.update({k: v * 0.5 for k, v in _ngrams(own[j][0], prefix, False).items()})
                feats.update({prefix + k: v for k, v in own[j][1].items()})
        out.append(feats)
    return out


def load(path: Path | str = DEFAULT_PATH) -> ClaimModel:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read the claim model ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}: not JSON ({exc.msg})") from None
    return ClaimModel.from_json(data, str(path))


@lru_cache(maxsize=1)
def shipped() -> ClaimModel | None:
    """The model in data/models/, or None when it is switched off or not there."""
    if os.environ.get(ENV_SWITCH, "").lower() == "off" or not DEFAULT_PATH.exists():
        return None
    return load(DEFAULT_PATH)
