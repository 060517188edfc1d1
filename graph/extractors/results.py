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
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from graph.model import Result

METRICS_LEXICON = (
    Path(__file__).resolve().parent.parent.parent / "data" / "lexicons" / "metrics.txt"
)

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
# (pattern, unit); tried in order, the first that matches right after the number wins.
_UNITS: tuple[tuple[str, str | None], ...] = (
    (r"\s?\\?%", "%"),
    (r"\s?percentage points?", "points"),
    (r"\s?(?:percent|per\s?cent)\b", "%"),
    (r"\s?(?:pp|p\.p\.)(?![\w])", "points"),
    (r"\s?(?:points?|pts)\b", "points"),
    (r"\s?\$?\s?\\times\s?\$?", "×"),
    (r"\s?×(?!\s?\d)", "×"),
    (r"[xX](?![\w\d])", "x"),
    (r"\s?-?fold\b", "×"),
    (r"\s?times\b", "×"),
    (r"\s?dB\b", "dB"),
    (r"\s?(?:frames per second|fps|FPS)\b", "fps"),
    (r"\s?(?:ms|milliseconds?)\b", "ms"),
    (r"\s?(?:seconds?|secs?|s)\b", "s"),
    (r"\s?(?:minutes?|mins?)\b", "min"),
    (r"\s?(?:hours?|hrs?|h)\b", "h"),
    (r"\s?days?\b", "d"),
    (r"\s?(?:epochs?)\b", "epochs"),
    (r"\s?(?:[GTMK]?FLOPs|[GTM]?FLOPS|[GM]?MACs)\b", "FLOPs"),
    (r"\s?(?:GB|MB|KB|TB|GiB|MiB|[GMK]b/s|[GMK]bps|[GMKk]?Hz|[kmM]?W|[μµun]s|[mck]?m)\b",
     None),  # unit is the matched text
    (r"\s?(?:trillion|T)\b", "T"),
    (r"\s?(?:billion|B)\b", "B"),
    (r"\s?(?:million|M)\b", "M"),
    (r"\s?(?:thousand|[Kk])\b", "K"),
    (r"\s?(?:params|parameters)\b", "params"),
    (r"-bits?\b|\s?bits?\b", "bit"),
)
_UNIT_RES = tuple((re.compile(pattern), unit) for pattern, unit in _UNITS)

_NUMBER = re.compile(r"(?<![\w.\-/@^_\\{])(?P<math>\$\s?)?(?P<num>" + _NUM + r")(?![\d])")
# "12-15%": the second number follows a hyphen, which _NUMBER's look-behind refuses
_RANGE = re.compile(r"(?<![\w.\-/@^_\\{$])(?P<a>" + _NUM + r")\s?[-–]\s?(?P<b>\d)")
_NUMBER_AT = re.compile(r"(?P<math>)(?P<num>" + _NUM + r")(?![\d])")
_RANGE_UNITS = frozenset({"%", "points", "×", "x", "dB"})
_ORDINAL = re.compile(r"(?<![\w.\-])(?P<num>\d+)(?:st|nd|rd|th)\s+(?:place|rank)\b")

_WORD_VALUES = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "a hundred": 100,
    "hundred": 100,
    "a thousand": 1000,
    "half a": Decimal("0.5"),
    "a few": None,
}
_SCALE_WORDS = {"thousand": "K", "million": "M", "billion": "B", "trillion": "T"}
_TIME_WORDS = {"seconds": "s", "minutes": "min", "hours": "h", "days": "d", "times": "×"}
_WORD_QUANTITY = re.compile(
    r"\b(?P<num>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty"
    r"|thirty|forty|fifty|a hundred|hundred|a thousand|half a)\s+(?P<unit>thousand|million|billion"
    r"|trillion|seconds|minutes|hours|days|times)\b",
    re.IGNORECASE,
)
_FOLD_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twenty": 20,
    "fifty": 50,
    "hundred": 100,
    "thousand": 1000,
    "million": 10**6,
    "billion": 10**9,
}
_FOLD = re.compile(r"\b(?P<num>" + "|".join(_FOLD_WORDS) + r")-?fold\b", re.IGNORECASE)

_FOLD_WORD = re.compile("fold", re.IGNORECASE)
_PLACE_WORD = re.compile("place|rank")
_YEAR = re.compile(r"(?:19|20)\d\d$")
_PAREN_ENUM = re.compile(r"\(\s*$")
_NAME_BEFORE = re.compile(r"(?:^|[\s(])([A-Z][\w\-]*[A-Z0-9][\w\-]*|[A-Z][a-z]+)\s$")
_CITE_OR_REF = re.compile(
    r"(?:\[[\d,\s\-–]*$)|(?:\b(?:Table|Tab\.|Figure|Fig\.|Eq\.|Equation|Section|Sec\.|Appendix"
    r"|Algorithm|Theorem|Lemma|Step|Stage|Phase|Level|Task|Version|v)\s?$)"
)

_BASELINE = re.compile(
    r"\b(?:over|than|compared\s+(?:to|with)|relative\s+to|versus|vs\.?|against)\s+"
    r"(?P<what>(?:the\s+|a\s+|an\s+|its\s+)?[^,;:()]{1,60}?)(?=\s*(?:[,;:()]|\.(?:\s|$)|$|\s+(?:on|in|"
    r"while|with|by|and|at|for|using|across|when|which|without)\b))",
    re.IGNORECASE,
)
_FROM_TO = re.compile(
    r"\bfrom\s+(?P<a>(?:\$\s?)?" + _NUM + r"[^\s,;]*)\s+to\s+(?:\$\s?)?(?P<b>" + _NUM + r")"
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
_NOT_NAMES = {
    "We",
    "Our",
    "The",
    "This",
    "These",
    "In",
    "On",
    "It",
    "Its",
    "A",
    "An",
    "For",
    "Moreover",
    "Furthermore",
    "However",
    "Finally",
    "Experiments",
    "Results",
    "Specifically",
    "Compared",
}
# units a score is written in; any other unit (a time, a size, a rate) is an amount
_SCORE_UNITS = frozenset({None, "%", "points", "×", "x", "dB", "place"})
_AMOUNT_METRIC = re.compile(
    r"time|latency|speed|throughput|memory|size|parameters|params|flops|cost|fps|bits?|energy",
    re.IGNORECASE,
)
_FASTER = re.compile(r"^\s*(?:faster|speed-?ups?|quicker)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Quantity:
    value: Decimal
    text: str
    start: int
    end: int
    unit: str | None = None


@lru_cache(maxsize=1)
def metric_names() -> tuple[tuple[str, str], ...]:
    """(surface, preferred name) pairs, longest surface first, from data/lexicons/metrics.txt."""
    pairs: list[tuple[str, str]] = []
    try:
        lines = METRICS_LEXICON.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        names = [n.strip() for n in line.split("|") if n.strip()]
        pairs += [(name, names[0]) for name in names]
    pairs += [
        (name, name) for name in ("accuracy", "error", "F1", "BLEU", "FID", "speedup", "score")
    ]
    seen: set[str] = set()
    unique = []
    for surface, preferred in sorted(pairs, key=lambda p: (-len(p[0]), p[0])):
        if surface.lower() not in seen:
            seen.add(surface.lower())
            unique.append((surface, preferred))
    return tuple(unique)


@lru_cache(maxsize=1)
def _metric_re() -> re.Pattern[str]:
    parts = []
    for surface, _ in metric_names():
        escaped = re.escape(surface)
        # Acronyms match as written, words in any case ("Accuracy", "accuracy").
        parts.append(escaped if surface != surface.lower() else f"(?i:{escaped})")
    return re.compile(r"(?<![\w\-])(?:" + "|".join(parts) + r")(?![\w\-])")


def find_quantities(text: str, offset: int = 0) -> list[Quantity]:
    """Every numeric quantity in `text`; spans are shifted by `offset`."""
    found = _quantities(text)
    if not offset:
        return list(found)
    return [replace(q, start=q.start + offset, end=q.end + offset) for q in found]


# A claim's sentence is read for its numbers twice (to classify it, then for its Results).
@lru_cache(maxsize=256)
def _quantities(text: str) -> tuple[Quantity, ...]:
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def add(q: Quantity) -> None:
        if any(q.start < e and s < q.end for s, e in taken):
            return
        taken.append((q.start, q.end))
        found.append(q)

    # the long alternations run only where the word they end in is there at all
    if _FOLD_WORD.search(text):
        for m in _FOLD.finditer(text):
            value = Decimal(_FOLD_WORDS[m["num"].lower()])
            add(Quantity(value, m.group(), m.start(), m.end(), "×"))
    if _PLACE_WORD.search(text):
        for m in _ORDINAL.finditer(text):
            add(Quantity(Decimal(m["num"]), m.group(), m.start(), m.end(), "place"))
    for m in _WORD_QUANTITY.finditer(text):
        word, unit_word = m["num"].lower(), m["unit"].lower()
        value = _WORD_VALUES.get(word)
        if value is None:
            continue
        unit = _SCALE_WORDS.get(unit_word) or _TIME_WORDS.get(unit_word)
        add(Quantity(Decimal(value), m.group(), m.start(), m.end(), unit))
    if "-" in text or "–" in text:
        for m in _RANGE.finditer(text):
            add_range = _read_range(text, m)
            if add_range is not None:
                for q in add_range:
                    add(q)
    for m in _NUMBER.finditer(text):
        q = _read_number(text, m)
        if q is not None:
            add(q)
    found.sort(key=lambda q: q.start)
    return tuple(found)


def _read_range(text: str, m: re.Match[str]) -> tuple[Quantity, Quantity] | None:
    """ "12-15%", "2–3x": both ends, each with the unit written once after the second."""
    second = _NUMBER_AT.match(text, m.start("b"))
    if second is None:
        return None
    high = _read_number(text, second, in_range=True)
    if high is None or high.unit not in _RANGE_UNITS:
        return None
    low = Decimal(m["a"].replace(",", ""))
    return Quantity(low, m["a"], m.start("a"), m.end("a"), high.unit), high


def _read_number(text: str, m: re.Match[str], in_range: bool = False) -> Quantity | None:
    num = m["num"]
    start, end = m.start(), m.end("num")
    if in_range:
        start = m.start("num")
    before = text[:start]
    after = text[end:]
    # image sizes and kernel shapes: 512x512, 3 × 3
    if re.match(r"\s?(?:[xX×]|\$?\\times\$?)\s?\$?\d", after) or re.search(
        r"\d\s?(?:[xX×]|\\times)\s?\$?$", before
    ):
        return None
    if re.match(r"\.\d|,\d{3}\b", after):
        return None
    if not in_range and re.match(r"\s?[-–]\s?\d", after):
        return None  # a range the range reader did not take: years, counts ("3-4 layers")
    unit: str | None = None
    unit_end = end
    # "$4.4$ points", "$44$\\%": the unit may follow the formula's closing "$"
    closed = re.match(r"\s?\$", after) if m["math"] else None
    for probe in (end,) if closed is None else (end, end + closed.end()):
        for pattern, name in _UNIT_RES:
            u = pattern.match(text, probe)
            if u:
                unit = name if name is not None else u.group().strip()
                unit_end = u.end()
                break
        if unit is not None:
            break
    if unit is None and re.match(r"-?[A-Za-z]", after):
        return None  # 3D, 2nd, 4K as a name, v2, and modifiers: "a 2-layer network", "300-W"
    if _counts_things(text, unit_end, unit, "." in num):
        return None  # "8 tasks", "21 datasets", "1.2M images": how much was used, not a result
    if unit is None:
        bare = num.replace(",", "")
        if _YEAR.fullmatch(bare):
            return None
        if _CITE_OR_REF.search(before) or (
            _PAREN_ENUM.search(before) and re.match(r"\s?\)", after)
        ):
            return None
        if re.match(r"\)", after) and re.search(r"(?:^|[\s:;])$", before):
            return None  # "1) augmentation of data"
        name = _NAME_BEFORE.search(before)
        if name and name.group(1) not in _NOT_NAMES and not _is_metric(name.group(1)):
            return None  # "Atari 2600", "FlowNet 2.0"
    text_start = start
    text_end = unit_end
    if m["math"]:
        close = re.match(r"\s?\$", text[text_end:])
        if close:
            text_end += close.end()
        elif "$" not in text[end:unit_end]:
            text_start = m.start("num")  # "$" opened a longer formula: keep just the number
    elif text[text_end : text_end + 1] == "$" and before.endswith("$"):
        text_start -= 1
        text_end += 1
    value = Decimal(num.replace(",", ""))
    return Quantity(value, text[text_start:text_end], text_start, text_end, unit)


# Words after a number that keep it a result: prepositions, conjunctions, verbs of comparison.
_NOT_A_COUNT = frozenset(
    "on in at for over to and or with by from than of vs versus while when which respectively"
    " compared relative against across as higher lower better worse faster slower more less fewer"
    " smaller larger improvement increase decrease reduction gain drop error accuracy absolute"
    " relative top average mean overall lead margin parameters params".split()
)
_NEXT_WORD = re.compile(r"\s?(?:\$\s?)?(?:-\s?)?([A-Za-z][A-Za-z\-]*)")


def _counts_things(text: str, at: int, unit: str | None, decimal: bool) -> bool:
    """Whether the number ending at `at` counts things: a whole number, bare or with a
    magnitude ("8", "1.2M"), followed by a noun that is not a metric ("tasks", "images")."""
    if unit not in (None, "K", "M", "B", "T") or (decimal and unit is None):
        return False
    word = _NEXT_WORD.match(text, at)
    if word is None:
        return False
    noun = word.group(1)
    if noun.lower() in _NOT_A_COUNT or _is_metric(noun) or not noun.islower():
        return False
    return True


def _is_metric(word: str) -> bool:
    return bool(_metric_re().fullmatch(word))


def results_in(sentence: str, offset: int = 0) -> tuple[Result, ...]:
    """Results for the quantities of one sentence; `offset` is its position in the abstract."""
    quantities = find_quantities(sentence)
    if not quantities:
        return ()
    metrics = [(m.start(), m.end(), m.group()) for m in _metric_re().finditer(sentence)]
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
        if name.split()[0] in _NOT_NAMES or _is_metric(name):
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
