"""What kind of entity a phrase names: head nouns, name shapes and context cues.

Each function returns evidence as {type: strength in [0, 1]}; decide.py combines them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Span

from graph.extractors import lexicon
from graph.extractors.tokens import Tokens, table

# Head nouns (lemmas, lowercase) -> (type, strength). Strength is how often a phrase ending in
# this noun names an entity of that type, as a rough prior.
HEADS: dict[str, tuple[str, float]] = {}


def _heads(etype: str, strength: float, words: str) -> None:
    for w in words.split():
        HEADS[w.replace("_", " ")] = (etype, strength)


_heads("dataset", 0.9, "dataset datasets benchmark benchmarks corpus corpora treebank database")
_heads("dataset", 0.5, "collection suite challenge data")
_heads(
    "method",
    0.8,
    "network net networks architecture algorithm framework loss layer attention transformer "
    "encoder decoder autoencoder auto-encoder classifier regression mechanism module optimizer "
    "embedding embeddings pooling convolution convolutions normalization normalisation "
    "regularization regularisation dropout augmentation descent backpropagation back-propagation "
    "perceptron kernel forest tree machine cnn rnn lstm gan vae mlp distillation pretraining "
    "pre-training fine-tuning finetuning policy sampler decoding search filter filters "
    "regularizer regulariser optimiser",
)
_heads(
    "method",
    0.6,
    "model models method technique approach strategy scheme procedure function estimator block "
    "cell unit units gate operator representation representations learning propagation "
    "inference sampling optimization optimisation system pipeline heuristic objective prior "
    "features feature extractor generator discriminator critic agent planner solver memory "
    "connection connections",
)
_heads(
    "task",
    0.85,
    "segmentation classification translation detection recognition answering parsing estimation "
    "summarization summarisation tracking retrieval tagging labeling labelling captioning "
    "comprehension localization localisation re-identification reidentification forecasting "
    "extraction linking inpainting denoising super-resolution entailment disambiguation "
    "verification identification recommendation captioning synthesis generation",
)
_heads(
    "task",
    0.6,
    "prediction reasoning completion alignment modeling modelling understanding matching "
    "reconstruction analysis clustering navigation control planning transfer resolution "
    "discovery diagnosis task tasks problem problems",
)
_heads(
    "metric",
    0.85,
    "accuracy accuracies error errors f1 f-score f-measure precision recall perplexity "
    "perplexities auc iou miou map bleu rouge psnr ssim fid metric metrics",
)
_heads(
    "metric",
    0.55,
    "score scores rate rates distance cost time speed throughput latency likelihood measure "
    "ratio complexity consumption efficiency robustness performance quality",
)

# Generic words that never name an entity on their own.
GENERIC = frozenset(
    "approach approaches method methods model models technique techniques framework work paper "
    "result results performance task tasks problem problems system systems algorithm algorithms "
    "network networks architecture data dataset datasets benchmark benchmarks experiment "
    "experiments way ways solution solutions state art baseline baselines variant variants "
    "version versions one ones use set sets number amount type types kind kinds study analysis "
    "strategy idea ideas technique process step steps module component components scheme "
    "procedure metric metrics measure score scores quality thing term terms form forms part "
    "parts image images text texts word words information feature features output input "
    "inputs outputs function functions value values order level levels field fields "
    "application applications scenario setting settings case cases fact example examples "
    "effect effects accuracy improvement improvements gain gains art representation "
    "representations pipeline pipelines "
    # hardware runs a method; it is not one
    "gpu gpus cpu cpus tpu tpus hardware".split()
)

# Modifiers that describe rather than name: dropped from the front of a phrase.
EVALUATIVE = frozenset(
    "novel new proposed simple efficient effective powerful existing previous prior several "
    "various different many most other such same standard popular recent current "
    "state-of-the-art strong significant great good better best large-scale our their its "
    "this these those that such both each every all any some few first second third further "
    "additional extensive comprehensive challenging important key main typical traditional "
    "conventional general common classical well-known widely-used widely used successful "
    "promising unified generic competitive superior improved robust fast accurate lightweight "
    "elegant principled straightforward original respective corresponding particular specific "
    "modern remarkable impressive substantial considerable outstanding".split()
)

_SIZE = re.compile(
    r"(?:^|[-_ /.])(?:\d+(?:\.\d+)?[BbMmKk]|[BbLlSsHhGg]/\d+|base|large|small|tiny|mini|medium|"
    r"huge|xl|xxl|XL|XXL|instruct|chat|turbo|v\d+(?:\.\d+)?|\d+(?:\.\d+)?)$"
)
_COUNT = re.compile(r"\d+(?:\.\d+)?[BbMmKkTt]")
_VERSIONED = re.compile(r"^[A-Za-z][A-Za-z]*(?:[-_ ]?v?\d+(?:\.\d+)*[A-Za-z]?)(?:[-/][\w./]+)*$")


# asked of every token run and every candidate, often of the same few words
@lru_cache(maxsize=1 << 16)
def is_name_shaped(text: str) -> bool:
    """A coined name: capitals past the first letter, letters with digits, or all capitals."""
    core = text.replace("-", "").replace("/", "").replace(".", "").replace("'", "").replace(" ", "")
    if len(core) < 2 or not any(c.isalpha() for c in core):
        return False
    if any(c.isdigit() for c in core):
        return True
    return any(c.isupper() for c in core[1:])


@lru_cache(maxsize=1 << 14)
def model_shape(text: str) -> float:
    """How much `text` looks like a named checkpoint: family plus size/version (0..1)."""
    fams = lexicon.families("model")
    lowered = text.lower()
    for sep in ("-", " ", "_"):
        first = lowered.split(sep, 1)[0]
        if first in fams and first != lowered:
            return 0.9
    # "YOLOv7", "DINOv2": a family glued to its version
    match = re.match(r"^([a-z][a-z-]*?)(v?\d+(?:\.\d+)?)$", lowered)
    if match and match.group(1) in fams:
        return 0.85
    if _COUNT.fullmatch(text):
        return 0.0  # "from 42M to 1.6B parameters": a size with no family is a count
    if _SIZE.search(text) and is_name_shaped(text) and any(c.isalpha() for c in text):
        tail = re.split(r"[-_ /]", text)[-1]
        # parameter counts in billions; "-1M" names datasets as often as models
        if re.fullmatch(
            r"\d+(?:\.\d+)?[Bb]|[BbLlSsHhGg]/\d+|base|large|xl|xxl|instruct|chat", tail
        ):
            return 0.75
    return 0.0


def head_evidence(span: Span) -> dict[str, float]:
    """Evidence from the last word of a phrase ("... segmentation" is a task)."""
    return head_evidence_at(table(span.doc), span.start, span.end)


def head_evidence_at(t: Tokens, start: int, end: int) -> dict[str, float]:
    """`head_evidence` of the tokens start..end, read from the doc's columns."""
    if start >= end:
        return {}
    lower = t.lower[end - 1]
    key = lower if lower in HEADS else t.lemma_lower[end - 1]
    hit = HEADS.get(key)
    if hit is None:
        return {}
    return {hit[0]: hit[1]}


_DATASET_VERBS = {
    "evaluate", "test", "train", "experiment", "validate", "benchmark", "achieve", "report",
    "outperform", "obtain", "conduct", "perform",
}
# "results on X", "state of the art on X"
_RESULT_NOUNS = {
    "results", "experiments", "art", "performance", "accuracy", "improvements", "score",
}
_METRIC_CUES = ("in terms of", "measured by", "measured in", "as measured by", "with respect to")


def context_evidence(span: Span) -> dict[str, float]:
    """Evidence from the words around a phrase ("on X", "in terms of X", "X dataset")."""
    return context_evidence_at(table(span.doc), span.start, span.end)


def context_evidence_at(t: Tokens, start: int, end: int) -> dict[str, float]:
    """`context_evidence` of the tokens start..end, read from the doc's columns."""
    lower, lemma = t.lower, t.lemma_lower
    ev: dict[str, float] = {}
    if end < t.n:
        hit = HEADS.get(lemma[end]) or HEADS.get(lower[end])
        if hit and hit[0] in {"dataset", "metric", "task"} and hit[1] >= 0.8:
            ev[hit[0]] = max(ev.get(hit[0], 0.0), 0.8)
        elif lower[end] in {"score", "scores", "rate"}:
            ev["metric"] = 0.7
        elif lower[end] in {"task", "tasks", "problem"}:
            ev["task"] = 0.75
    before = t.span_text(max(t.sent_first[start], start - 4), start).lower()
    if before.endswith(_METRIC_CUES):
        ev["metric"] = max(ev.get("metric", 0.0), 0.7)
    if before.endswith(("task of", "problem of")):
        ev["task"] = max(ev.get("task", 0.0), 0.75)
    # "X, a dataset of ...", "a new loss, X": the appositive's head noun types the name
    root = t.root(start, end)
    partners = [c for c in t.kids[root] if t.dep[c] == "appos" and not (start <= c < end)]
    if t.dep[root] == "appos" and not (start <= t.head[root] < end):
        partners.append(t.head[root])
    # "a new benchmark, X, of ...": the parser often hangs the kind noun on the name as a
    # modifier rather than an appositive
    if start >= 2 and t.text[start - 1] == "," and t.head[start - 2] == root and t.dep[
        start - 2
    ] in {"nmod", "compound", "amod"}:
        partners.append(start - 2)
    for other in partners:
        hit = HEADS.get(lower[other]) or HEADS.get(lemma[other])
        if hit and hit[1] >= 0.8:
            ev[hit[0]] = max(ev.get(hit[0], 0.0), 0.8)
    if (start > 0 and lower[start - 1] in {"on", "across"}
            and is_name_shaped(t.span_text(start, end))):
        verb = t.head[start - 1]
        # "results on X", "evaluated on X", "state of the art on X"
        if t.lemma[verb] in _DATASET_VERBS or lower[verb] in _RESULT_NOUNS:
            ev["dataset"] = max(ev.get("dataset", 0.0), 0.7)
        else:
            ev["dataset"] = max(ev.get("dataset", 0.0), 0.45)
    return ev
