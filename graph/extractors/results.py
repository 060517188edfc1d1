"""Numbers a sentence reports, as graph.model.Result: value, unit and what the sentence says
about them (metric, dataset, model, baseline).

Works on the verbatim text so every Result's span indexes the abstract: LaTeX forms ("5.7\\%",
"$4.4$", "1.5$\\times$"), thousands separators, magnitude suffixes ("42M", "1.6B"), number words
("one billion", "ten minutes", "tenfold", "millionfold") are read in place. Numbers that are part
of names ("ResNet-50", "CIFAR-10", "VOC 2007", "top-1"), years, citations, enumerations and
image sizes ("512x512") are not results.
"""

from __future__ import annotations

import re
from dataclasses import replace

from graph.extractors.quantities import (
    NOT_NAMES,
    NUM,
    Quantity,
    find_quantities,
    is_metric,
    metric_re,
)
from graph.model import Result

_BASELINE = re.compile(
    r"\b(?:over|than|compared\s+(?:to|with)|relative\s+to|versus|vs\.?|against)\s+"
    r"(?P<what>(?:the\s+|a\s+|an\s+|its\s+)?[^,;:()]{1,60}?)(?=\s*(?:[,;:()]|\.(?:\s|$)|$|\s+(?:on|in|"
    r"while|with|by|and|at|for|using|across|when|which|without)\b))",
    re.IGNORECASE,
)
_FROM_TO = re.compile(
    r"\bfrom\s+(?P<a>(?:\$\s?)?" + NUM + r"[^\s,;]*)\s+to\s+(?:\$\s?)?(?P<b>" + NUM + r")"
)
_CHANGE_VERB = re.compile(
    r"\b(?:improv|reduc|increas|decreas|boost|lower|rais|cut|drop|decline|bring|brought|push"
    r"|shrink|go|went|mov|advanc|lift|enhanc)\w*\s+(?:\S+\s+){0,6}?$",
    re.IGNORECASE,
)
_ON_NAME = re.compile(
    r"\b(?P<prep>[Oo]n|[Ii]n|[Ff]or|[Ww]ith|[Uu]sing|of)\s+(?:the\s+)?(?P<name>[A-Z][\w\-./+]*(?:[\s-][A-Z0-9]"
    r"[\w\-./+]*){0,3})(?P<kind>\s+(?:dataset|benchmark|corpus|test set|challenge|task)s?\b)?"
)
_MODEL_SHAPE = re.compile(
    r"/|-(?:XXL|XL|L|B|S|H|T|Base|Large|Small|Tiny|Huge|base|large|small)\b|\d(?:\.\d+)?[BM]\b"
    r"|^(?:GPT|BERT|RoBERTa|T5|LLaMA|Llama|ViT|DiT|SiT|ResNet|ResNeXt|VGG|Inception|MobileNet"
    r"|EfficientNet|U-Net|Transformer|LSTM|Mistral|Qwen|Gemma|PaLM|OPT|BLOOM|CLIP|Swin|DeiT"
    r"|ConvNeXt|Faster R-CNN|Mask R-CNN|YOLO|XLNet|ELECTRA|DeBERTa|Wide ResNet|DenseNet)"
)
# units a score is written in; any other unit (a time, a size, a rate) is an amount
_SCORE_UNITS = frozenset({None, "%", "points", "×", "x", "dB", "place"})
_AMOUNT_METRIC = re.compile(
    r"time|latency|speed|throughput|memory|size|parameters|params|flops|cost|fps|bits?|energy",
    re.IGNORECASE,
)
_FASTER = re.compile(r"^\s*(?:faster|speed-?ups?|quicker)\b", re.IGNORECASE)


def results_in(sentence: str, offset: int = 0) -> tuple[Result, ...]:
    """Results for the quantities of one sentence; `offset` is its position in the abstract."""
    quantities = find_quantities(sentence)
    if not quantities:
        return ()
    metrics = [(m.start(), m.end(), m.group()) for m in metric_re().finditer(sentence)]
    names = _names(sentence)
    baselines = [(m.start(), m.end(), m["what"].strip()) for m in _BASELINE.finditer(sentence)]
    pairs = _from_to(sentence, quantities)
    results: list[Result] = []
    for q in quantities:
        if q.start in pairs.get("dropped", {}):
            continue
        others = [
            (o.start, o.end) for o in quantities if o is not q and o.start not in pairs["dropped"]
        ]
        baseline = pairs["baseline"].get(q.start) or _nearest_after(baselines, q, 90, others)
        metric = _metric_for(sentence, q, metrics, pairs["baseline"].get(q.start))
        dataset = _nearest_name(names, q, others, kind="dataset")
        model = _nearest_name(names, q, others, kind="model")
        results.append(
            Result(
                value=q.value,
                text=q.text,
                start=q.start + offset,
                end=q.end + offset,
                unit=q.unit,
                metric=metric,
                dataset=dataset,
                model=model,
                baseline=baseline,
            )
        )
    return tuple(_share_ranges(sentence, results, offset))


_RANGE_GAP = re.compile(r"\s?(?:[-–]|to)\s?(?:\$\s?)?$")
_SHARED = ("metric", "dataset", "model", "baseline")


def _share_ranges(sentence: str, results: list[Result], offset: int) -> list[Result]:
    """The two ends of a range ("12-15%", "from 85% to 92%") are said of the same thing: what
    the sentence gives for one end holds for the other."""
    out = list(results)
    for i in range(len(out) - 1):
        low, high = out[i], out[i + 1]
        gap = sentence[low.end - offset : high.start - offset]
        if low.unit != high.unit or not _RANGE_GAP.match(gap):
            continue
        for field in _SHARED:
            a, b = getattr(low, field), getattr(high, field)
            if a is None and b is not None:
                out[i] = low = replace(low, **{field: b})
            elif b is None and a is not None:
                out[i + 1] = high = replace(high, **{field: a})
    return out


def _from_to(sentence: str, quantities: list[Quantity]) -> dict[str, dict]:
    """ "improves FID from 8.26 to 6.27": one Result, 6.27, whose baseline is 8.26. A plain range
    ("models from 42M to 1.6B") keeps both numbers as Results."""
    baseline: dict[int, str] = {}
    dropped: dict[int, bool] = {}
    for m in _FROM_TO.finditer(sentence):
        if not _CHANGE_VERB.search(sentence[: m.start()]):
            continue
        a = next(
            (q for q in quantities if q.start <= m.start("a") < q.end or q.start == m.start("a")),
            None,
        )
        b = next((q for q in quantities if q.start <= m.start("b") < q.end), None)
        if a is None or b is None:
            continue
        baseline[b.start] = a.text
        dropped[a.start] = True
    return {"baseline": baseline, "dropped": dropped}


def _separated(a: int, b: int, others: list[tuple[int, int]]) -> bool:
    """Another quantity lies between positions a and b: what is there belongs to it."""
    low, high = min(a, b), max(a, b)
    return any(low <= s and e <= high for s, e in others)


def _nearest_after(
    items: list[tuple[int, int, str]], q: Quantity, window: int, others: list[tuple[int, int]]
) -> str | None:
    best = None
    for start, _end, what in items:
        gap = start - q.end
        if _separated(q.end, start, others) or find_quantities(what) or _starts_with_number(what):
            continue
        if 0 <= gap <= window and (best is None or gap < best[0]):
            best = (gap, what)
    return _clean_phrase(best[1]) if best else None


def _starts_with_number(phrase: str) -> bool:
    return bool(
        re.match(
            r"(?:the\s+|a\s+)?(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|half|several|many|few)\b",
            phrase,
            re.IGNORECASE,
        )
    )


def _clean_phrase(phrase: str) -> str | None:
    phrase = re.sub(r"^(?:the|a|an|its)\s+", "", phrase.strip(), flags=re.IGNORECASE).strip(" .")
    return phrase or None


def _metric_for(
    sentence: str, q: Quantity, metrics: list[tuple[int, int, str]], baseline: str | None = None
) -> str | None:
    if q.unit in {"×", "x"} and _FASTER.match(sentence[q.end :]):
        return "speedup"
    best = None
    for start, end, surface in metrics:
        if q.unit not in _SCORE_UNITS and not _AMOUNT_METRIC.search(surface):
            continue  # "30 minutes" is no accuracy: a time or a size takes a metric of its kind
        if end <= q.start:
            between = sentence[end : q.start]
            gap = len(between)
        elif start >= q.end:
            between = sentence[q.end : start]
            gap = (
                len(between) + 5
            )  # "of 71.8% accuracy" and "accuracy of 71.8%" both read well; prefer before
        else:
            continue
        if re.search(r"[;,]|\b(?:and|while|but|whereas)\b", between) or gap > 70:
            continue
        if baseline:
            between = between.replace(baseline, "")
        if re.search(r"\d", between.replace(q.text, "")):
            continue  # another number sits between: the metric is that number's
        if best is None or gap < best[0]:
            best = (gap, surface)
    return best[1] if best else None


def _names(sentence: str) -> list[tuple[int, int, str, str]]:
    out = []
    for m in _ON_NAME.finditer(sentence):
        name = m["name"].rstrip(".-/")
        if name.split()[0] in NOT_NAMES or is_metric(name):
            continue
        is_model = bool(_MODEL_SHAPE.search(name)) and not m["kind"]
        if m["prep"].lower() in {"with", "using"} and not m["kind"]:
            is_model = is_model or True
        if m["prep"].lower() == "of" and not (is_model or m["kind"]):
            continue
        out.append(
            (m.start("name"), m.start("name") + len(name), name, "model" if is_model else "dataset")
        )
    return out


def _nearest_name(
    names: list[tuple[int, int, str, str]], q: Quantity, others: list[tuple[int, int]], *, kind: str
) -> str | None:
    best = None
    for start, end, name, name_kind in names:
        if name_kind != kind or _separated(q.end if start >= q.end else q.start, start, others):
            continue
        gap = start - q.end if start >= q.end else (q.start - end) * 1.5
        if gap < 0 or gap > 80:
            continue
        if best is None or gap < best[0]:
            best = (gap, name)
    return best[1] if best else None
