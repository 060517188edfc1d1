"""Tag text with the shipped mention model: wordpieces -> ONNX encoder -> BIO -> character spans.

The model (data/models/tagger.onnx) and its wordpiece tokenizer (data/models/tagger.tokenizer.json)
are read once per process. Long texts are cut into overlapping windows of wordpieces; each
wordpiece takes its tags from the window in which it sits furthest from an edge. A session runs
with fixed options and a fixed thread count, so the same text always gives the same spans.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from graph.errors import PaperkgError
from graph.nlp.spans import MEASURES as MEASURES
from graph.nlp.spans import Span as Span
from graph.nlp.spans import tidy as tidy
from graph.paths import DATA_DIR

TYPES = ("method", "dataset", "task", "metric")
LABELS = ("O",) + tuple(f"{p}-{t}" for t in TYPES for p in ("B", "I"))
MODEL_PATH = DATA_DIR / "models" / "tagger.onnx"
TOKENIZER_PATH = DATA_DIR / "models" / "tagger.tokenizer.json"
#: wordpieces per window, [CLS] and [SEP] excluded (the length the model was trained on)
WINDOW = 126
STRIDE = 84
#: threads of one inference session; PAPERKG_TAGGER_THREADS overrides
DEFAULT_THREADS = 1


def type_probability(probs: np.ndarray, i: int, typ: str) -> float:
    """The probability that wordpiece i belongs to a span of type `typ`: B- and I- together, so
    that a B/I hesitation inside a confident span costs nothing."""
    return float(probs[i, LABELS.index("B-" + typ)] + probs[i, LABELS.index("I-" + typ)])


@dataclass(frozen=True, slots=True)
class Pieces:
    """A text's wordpieces: ids, character offsets and the word each belongs to."""

    ids: list[int]
    offsets: list[tuple[int, int]]
    words: list[int]


def load_tokenizer(path: str | Path = TOKENIZER_PATH):
    from tokenizers import Tokenizer

    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises its own exception type
        raise PaperkgError(f"{path}: cannot load the tagger's tokenizer ({exc})") from None
    tok.no_truncation()
    tok.no_padding()
    return tok


def pieces(tokenizer, text: str) -> Pieces:
    enc = tokenizer.encode(text, add_special_tokens=False)
    return Pieces(list(enc.ids), [tuple(o) for o in enc.offsets], list(enc.word_ids))


def windows(n: int, size: int = WINDOW, stride: int = STRIDE) -> list[tuple[int, int]]:
    """[start, end) windows covering range(n), each `size` long but the last, `stride` apart."""
    if n <= size:
        return [(0, n)]
    out = []
    start = 0
    while True:
        end = min(start + size, n)
        out.append((start, end))
        if end == n:
            return out
        start += stride


def owner_of(n: int, spans: list[tuple[int, int]]) -> list[int]:
    """For each position, the window in which it is furthest from an edge (the first on ties)."""
    owners = []
    for i in range(n):
        best, best_margin = 0, -1
        for w, (a, b) in enumerate(spans):
            if a <= i < b:
                margin = min(i - a, b - 1 - i)
                if margin > best_margin:
                    best, best_margin = w, margin
        owners.append(best)
    return owners


def decode(probs: np.ndarray, p: Pieces) -> list[Span]:
    """BIO over wordpieces -> character spans that cover whole words.

    An I- tag after O opens a span (the model's lapse, not a reason to drop the mention); an I-
    tag right after a span of another type continues it ("large pretrained | language | models"
    tagged task, method, task is one name), and the span takes the type with the most
    probability summed over its wordpieces. A span that ends or starts inside a word grows to
    the whole word. Confidence: the mean and the least, over the span's tagged wordpieces, of
    the probability of the span's type (type_probability); widened wordpieces do not count.
    """
    best = probs.argmax(-1)
    out: list[Span] = []
    cur: list[int] = []
    cur_type: str | None = None

    def close() -> None:
        if cur_type is None:
            return
        first, last = cur[0], cur[-1]
        while first > 0 and p.words[first - 1] == p.words[first]:
            first -= 1
        while last + 1 < len(p.ids) and p.words[last + 1] == p.words[last]:
            last += 1
        typ = max(TYPES, key=lambda t: sum(type_probability(probs, i, t) for i in cur))
        q = [type_probability(probs, i, typ) for i in cur]
        out.append(Span(p.offsets[first][0], p.offsets[last][1], typ,
                        float(np.mean(q)), float(min(q))))

    for i, label_id in enumerate(best):
        label = LABELS[label_id]
        if label == "O":
            close()
            cur, cur_type = [], None
            continue
        bio, typ = label.split("-", 1)
        continues = p.words[i] == (p.words[i - 1] if i else None) and cur_type is not None
        if bio == "I" and cur_type is not None or continues:
            cur.append(i)
            continue
        close()
        cur, cur_type = [i], typ
    close()
    # a word split between two spans belongs to the first
    merged: list[Span] = []
    for s in out:
        if merged and s.start < merged[-1].end:
            continue
        merged.append(s)
    return merged


#: per type, the least mean probability of the type over a neighbouring word's wordpieces for
#: `widen` to take the word into a span of that type (chosen on out-of-fold train predictions,
#: docs/extraction.md)
WIDEN = {"task": 0.3}


def widen(text: str, probs: np.ndarray, p: Pieces, spans: list[Span]) -> list[Span]:
    """`spans`, each of a type in WIDEN grown by the whole words next to it on which its type
    has at least WIDEN's share of the probability, though another label won them ("few | shot
    learning"): a task's edges are where the model is least sure. A word with no letter or
    digit, or one inside another span, stops the growth."""
    if not any(s.type in WIDEN for s in spans):
        return spans
    words: list[list[int]] = []  # the wordpieces of each word, in order
    for i, w in enumerate(p.words):
        if w is None:
            continue
        if words and p.words[words[-1][0]] == w:
            words[-1].append(i)
        else:
            words.append([i])
    bounds = [(p.offsets[ix[0]][0], p.offsets[ix[-1]][1]) for ix in words]
    taken = {k for s in spans for k, (a, b) in enumerate(bounds) if s.start <= a and b <= s.end}

    def reaches(k: int, typ: str) -> bool:
        if not 0 <= k < len(words) or k in taken:
            return False
        a, b = bounds[k]
        share = float(np.mean([type_probability(probs, i, typ) for i in words[k]]))
        return share >= WIDEN[typ] and any(c.isalnum() for c in text[a:b])

    out = []
    for s in spans:
        inside = [k for k, (a, b) in enumerate(bounds) if s.start <= a and b <= s.end]
        if s.type not in WIDEN or not inside:
            out.append(s)
            continue
        lo, hi = inside[0], inside[-1]
        while reaches(lo - 1, s.type):
            lo -= 1
            taken.add(lo)
        while reaches(hi + 1, s.type):
            hi += 1
            taken.add(hi)
        out.append(replace(s, start=min(s.start, bounds[lo][0]), end=max(s.end, bounds[hi][1])))
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


class Tagger:
    def __init__(
        self,
        model_path: str | Path = MODEL_PATH,
        tokenizer_path: str | Path = TOKENIZER_PATH,
        threads: int | None = None,
    ):
        import onnxruntime as ort

        if not Path(model_path).is_file():
            raise PaperkgError(
                f"{model_path}: the tagger model is missing (see data/models/TAGGER.md)"
            )
        self.tokenizer = load_tokenizer(tokenizer_path)
        vocab = self.tokenizer.get_vocab()
        self.cls, self.sep = vocab["[CLS]"], vocab["[SEP]"]
        opts = ort.SessionOptions()
        threads = threads or int(os.environ.get("PAPERKG_TAGGER_THREADS", DEFAULT_THREADS))
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(
            str(model_path), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self.input_name = self.session.get_inputs()[0].name

    def probabilities(self, p: Pieces) -> np.ndarray:
        """Per wordpiece, the probability of each of LABELS."""
        n = len(p.ids)
        out = np.zeros((n, len(LABELS)), dtype=np.float32)
        if n == 0:
            return out
        spans = windows(n)
        owners = owner_of(n, spans)
        for w, (a, b) in enumerate(spans):
            ids = np.array([[self.cls, *p.ids[a:b], self.sep]], dtype=np.int64)
            logits = self.session.run(None, {self.input_name: ids})[0][0, 1:-1]
            probs = _softmax(logits.astype(np.float64)).astype(np.float32)
            for i in range(a, b):
                if owners[i] == w:
                    out[i] = probs[i - a]
        return out

    def tag(self, text: str) -> list[Span]:
        p = pieces(self.tokenizer, text)
        probs = self.probabilities(p)
        return tidy(text, widen(text, probs, p, decode(probs, p)))


_shared: Tagger | None = None


def shared() -> Tagger:
    """The process's tagger: the shipped model unless `configure` chose another."""
    global _shared
    if _shared is None:
        _shared = Tagger()
    return _shared


def configure(**options) -> Tagger:
    """Make the process's tagger one built with `options` (see Tagger); returns it."""
    global _shared
    _shared = Tagger(**options)
    return _shared
