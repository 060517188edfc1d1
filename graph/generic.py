"""Generic words are not entities: a name every field uses says nothing about a paper.

data/generic.tsv (made by `python -m graph.generic_stats`) counts, for each phrase of the
unlabelled abstracts, how many abstracts of each venue group use it and in how many a number
stands near it. A lower-case name is generic when it is common (used by at least
`MIN_SHARE` of the abstracts) and spread evenly over the fields (the normalised entropy of its
per-group rates is at least `MIN_SPREAD`): "training", "neural networks", "efficiency". Names
with digits, a capitalised single word or a capital inside a word are never generic
("ImageNet", "BLEU-4", "Transformer"); title case is not ("Deep Neural Networks"). A field's own
vocabulary is uneven ("image classification" lives in CVPR, "machine translation" in ACL). A
metric is spared when many of its abstracts report a number next to it ("accuracy");
"efficiency" and "convergence" are rarely measured so. The thresholds were chosen on the table
alone (see docs/linking.md); no list of words is written by hand.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

from graph.errors import InputError
from graph.model import ENTITY_TYPES, Mention
from graph.name_forms import singular
from graph.paths import DATA_DIR
from graph.slug import label_key

DEFAULT_PATH = DATA_DIR / "generic.tsv"
#: venue groups of the table, in its column order
GROUPS: tuple[str, ...] = ("neurips", "icml", "cvpr", "acl", "aaai")
_VENUE_GROUP = {"neurips": "neurips", "nips": "neurips", "icml": "icml", "cvpr": "cvpr",
                "acl": "acl", "naacl": "acl", "aaai": "aaai"}
#: phrases in fewer abstracts than this are left out of the table (none of them is generic)
MIN_DOCS = 40

_TOKEN = re.compile(r"[^\W_]+(?:\.\d+)?")


def group_of(venue: str) -> str | None:
    return _VENUE_GROUP.get(venue.strip().lower())


def phrase_tokens(text: str) -> list[str]:
    """Words of a text as the table keys them: case and separators folded, punctuation gone."""
    return _TOKEN.findall(label_key(text))


def singular_key(words: list[str]) -> str:
    return " ".join([*words[:-1], singular(words[-1])]) if words else ""


def phrase_key(name: str) -> str:
    """The table's key of an entity name: "Neural Networks" -> "neural network"."""
    return singular_key(phrase_tokens(name))


@dataclass(frozen=True)
class PhraseStats:
    docs: int
    groups: tuple[int, ...]
    near_number: int


@dataclass(frozen=True)
class GenericTable:
    totals: tuple[int, ...]
    phrases: dict[str, PhraseStats]

    @property
    def size(self) -> int:
        return sum(self.totals)

    def share(self, key: str) -> float:
        stats = self.phrases.get(key)
        return stats.docs / self.size if stats and self.size else 0.0

    def spread(self, key: str) -> float:
        """Normalised entropy of the phrase's rate in each venue group: 1.0 when every field
        uses it equally often, near 0 when one field has it all."""
        stats = self.phrases.get(key)
        if stats is None:
            return 0.0
        rates = [n / t for n, t in zip(stats.groups, self.totals, strict=True) if t]
        total = sum(rates)
        if total == 0 or len(rates) < 2:
            return 0.0
        entropy = -sum(r / total * math.log(r / total) for r in rates if r)
        return entropy / math.log(len(rates))


def parse(path: Path | str = DEFAULT_PATH) -> GenericTable:
    path = Path(path)
    totals: tuple[int, ...] | None = None
    phrases: dict[str, PhraseStats] = {}
    width = len(GROUPS) + 3
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the generic-words table: {exc}") from exc
    for line_no, line in enumerate(lines, 1):
        fields = line.split("\t")
        if line.startswith("#phrase") or not line:
            continue
        try:
            if len(fields) != width:
                raise ValueError(f"{len(fields)} fields, expected {width}")
            numbers = [int(f) for f in fields[1:]]
        except ValueError as exc:
            raise InputError(f"{path}:{line_no}: bad row: {exc}") from exc
        if fields[0] == "#all":
            totals = tuple(numbers[1:-1])
        else:
            phrases[fields[0]] = PhraseStats(numbers[0], tuple(numbers[1:-1]), numbers[-1])
    if totals is None:
        raise InputError(f"{path}: no #all row with the number of abstracts per venue group")
    return GenericTable(totals, phrases)


@functools.lru_cache(maxsize=4)
def load(path: str | None = None) -> GenericTable:
    return parse(path or DEFAULT_PATH)


#: a single lower-case word in at least this share of the abstracts is generic
SINGLE_WORD_SHARE = 0.02
#: a lower-case phrase of several words is generic from this share on, if evenly spread ...
PHRASE_SHARE = 0.03
#: ... over the venue groups (1.0 = every field uses it equally often)
MIN_SPREAD = 0.9
#: a metric that has a number near it in this share of its abstracts is measured, not generic
MEASURED_SHARE = 0.07


def is_generic_mention(mention: Mention, *, sentence_start: bool = False) -> bool:
    """An entity mention whose name (its label, else its words) is generic. At the start of a
    sentence the first capital of its words is the sentence's, not the name's."""
    if mention.type not in ENTITY_TYPES:
        return False
    name = mention.label or mention.text
    if sentence_start and name == mention.text and name[:1].isupper():
        name = name[:1].lower() + name[1:]
    return _is_generic_cached(name, mention.type)


@functools.lru_cache(maxsize=1 << 16)
def _is_generic_cached(name: str, entity_type: str) -> bool:
    return is_generic(name, entity_type)


def is_generic(name: str, entity_type: str, table: GenericTable | None = None) -> bool:
    """True when `name` (an entity of `entity_type`) is a word every field uses."""
    if not name or any(ch.isdigit() for ch in name):
        return False
    words = name.split()
    # One capitalised word is a name ("Transformer"); several words capitalised only at their
    # starts are a common phrase in title case ("Deep Neural Networks"), unless a word has a
    # capital inside it ("ImageNet", "CNN").
    if len(words) == 1 and any(ch.isupper() for ch in name):
        return False
    if any(ch.isupper() for word in words for ch in word[1:]):
        return False
    table = table if table is not None else load()
    key = phrase_key(name)
    stats = table.phrases.get(key)
    if stats is None:
        return False
    if entity_type == "metric" and stats.near_number >= MEASURED_SHARE * stats.docs:
        return False
    share = table.share(key)
    if " " not in key:
        return share >= SINGLE_WORD_SHARE
    return share >= PHRASE_SHARE and table.spread(key) >= MIN_SPREAD
