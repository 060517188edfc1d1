"""Forms of a name: the singular of a head noun, shared by the resolver and the generic table,
and the hyphenated adjectives that end no name ("BERT-based")."""

from __future__ import annotations

import re

_INVARIANT = ("ss", "us", "is", "ics", "ous", "sis", "xis", "ness")


#: words that, glued after a name by a hyphen, make it an adjective ("BERT-based classifier")
ADJECTIVE_ENDS = frozenset({
    "based", "like", "style", "inspired", "driven", "guided", "powered", "enhanced",
    "augmented", "free", "only", "specific", "aware", "related", "sized", "level",
})
#: the hyphens that join a word to a name ("BERT-based"; the non-breaking one too)
HYPHENS = "-\u2010\u2011"


def ends_as_adjective(name: str) -> bool:
    """True for a name whose last word is an adjective made with a hyphen ("learning-based",
    "Deep learning-based", "UVOS-driven"): it modifies a noun the span left out."""
    last = name.rsplit(None, 1)[-1] if name.strip() else ""
    for hyphen in HYPHENS:
        head, sep, end = last.rpartition(hyphen)
        if sep and head and end in ADJECTIVE_ENDS:
            return True
    return False


def singular(word: str) -> str:
    """Cheap singular of an English head noun; leaves acronyms and Latin-ish words alone."""
    if len(word) <= 3 or not word.isalpha() or word.isupper() or word.endswith(_INVARIANT):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


# -- variants of one name ---------------------------------------------------------------------
#
# Rules on the form of a name, no list of names: head words that say the same thing
# ("recurrent models", "recurrent networks", "recurrent neural nets"), years written four or
# two digits ("ILSVRC 2012", "ILSVRC-12", "WMT'14"), and language pairs written out or as
# ISO 639-1 codes ("English-German", "En-De").

#: head words that name a learned network, longest first; "X neural network" = "X model"
_NETWORK_HEADS: tuple[tuple[str, ...], ...] = (
    ("neural", "network"), ("neural", "net"), ("neural", "model"),
    ("network",), ("net",), ("model",),
)
_NETWORK_MARK = "\u00b7net"
#: ISO 639-1 codes of the languages machine-translation benchmarks pair most
LANGUAGE_CODES = {
    "english": "en", "german": "de", "french": "fr", "romanian": "ro", "chinese": "zh",
    "japanese": "ja", "spanish": "es", "russian": "ru", "czech": "cs", "vietnamese": "vi",
    "italian": "it", "dutch": "nl", "turkish": "tr", "finnish": "fi", "estonian": "et",
    "latvian": "lv", "portuguese": "pt", "arabic": "ar", "korean": "ko", "hindi": "hi",
    "lithuanian": "lt", "kazakh": "kk", "gujarati": "gu", "polish": "pl", "hungarian": "hu",
}
_CODES = frozenset(LANGUAGE_CODES.values())
_YEAR = re.compile(r"^(?:19|20)(\d\d)$")
_NAME_YEAR = re.compile(r"^([a-z]{2,})(?:19|20)(\d\d)$")
_QUOTE_YEAR = re.compile(r"['\u2019\u2018](?=\d\d\b)")
_VERSION = re.compile(r"^(?:v?\d+(?:\.\d+)*)$")


def form_tokens(key: str) -> list[str]:
    """Tokens of a label key (graph.slug.label_key) with years and language names in one form:
    "wmt 2016 english romanian" -> ["wmt", "16", "en", "ro"]."""
    tokens = _QUOTE_YEAR.sub(" ", key).split()
    out = []
    for token in tokens:
        year = _YEAR.match(token)
        name_year = _NAME_YEAR.match(token)
        if year:
            out.append(year.group(1))
        elif name_year:
            out.extend(name_year.groups())
        else:
            out.append(token)
    if sum(t in LANGUAGE_CODES or t in _CODES for t in out) >= 2:
        # a language pair: "english german" and "en de" are one
        out = [LANGUAGE_CODES.get(t, t) for t in out]
    return out


def network_stem(tokens: list[str]) -> list[str]:
    """"recurrent neural network" / "recurrent network" / "recurrent model" all stem to
    ["recurrent", ·net]; a name that is only a head word stays as it is."""
    for head in _NETWORK_HEADS:
        n = len(head)
        if len(tokens) > n and tuple(tokens[-n:]) == head and tokens[-n - 1] != "neural":
            return [*tokens[:-n], _NETWORK_MARK]
    return tokens


#: words that say what kind of thing a name is: "BERT model", "COCO dataset", "BLEU score"
_CLASS_WORDS = frozenset({
    "model", "network", "net", "architecture", "dataset", "corpus", "corpora", "benchmark",
    "database", "score", "metric", "measure", "performance", "task",
})
_NETWORK_CLASS = frozenset({"model", "network", "net", "architecture"})
#: the class words of datasets; also the ones that open a name, in apposition: "the benchmark
#: CIFAR-10", "dataset RVL-CDIP" ("Task 2", "model A" and "network dissection" are no such thing)
DATA_CLASS_WORDS = frozenset({"dataset", "corpus", "benchmark", "database"})
#: a word that is a name by its form: a capital after its first letter ("BERT", "ResNet") or a
#: digit ("T5", "CIFAR-10"); "Hidden Markov" and "Siamese" are not
_NAME_WORD = re.compile(r"^.+[A-Z]|\d")


def is_name_shaped(text: str) -> bool:
    """A name by its form: a word with a capital after its first letter, or a digit ("WMT
    2016", "ImageNet", "Llama 2"); "Hidden Markov" and "language modeling" are not."""
    return any(_NAME_WORD.search(word) for word in text.split())


def bare_name(name: str) -> str | None:
    """The name before a closing class word (or after an opening one: "benchmark CIFAR-10"),
    where those words are a name by their form:
    "BERT model", "BERT neural network" -> "BERT"; "COCO dataset", "CIFAR-10 data set" ->
    "COCO", "CIFAR-10"; "BLEU score" -> "BLEU". None when there is no such word or the rest
    is no name ("recurrent model", "Hidden Markov model", "Siamese network")."""
    words = name.split()
    if len(words) < 2:
        return None
    if singular(words[0].lower()) in DATA_CLASS_WORDS:
        after = " ".join(words[1:])
        return after if is_name_shaped(after) and sum(c.isalpha() for c in after) >= 2 else None
    last = singular(words[-1].lower())
    if len(words) >= 3 and words[-2].lower() == "data" and last == "set":
        cut = len(words) - 2
    elif last in _CLASS_WORDS:
        cut = len(words) - 1
        if last in _NETWORK_CLASS and cut >= 2 and words[cut - 1].lower() == "neural":
            cut -= 1
    else:
        return None
    rest = words[:cut]
    if not rest or not is_name_shaped(" ".join(rest)):
        return None
    return " ".join(rest)


def is_qualifier(token: str) -> bool:
    """A word that narrows a dataset name to an edition: a year, a language, a version."""
    return bool(_VERSION.match(token)) or token in LANGUAGE_CODES or token in _CODES
