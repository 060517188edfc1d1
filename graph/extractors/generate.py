"""Every candidate span of an abstract with its evidence, untyped: lexicon hits, acronym
definitions and later uses, trimmed noun chunks, coined names, editions ("ICDAR 2015", "GPT-4
Turbo") and names listed under a word for their kind."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from graph.extractors import acronyms, classify, lexicon, lists
from graph.extractors.phrases import (
    NAMING_VERBS,
    conjuncts,
    count_words,
    glued_names,
    is_pair,
    trim_tokens,
    whole_chunks,
)
from graph.extractors.spans import Draft
from graph.extractors.tokens import Tokens, table
from graph.name_forms import ADJECTIVE_ENDS, HYPHENS

# Longer phrases are more often descriptions than names (in words: a hyphenated word is one).
MAX_PHRASE_TOKENS = 7

# Lexicon forms that are ordinary words as well: weaker evidence.
_GENERIC_LEXICON_STRENGTH = 0.55
_LEXICON_STRENGTH = 0.92
# a name listed under a word for its kind ("benchmarks including A, B and C"), and one listed
# beside known names of one kind
_LISTED_STRENGTH = 0.8
_PEER_STRENGTH = 0.7


_VARIANT_STOP_POS = frozenset({"PRON", "NUM", "CCONJ"})  # "average or max pooling": two names
_COMPARATIVE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})


def _names_a_variant(d: Draft, known: list[tuple[int, int]]) -> bool:
    """"Deep Gaussian Mixture Model", "Gumbel Tree-LSTM": modifiers in front of a known name,
    none of them a kind noun ("text classifier fastText" is a description and its name)."""
    t = d.tokens
    for hit_start, hit_end in known:
        if hit_end == d.end and d.start < hit_start:
            heads = classify.HEADS
            return not any(
                t.pos[k] in _VARIANT_STOP_POS
                or t.tag[k] in _COMPARATIVE_TAGS  # "stronger data augmentation"
                or t.lemma[k] in NAMING_VERBS  # "called Augmented Autoencoder"
                or (t.is_lower[k] and (t.pos[k] == "NOUN" or t.lemma[k] in heads))
                for k in range(d.start, hit_start)
            )
    return False


_CORPUS_WORDS = frozenset({"corpus", "treebank"})
#: Words that say how many or how lifelike, never which: "multiple tasks", "real-world
#: scenarios" (kept out of EVALUATIVE, which trims them off every phrase, because they begin
#: real names: "multiple instance learning", "real-world super-resolution")
_VAGUE = frozenset(
    "multiple numerous diverse real world realworld realistic practical target "
    "downstream relevant related associated".split()
)
_PHRASE_SOURCES = frozenset({"chunk", "name"})
#: sources that find names rather than phrases
_NAME_SOURCES = frozenset({"lexicon", "lexicon-variant", "acronym", "name"})
#: Words that name a model's tier or release after its family name, as the makers write them
_TIER_WORDS = frozenset(
    "Turbo Pro Ultra Nano Flash Mini Max Plus Lite Zero Large Base Small Medium Tiny Huge XL "
    "XXL Instruct Chat Opus Sonnet Haiku".split()
)
#: "3", "v2", "1.5", "3.5a"; a parameter count: "70B", "8x7B"
_VERSION = re.compile(r"^(?:v?\d+(?:\.\d+)*[a-z]?|(?:\d+x)?\d+(?:\.\d+)?[BMKT])$")
_MAX_TIER_WORDS = 3
_YEAR = re.compile(r"^(?:19|20)\d\d$")
#: The words that say what kind of entity the name before them is: "the Transformer
#: architecture", "the sentiment analysis task". The wording is kept as an alias of a known
#: name of that kind.
KIND_WORDS = {
    "method": frozenset("approach method technique framework algorithm architecture network "
                        "model scheme strategy module procedure".split()),
    "model": frozenset("model checkpoint architecture network".split()),
    "task": frozenset("task problem challenge".split()),
    "dataset": frozenset("dataset benchmark corpus treebank database data".split()),
    "metric": frozenset("metric measure score".split()),
}


def kind_word_after(t: Tokens, end: int, etype: str | None) -> bool:
    """Whether token `end` is a word for the kind `etype` ("architecture", "dataset"); the
    tagger reads "metric" after a name as an adjective as often as a noun, and the lemmatiser
    turns "data" into "datum"."""
    if end >= t.n or t.pos[end] not in ("NOUN", "PROPN", "ADJ"):
        return False
    words = KIND_WORDS.get(etype or "", ())
    return t.lemma_lower[end] in words or t.lower[end] in words


def _phrase_wordings(t: Tokens, d_list: list[Draft], phrases: list[tuple[int, int]]) -> None:
    """The one name inside a phrase headed by a word for a dataset keeps the phrase as the
    paper's wording of it: "the WIDER FACE validation dataset", "the BRATS test data" (a name
    typed as another kind drops it: decide.py's `_worded_as_another_kind`)."""
    words = KIND_WORDS["dataset"]
    headed = [(s, e) for s, e in phrases
              if t.lemma_lower[e - 1] in words or t.lower[e - 1] in words]
    if not headed:
        return
    names = [d for d in d_list if d.sources & _NAME_SOURCES]
    for s, e in headed:
        inside = [d for d in names if s <= d.start and d.end < e]
        # the outermost names only: "CNN/Daily Mail", not also its "CNN"
        inside = [d for d in inside if not any(o is not d and o.start <= d.start
                                               and d.end <= o.end for o in inside)]
        # "the CIFAR-10 and CIFAR-100 datasets" is the wording of neither: a wording shared
        # by two names would merge them
        if len(inside) == 1:
            wording = t.span_text(s, e)
            if wording not in inside[0].surface:
                inside[0].surface.append(wording)


def _is_edition_word(t: Tokens, k: int) -> bool:
    """Token k, after a space, names a model's tier or version ("Turbo", "1.5", "70B")."""
    if not t.ws[k - 1]:
        return False
    if t.text[k] in _TIER_WORDS:
        return True
    if not _VERSION.match(t.text[k]):
        return False
    # a number counting what follows is no version: "we train BERT 3 times"; but "Gemini 1.5
    # Pro" counts nothing
    head = t.head[k]
    return not (t.dep[k] == "nummod" and head > k and t.text[head] not in _TIER_WORDS)


def _redefined(hit: lexicon.LexiconHit, defined: dict[str, str]) -> bool:
    """True for a lexicon hit on a short form that the abstract defines as another name:
    after "Expectation Maximization (EM)", "EM" is no "exact match", and after "Affinity
    Propagation (AP)", "AP" no "average precision"."""
    long = defined.get(hit.span.text)
    return long is not None and not lexicon.is_entry_of(hit.name, long, hit.type)


def drafts_of(doc: Doc) -> tuple[list[Draft], dict[str, Draft]]:
    """Every candidate span with its evidence, untyped; and defined short form -> long form."""
    drafts: dict[tuple[int, int], Draft] = {}
    t = table(doc)

    def draft(start: int, end: int) -> Draft:
        key = (start, end)
        d = drafts.get(key)
        if d is None:
            d = drafts[key] = Draft(doc, t, start, end)
        return d

    # 1. lexicon hits; a hit inside a longer hit of the same type is dropped, and so is a
    # short form that the abstract defines as another name
    pairs = acronyms.find_pairs(doc)
    defined = {t.span_text(p.short.start, p.short.end): t.span_text(p.long.start, p.long.end)
               for p in pairs}
    hits = sorted((h for h in lexicon.find(doc) if not _redefined(h, defined)),
                  key=lambda h: (-(h.span.end - h.span.start), h.span.start))
    covered: dict[str, set[int]] = {}
    # ... and one inside a longer known name of another type: the "CNN" of "CNN and Daily Mail"
    known_tokens: set[int] = set()
    inner: list[lexicon.LexiconHit] = []
    for hit in hits:
        toks = set(range(hit.span.start, hit.span.end))
        if toks & covered.setdefault(hit.type, set()):
            continue
        if toks < known_tokens:
            inner.append(hit)
            continue
        covered[hit.type] |= toks
        known_tokens |= toks
        d = draft(hit.span.start, hit.span.end)
        d.sources.add("lexicon")
        text = d.text
        generic = len(hit.span) == 1 and text.islower() and not any(c.isdigit() for c in text)
        d.add({hit.type: _GENERIC_LEXICON_STRENGTH if generic else _LEXICON_STRENGTH})
        d.lexicon_type = d.lexicon_type or hit.type
        if hit.name != text:
            d.label = hit.name

    hits = [hit for hit in hits if hit not in inner]

    # "the Transformer architecture", "the sentiment analysis task": a known name with the
    # word for its kind after it keeps that wording as an alias (read off the words, not the
    # noun chunks, which the parser often breaks inside such names)
    for (start, end), d in drafts.items():
        if kind_word_after(t, end, d.lexicon_type):
            d.surface.append(t.span_text(start, end + 1))

    # 2. acronym definitions and later uses of the acronym
    short_forms: dict[str, Draft] = {}
    for pair in pairs:
        d = draft(pair.long.start, pair.long.end)
        d.sources.add("acronym")
        short_text = t.span_text(pair.short.start, pair.short.end)
        if short_text not in d.aliases:
            d.aliases.append(short_text)
        d.add(classify.head_evidence_at(t, pair.long.start, pair.long.end))
        short_forms.setdefault(short_text, d)
        if short_text.endswith("s"):
            short_forms.setdefault(short_text[:-1], d)
        short = draft(pair.short.start, pair.short.end)
        short.sources.add("acronym-use")
        d.partner = short
    if short_forms:
        for i, word in enumerate(t.text):
            long = short_forms.get(word)
            if long is None and word.endswith("s"):
                long = short_forms.get(word[:-1])
            if long is not None and not (long.start <= i < long.end):
                use = draft(i, i + 1)
                use.sources.add("acronym-use")

    # 3. noun chunks, trimmed; "X dataset" / "X model" name X
    generic_words = classify.GENERIC
    name_shaped = classify.is_name_shaped
    phrases: list[tuple[int, int]] = []
    for chunk_start, chunk_end in whole_chunks(t, doc):
        # "a benchmark, CodeTrace,": an apposition the parser read as one phrase; the name is
        # what follows the comma
        # (not "a compact, fixed-size representation": adjectives in a row)
        commas = [k for k in range(chunk_start + 1, chunk_end - 1)
                  if t.text[k] == "," and t.pos[k - 1] == "NOUN"
                  and (t.pos[k + 1] == "PROPN" or name_shaped(t.text[k + 1]))]
        if commas:
            chunk_start = commas[-1] + 1
        start, end = trim_tokens(t, chunk_start, chunk_end)
        if start >= end or count_words(t, start, end) > MAX_PHRASE_TOKENS:
            continue
        phrases.append((start, end))
        if (t.lower[end - 1] in generic_words or t.lemma_lower[end - 1] in generic_words) and all(
            t.lower[k] in _VAGUE or t.text[k] == "-" for k in range(start, end - 1)
        ):
            # "tasks", "multiple tasks", "real-world scenarios": a kind of thing, not a name
            continue
        if t.pos[t.root(start, end)] == "PRON" or all(t.is_stop[start:end]):
            continue
        last = end - 1
        if (
            start < last
            and (t.lemma_lower[last] in generic_words or t.lemma_lower[last] in _CORPUS_WORDS)
            and name_shaped(t.span_text(start, last))
            and all(
                name_shaped(t.text[k]) or t.pos[k] == "PROPN" or t.is_punct[k]
                for k in range(start, last)
            )
        ):
            # "Deep Gaussian Mixture Model", "Dual Path Network": a capitalised kind word is
            # part of the name; a lower-case one ("the Penn Treebank corpus") is not
            titled = t.is_title[last]
            name = draft(start, end if titled else last)
            name.sources.add("name")
            head = classify.head_evidence_at(t, start, end)
            if head:
                etype, strength = next(iter(head.items()))
                name.add({etype: max(strength, 0.6)})
            if not titled:
                full = t.span_text(start, end)
                if full not in name.surface:
                    name.surface.append(full)
                continue
        d = draft(start, end)
        d.sources.add("chunk")
        d.add(classify.head_evidence_at(t, start, end))
        # "Thompson sampling and Boltzmann exploration": each conjunct may be a name too
        for part_start, part_end in conjuncts(t, start, end):
            part = draft(part_start, part_end)
            part.sources.add("chunk")
            part.add(classify.head_evidence_at(t, part_start, part_end))

    # 4. coined names written without spaces; one that extends a lexicon name ("Llama-2-7B"
    # from "Llama-2") is of its type
    for start, end in glued_names(t):
        d = draft(start, end)
        d.sources.add("name")
        # "BERT-based", "CNN-like": a known name made an adjective, not a variant of it
        adjective = t.lower[end - 1] in ADJECTIVE_ENDS and t.text[end - 2] in HYPHENS
        for hit in () if adjective else hits:
            if start <= hit.span.start and hit.span.end <= end and len(hit.span) < end - start:
                d.add({hit.type: _LEXICON_STRENGTH})
                d.sources.add("lexicon-variant")
        # "English-to-German translation", "Sim-to-Real transfer": a pair of named ends is the
        # setting of the task that follows, not a name of its own
        if end < t.n and is_pair(t, start, end):
            head = classify.head_evidence_at(t, start, end + 1)
            if "task" in head:
                task = draft(start, end + 1)
                task.sources.add("name")
                task.add(head)
                if d.sources == {"name"}:
                    del drafts[(start, end)]

    # 5. a name and the year of its edition: "ICDAR 2015", "PASCAL VOC 2012", "WMT 2014"
    for (start, end), d in list(drafts.items()):
        if (
            end < t.n
            and _YEAR.match(t.text[end])
            and start <= t.head[end] < end
            and ("lexicon" in d.sources or name_shaped(d.text))
        ):
            edition = draft(start, end + 1)
            edition.sources |= d.sources - {"lexicon"}
            edition.sources.add("lexicon-variant" if "lexicon" in d.sources else "name")
            for etype, vals in d.evidence.items():
                edition.add({etype: max(vals)})
            edition.lexicon_type = d.lexicon_type

    # 6. a known model and the version or tier after it: "GPT-4 Turbo", "Gemini 1.5 Pro",
    # "Stable Diffusion XL", "AlphaGo Zero": one checkpoint, not a model and a stray word
    spans = [(h.span.start, h.span.end) for h in hits if h.span.end - h.span.start > 1]
    for hit in hits:
        if hit.type != "model":
            continue
        end = hit.span.end
        while end < t.n and end - hit.span.end < _MAX_TIER_WORDS and _is_edition_word(t, end):
            end += 1
        if end > hit.span.end:
            edition = draft(hit.span.start, end)
            edition.sources |= {"lexicon-variant", "name"}
            edition.add({"model": _LEXICON_STRENGTH})
            edition.lexicon_type = "model"
            spans.append((hit.span.start, end))

    # a phrase or name strictly inside a known name is a part of it: the "CNN" of "CNN and
    # Daily Mail news articles", which the parser reads as a noun phrase of its own
    d_list = [
        d for (start, end), d in sorted(drafts.items())
        if not (d.sources <= _PHRASE_SOURCES
                and any(s <= start and end <= e and e - s > end - start for s, e in spans))
    ]
    known = [(h.span.start, h.span.end) for h in hits]
    known += [(d.start, d.end) for d in d_list if "lexicon-variant" in d.sources]
    for d in d_list:
        if "chunk" in d.sources and _names_a_variant(d, known):
            d.sources.add("named-variant")
    # 7. names listed under a word for their kind, or beside known names of one kind
    known_types = {(h.span.start, h.span.end): h.type for h in hits}
    for named in lists.find(t, known_types):
        strength = _LISTED_STRENGTH if named.anchor == "kind" else _PEER_STRENGTH
        for start, end in named.items:
            listed = drafts.get((start, end))
            if listed is None:
                listed = draft(start, end)
                # a listed task is a phrase ("word ordering"), a listed dataset a name
                listed.sources.add("name" if is_coined(listed) else "chunk")
                d_list.append(listed)
            listed.add({named.type: strength})
        if named.kind_after is not None and named.items:
            # "the FLIC and MPII benchmarks": the last name's wording with its kind word
            d = drafts[named.items[-1]]
            wording = t.span_text(d.start, named.kind_after + 1)
            if wording not in d.surface:
                d.surface.append(wording)
    d_list.sort(key=lambda d: (d.start, d.end))
    _phrase_wordings(t, d_list, phrases)
    for d in d_list:
        d.add(classify.context_evidence_at(t, d.start, d.end))
        shape = classify.model_shape(d.text)
        if shape:
            d.add({"model": shape})
    return d_list, short_forms


def is_coined(d: Draft) -> bool:
    span = d.span
    if d.aliases or classify.is_name_shaped(d.text):
        return True
    return (len(span) == 1 and span[0].pos_ == "PROPN" and span[0].is_title
            and not span[0].is_sent_start)
