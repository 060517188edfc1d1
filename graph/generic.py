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
"efficiency" and "convergence" are rarely measured so, and a metric that is not measured is
generic from the share of a single word on, even or not ("objective function": a field's own
metrics are the measured ones). A task phrase that nearly always ends its noun phrase is a
description ("optimization problem"), generic from a lower share on (`is_closed_phrase`). A
single word that almost never ends a noun phrase in the abstracts only modifies one
("Gaussian", "Markov", "pretrained"): alone it is no entity, even capitalised. The thresholds
were chosen on the table alone (see docs/linking.md); no list of generic words is written by
hand (the training settings below are a short list of a closed class, not of generic words).

Four more kinds of name are no entity, whatever the table says (costs on train gold: `python
-m graph.generic_stats --gold tests/gold/scierc-train.json`):
- the name of a research field: a top concept of data/taxonomy.ttl ("Computer vision"), the
  acronym of one that the taxonomy lists ("NLP", and "NLP tasks", which resolves to it:
  graph.name_forms.bare_name), or an AAAI track ("Machine Learning II");
  the domains extractor already reads these words as evidence of the paper's area, so the
  paper links to the area, not to a task of that name;
- a number with a one-letter unit ("3D", "4K", "7B"): it measures something, it names nothing;
- a training setting (`is_setting`: a name that ends with one of data/lexicons/settings.txt,
  "learning rate", "adaptive learning rate", "batch size", "kernel hyperparameters"): what an
  author chooses, not a method the paper uses nor a metric it measures, though the tagger,
  seeing a number beside it, may call it a metric;
- a mention that is one modifier word alone (`is_lone_modifier`: an adjective, or a word that
  modifies a noun outside the mention, "pretrained" of "pretrained models", "Gaussian" of
  "Gaussian noise"), which needs the parse and so is judged in the pipeline.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

from graph.errors import InputError
from graph.model import ENTITY_TYPES, Mention
from graph.name_forms import DATA_CLASS_WORDS, bare_name, singular
from graph.paths import DATA_DIR, LEXICONS
from graph.slug import label_key
from graph.taxonomy import load as load_taxonomy
from graph.venue_tracks import TRACK_AREAS

DEFAULT_PATH = DATA_DIR / "generic.tsv"
SETTINGS_PATH = LEXICONS / "settings.txt"
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
    #: abstracts in which it ends a noun phrase at least once (a stop word or the end follows)
    head: int

    @property
    def modifies(self) -> bool:
        """It (nearly) never ends a noun phrase: it modifies one ("large-scale", "Gaussian")."""
        return self.head < MODIFIER_HEAD_SHARE * self.docs


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
    width = len(GROUPS) + 4
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
            totals = tuple(numbers[1:-2])
        else:
            phrases[fields[0]] = PhraseStats(numbers[0], tuple(numbers[1:-2]), numbers[-2],
                                             numbers[-1])
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
#: a word that ends a noun phrase in fewer than this share of its abstracts only modifies:
#: below 0.2 the table's words are adjectives, adverbs and prefixes ("bayesian" 0.01,
#: "gaussian" 0.11, "pretrained" 0.15) with few nouns ("atari" 0.15); above it nouns start
#: ("human" 0.20, "kitti" 0.21, "inception" 0.22, "coco" 0.24)
MODIFIER_HEAD_SHARE = 0.2
#: a task phrase of several words is generic from this share on, if spread at least
#: `CLOSED_SPREAD` and it ends its noun phrase in `CLOSED_HEAD_SHARE` of its abstracts
CLOSED_SHARE = 0.01
CLOSED_SPREAD = 0.8
CLOSED_HEAD_SHARE = 0.8
#: the types the closed-phrase rule judges. Not methods nor metrics: the train gold of both
#: corpora annotates such descriptions as methods ("generative model", "attention mechanism")
#: and as metrics ("computational cost", "computational complexity"; out of fold, metric F1
#: fell 0.024 on each corpus with them), while for tasks it costs under 0.005 (docs/linking.md)
CLOSED_TYPES = frozenset({"task"})


#: a number with a one-letter unit: "3D", "4K", "7B", "2.5D"
_NUMBER_WITH_UNIT = re.compile(r"^\d+(?:\.\d+)?[- ]?[A-Za-z]$")
#: the numbering of a track that one area spans ("Computer Vision II")
_TRACK_NUMBER = re.compile(r"\s+[IVX]+$")


@functools.lru_cache(maxsize=1)
def field_keys() -> frozenset[str]:
    """Table keys of the names of research fields: each top concept of the taxonomy, by its
    preferred label and by an acronym of that label the taxonomy lists ("NLP"), and each AAAI
    track that names an area. A narrower concept is a subfield that is also a task
    ("object detection", "machine translation"): the gold of SciERC and SciREX train annotates
    those as tasks far more often than the fields."""
    keys = set()
    for concept in load_taxonomy().concepts.values():
        if not concept.is_top:
            continue
        keys.add(phrase_key(concept.pref_label))
        initials = "".join(word[0] for word in phrase_tokens(concept.pref_label)
                           if word not in ("and", "of"))
        keys.update(phrase_key(alt) for alt in concept.alt_labels
                    if alt.isupper() and alt.lower() == initials)
    keys.update(phrase_key(_TRACK_NUMBER.sub("", track))
                for track, areas in TRACK_AREAS.items() if areas)
    return frozenset(keys)


@functools.lru_cache(maxsize=1)
def setting_keys() -> frozenset[str]:
    """Table keys of the training settings of data/lexicons/settings.txt."""
    try:
        lines = SETTINGS_PATH.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"{SETTINGS_PATH}: cannot read the training settings: {exc}") from exc
    return frozenset(phrase_key(line) for line in lines if line.strip() and line[0] != "#")


def is_setting(name: str) -> bool:
    """A name that ends with a training setting: "learning rate", "mini-batch size",
    "neural network hyperparameters" (not "learning rate schedule", "hyperparameter tuning")."""
    words = phrase_tokens(name)
    keys = setting_keys()
    return any(singular_key(words[i:]) in keys for i in range(len(words)))


def is_generic_mention(mention: Mention, *, sentence_start: bool = False) -> bool:
    """An entity mention whose name (its label, else its words) is generic. At the start of a
    sentence the first capital of its words is the sentence's, not the name's."""
    if mention.type not in ENTITY_TYPES:
        return False
    name = mention.label or mention.text
    written = mention.text.split()
    if mention.type == "dataset" and not sentence_start and len(written) == 2 \
            and written[0] == name and singular(written[1].lower()) in DATA_CLASS_WORDS:
        # a capitalised word that alone only modifies names the data its class word follows:
        # "Caltech" of "Caltech Pedestrian" is no dataset, "the Caltech benchmark" is one (at a
        # sentence's start the capital may be the sentence's: "Synthetic datasets")
        name = mention.text
    if sentence_start and name == mention.text and name[:1].isupper():
        name = name[:1].lower() + name[1:]
    return _is_generic_cached(name, mention.type)


def is_modifier_word(word: str, table: GenericTable | None = None) -> bool:
    """A single word that (nearly) never ends a noun phrase in the unlabelled abstracts: it
    modifies one ("large-scale", "public", "Gaussian")."""
    table = table if table is not None else load()
    key = phrase_key(word)
    stats = table.phrases.get(key)
    # a hyphenated word is one word here, though the table keys "large-scale" as two
    return stats is not None and len(word.split()) == 1 and stats.modifies


def is_lone_modifier(mention: Mention, doc) -> bool:
    """An entity mention of one word that modifies a noun outside it: an adjective or a
    participle ("Gaussian" of "Gaussian noise", "pretrained" of "pretrained models"). Unless
    its label names something else ("the model" -> GPT-2) or the word is name-shaped (a digit
    or a capital inside it: "CNN", "ReLU"). Needs the spaCy parse (`doc` holds `mention`).
    On SciERC and SciREX train, 4 of the ~70 adjectival modifiers predicted alone were gold
    (language names as datasets: "Arabic", "Finnish")."""
    if mention.type not in ENTITY_TYPES or (mention.label or mention.text) != mention.text:
        return False
    span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
    if span is None or len(span) != 1:
        return False
    word = span[0]
    if any(ch.isdigit() for ch in word.text) or any(ch.isupper() for ch in word.text[1:]):
        return False
    modifies = word.dep_ in ("amod", "compound") and word.head.i != word.i
    return modifies and (word.pos_ == "ADJ" or word.tag_ in ("VBN", "VBD"))


def drop_generic(mentions: list[Mention], doc) -> list[Mention]:
    """`mentions` of `doc` without the generic names and the lone modifiers."""
    # a capital that only starts a sentence does not make a name ("Training is ...")
    starts = ({t.idx for t in doc if t.is_sent_start}
              if doc.has_annotation("SENT_START") else {0})
    return [m for m in mentions
            if not is_generic_mention(m, sentence_start=m.start in starts)
            and not is_lone_modifier(m, doc)]


@functools.lru_cache(maxsize=1 << 16)
def _is_generic_cached(name: str, entity_type: str) -> bool:
    return is_generic(name, entity_type)


def is_generic(name: str, entity_type: str, table: GenericTable | None = None) -> bool:
    """True when `name` (an entity of `entity_type`) is a word every field uses."""
    if not name or _NUMBER_WITH_UNIT.match(name.strip()):
        return bool(name)
    if phrase_key(name) in field_keys() or is_setting(name):
        return True
    bare = bare_name(name)
    if bare is not None and phrase_key(bare) in field_keys():
        return True  # "NLP tasks", "NLP model": the field with a class word, one node with it
    if any(ch.isdigit() for ch in name):
        return False
    words = name.split()
    # One capitalised word is a name ("Transformer"); several words capitalised only at their
    # starts are a common phrase in title case ("Deep Neural Networks"), unless a word has a
    # capital inside it ("ImageNet", "CNN").
    if any(ch.isupper() for word in words for ch in word[1:]):
        return False
    table = table if table is not None else load()
    key = phrase_key(name)
    stats = table.phrases.get(key)
    # A word that (nearly) never ends a noun phrase only modifies one: alone it names nothing,
    # capitalised or not ("Gaussian", "Markov", "pretrained").
    if stats is not None and " " not in key and stats.modifies:
        return True
    if len(words) == 1 and any(ch.isupper() for ch in name):
        return False
    if stats is None:
        return False
    if entity_type == "metric" and stats.near_number >= MEASURED_SHARE * stats.docs:
        return False
    share = table.share(key)
    if " " not in key:
        return share >= SINGLE_WORD_SHARE
    if entity_type in CLOSED_TYPES and is_closed_phrase(key, table):
        return True
    # A metric of one field is measured there, and spared above: one that is not measured
    # needs no even spread to be generic ("objective function", "loss function").
    if entity_type == "metric":
        return share >= SINGLE_WORD_SHARE
    return share >= PHRASE_SHARE and table.spread(key) >= MIN_SPREAD


def is_closed_phrase(key: str, table: GenericTable) -> bool:
    """A description, not a name: a phrase of several words that every field uses and that
    nearly always ends its noun phrase ("optimization problem", "real-world applications",
    "classification tasks"). The name of a task is also used as a modifier ("image
    classification benchmarks", "question answering systems"); a description hardly is."""
    stats = table.phrases.get(key)
    return (stats is not None and " " in key and table.share(key) >= CLOSED_SHARE
            and stats.head >= CLOSED_HEAD_SHARE * stats.docs
            and table.spread(key) >= CLOSED_SPREAD)
