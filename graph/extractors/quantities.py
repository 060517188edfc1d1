"""Numeric quantities in a sentence's verbatim text: value, unit and span.

Read in place so that each span indexes the abstract: LaTeX forms ("5.7\\%", "$4.4$",
"1.5$\\times$"), thousands separators, magnitude suffixes ("42M", "1.6B") and number words ("one
billion", "ten minutes", "tenfold") count; numbers inside names ("ResNet-50", "CIFAR-10"), years,
citations, enumerations, image sizes ("512x512") and counts of things ("8 tasks") do not.
graph.extractors.results says what a sentence's quantities are results of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache

from graph.paths import DATA_DIR

METRICS_LEXICON = DATA_DIR / "lexicons" / "metrics.txt"

NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
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

_NUMBER = re.compile(r"(?<![\w.\-/@^_\\{])(?P<math>\$\s?)?(?P<num>" + NUM + r")(?![\d])")
# "12-15%": the second number follows a hyphen, which _NUMBER's look-behind refuses
_RANGE = re.compile(r"(?<![\w.\-/@^_\\{$])(?P<a>" + NUM + r")\s?[-–]\s?(?P<b>\d)")
_NUMBER_AT = re.compile(r"(?P<math>)(?P<num>" + NUM + r")(?![\d])")
_RANGE_UNITS = frozenset({"%", "points", "×", "x", "dB"})
_ORDINAL = re.compile(r"(?<![\w.\-])(?P<num>\d+)(?:st|nd|rd|th)\s+(?:place|rank)\b")

#: a number word's value; None where it says no number ("a few")
_WORD_VALUES: dict[str, int | Decimal | None] = {
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
NOT_NAMES = {
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
def metric_re() -> re.Pattern[str]:
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
        count = _WORD_VALUES.get(word)
        if count is None:
            continue
        unit = _SCALE_WORDS.get(unit_word) or _TIME_WORDS.get(unit_word)
        add(Quantity(Decimal(count), m.group(), m.start(), m.end(), unit))
    if "-" in text or "–" in text:
        for m in _RANGE.finditer(text):
            add_range = _read_range(text, m)
            if add_range is not None:
                for q in add_range:
                    add(q)
    for m in _NUMBER.finditer(text):
        number = _read_number(text, m)
        if number is not None:
            add(number)
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
        named = _NAME_BEFORE.search(before)
        if named and named.group(1) not in NOT_NAMES and not is_metric(named.group(1)):
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
    if noun.lower() in _NOT_A_COUNT or is_metric(noun) or not noun.islower():
        return False
    return True


def is_metric(word: str) -> bool:
    return bool(metric_re().fullmatch(word))
