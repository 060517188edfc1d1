"""Extractor "mentions.v2": method, model, dataset, task and metric mentions from the learned
tagger (graph.tagger), with what the rules know added where they still help.

The tagger finds and types method, dataset and task spans; a span under its type's confidence
cutoff (graph.nlp.tagging_cutoffs, chosen on cross-validated train predictions) is dropped unless a
rule candidate has exactly its edges. The rule candidates
(graph.extractors.candidates) then give, for a span they also found, the preferred label and
acronym aliases, and for a span they overlap, the proposed-name flag and the model-vs-method
decision (the tagger has no model label). Rule candidates that no tagged span overlaps are kept
where they come from a lexicon (a name it lists, or a variant of one: "Llama-2-70B") or an
acronym definition, or are a name the abstract proposes.
A tagged name that one lexicon of data/lexicons/ lists ("Llama 2", "BM25"), or that the rules
read as a variant of one ("Llama-2-13B-chat"), takes that lexicon's type (a span that stops
inside such a name, where the name starts, grows to it: "wav2vec" of "wav2vec 2.0"), and one
whose last word names a body of data ("the VQA dataset") is a dataset; a tagged dataset takes
in a class word that follows it ("the Caltech benchmark"), loses the modifiers before its name
("large-scale"), and one written with its class word is also its bare name, which names its
node ("Cityscapes dataset" is "Cityscapes"); so is a task ("machine translation tasks" is
"machine translation"). Last, the mentions of one name take one type
(graph.extractors.name_types).
Which types come from the rules alone is the cutoffs record's `rule_types`: the procedure that
chooses the cutoffs on out-of-fold train predictions also chooses, for metrics, between the
rules and the tagger at its best cutoff (docs/extraction.md).
"""

from __future__ import annotations

import re
from dataclasses import replace

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from graph import generic
from graph.extractors import acronyms, lexicon, name_types
from graph.extractors import candidates as rules
from graph.model import Mention
from graph.name_forms import ends_as_adjective, is_name_shaped
from graph.nlp import tagging
from graph.nlp import tagging_cutoffs as cutoff_file

NAME = "mentions.v2"
#: rule candidates kept beside the tagger's spans: found by these generators only
UNION_SOURCES = frozenset({"lexicon", "lexicon-variant", "acronym", "acronym-use"})
#: rule sources whose type is a lexicon's: it decides the type of the name's other mentions
LEXICON_SOURCES = frozenset({"lexicon", "lexicon-variant"})
CACHE_KEY = "paperkg.tagger_spans.v1"
#: types of which every rule candidate that no tagged span overlaps is kept, whatever its source
UNION_TYPES: frozenset[str] = frozenset()


def tagged(doc: Doc) -> list[tagging.Span]:
    """The tagger's spans over the doc's text, computed once per Doc."""
    cached = doc.user_data.get(CACHE_KEY)
    if cached is None:
        cached = tagging.shared().tag(doc.text)
        doc.user_data[CACHE_KEY] = cached
    return cached


def function_words(text: str) -> bool:
    """True for a span of English function words alone ("of", "the other"): no name."""
    words = text.lower().split()
    return bool(words) and all(w in STOP_WORDS for w in words)


def _overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def _lexicon_type(name: str, defined: str | None = None) -> str | None:
    """The one type whose lexicon lists `name` ("Llama 2" a model, "BM25" a method), else None:
    a curated entry knows the kind of a name better than the tagger's guess from context. Only
    for a name by its form (a capital after the first letter, or a digit) or one capitalised
    word ("Propbank", "Freebase"): a common phrase ("language modeling") is a task or a method
    as the sentence uses it. A short form the abstract `defined` as a long form counts only
    where the lexicon's name for it is that long form: after "Expectation Maximization (EM)",
    "EM" is no metric "exact match"."""
    if not (is_name_shaped(name) or (" " not in name and name[:1].isupper())):
        return None
    kinds = [etype for etype in lexicon.FILES
             if (entry := lexicon.lookup(name, etype)) is not None
             and (defined is None or lexicon.is_entry_of(entry, defined, etype))]
    return kinds[0] if len(kinds) == 1 else None


def _variant_type(rule: rules.Candidate | None) -> str | None:
    """The type of a lexicon name that the rules found this name to be a variant of, on the
    same characters ("Llama-2-13B-chat" of the model Llama 2, "COCO-Stuff" of the dataset COCO),
    else None: the tagger, seeing a new checkpoint next to "on", may call it a dataset."""
    return rule.type if rule is not None and "lexicon-variant" in rule.sources else None


#: head words that say a name is a dataset whatever the sentence around it
_DATASET_HEADS = frozenset({"dataset", "corpus", "corpora", "treebank"})


def _head_type(name: str) -> str | None:
    """"dataset" for a name whose last word names a body of data ("the VQA dataset", "Named
    Entity corpora", "Penn Treebank"), else None: the tagger types some of them by the task
    the sentence speaks of."""
    words = name.lower().split()
    if len(words) >= 2 and words[-2:] in (["data", "set"], ["data", "sets"]):
        return "dataset"
    return "dataset" if words and words[-1] in _DATASET_HEADS else None


#: the words after a name that say what kind of thing it is: "Cityscapes dataset"
CLASS_WORDS = {
    "dataset": frozenset({"dataset", "datasets", "benchmark", "benchmarks", "corpus", "corpora",
                          "database"}),
    "method": frozenset({"method", "methods", "approach", "approaches", "framework", "model",
                         "models", "network", "networks", "architecture", "module",
                         "algorithm", "scheme", "unit"}),
}


#: the words after a task's name that say it is one: "machine translation tasks"
TASK_CLASS_WORDS = frozenset({"task", "tasks", "problem", "problems"})


def task_without_class_word(name: str) -> tuple[str, ...]:
    """(the name before its class word,) for a task written "machine translation tasks" or
    "face detection problem", so that it links with the task written without it; () when no
    class word ends it, or when the words before it are function words or generic
    ("classification tasks" stays whole: "classification" alone is no node), or end in a
    word that only modifies ("domain-specific tasks", "auxiliary tasks"), or are the methods
    lexicon's name and not the tasks lexicon's ("supervised learning tasks" are tasks solved
    by a method: no task "supervised learning")."""
    words = name.split()
    if len(words) < 2 or words[-1].lower() not in TASK_CLASS_WORDS:
        return ()
    rest = " ".join(words[:-1])
    if (function_words(rest) or generic.is_generic(rest, "task")
            or generic.is_modifier_word(words[-2]) or ends_as_adjective(rest)
            or (lexicon.lookup(rest, "method") is not None
                and lexicon.lookup(rest, "task") is None)):
        return ()
    return (rest,)


def without_class_word(name: str, etype: str = "dataset") -> tuple[str, ...]:
    """(the name before its class word,) for a name written "Cityscapes dataset", "Caltech
    benchmark", "Bi-Directional Attention Flow network", where every word before the class
    word of its type is capitalised and none is a function word ("Our dataset", "The model"
    name nothing), and the class word is not ("Gated Flow Networks" and "Large Movie Review
    Dataset" are whole names); else ()."""
    words = name.split()
    if len(words) < 2 or words[-1] not in CLASS_WORDS.get(etype, ()):
        return ()
    rest = words[:-1]
    if not all(w[:1].isupper() and w.lower() not in STOP_WORDS for w in rest):
        return ()
    if etype == "method" and len(rest) == 1 and (generic.is_modifier_word(rest[0])
                                                 or ends_as_adjective(rest[0])
                                                 or _common_word(rest[0])):
        return ()
    return (" ".join(rest),)


def _common_word(word: str) -> bool:
    """A capitalised word that is a generic word in lower case ("Language" of "Language models"
    at a sentence's start) and no name a methods or models lexicon lists ("Transformer")."""
    return (not is_name_shaped(word) and generic.is_generic(word.lower(), "method")
            and not any(lexicon.lookup(word, t) for t in ("method", "model")))


#: a whole word ("benchmark-based" modifies what follows it: no class word of a name)
_NEXT_WORD = re.compile(r"\w+(?![\w-])")


def _with_class_word(text: str, span: tagging.Span) -> tagging.Span:
    """A tagged dataset that a class word of datasets follows takes it in ("the Atari 2600
    benchmarks", "the Caltech benchmark"): papers and gold name it either way, and the bare
    name stays an alias (`without_class_word`); where the rules found the whole, its edges
    are theirs, which can keep a span under its cutoff."""
    if span.type != "dataset" or not text.startswith(" ", span.end):
        return span
    word = _NEXT_WORD.match(text, span.end + 1)
    if word is None or word.group() not in CLASS_WORDS["dataset"]:
        return span
    return replace(span, end=word.end())


def _without_leading_modifiers(text: str, start: int, end: int) -> int:
    """The start of a dataset name without the lower-case modifiers before it ("large-scale",
    "image-based", "public": words that the unlabelled abstracts almost never end a noun phrase
    with, `graph.generic.is_modifier_word`), where what follows is a name by its form:
    "the large-scale 1B Word dataset", "image-based Market1501"."""
    while True:
        word, sep, rest = text[start:end].partition(" ")
        if not sep or not word[:1].islower() or not is_name_shaped(rest) \
                or not generic.is_modifier_word(word):
            return start
        start += len(word) + 1


_KNOWN_SOURCES = frozenset({"lexicon", "lexicon-variant"})


def _to_known_names(text: str, spans: list[tagging.Span],
                    cands: tuple[rules.Candidate, ...]) -> list[tagging.Span]:
    """`spans`, each that stops inside a lexicon name or a variant of one that starts where it
    does, grown to that name ("wav2vec" of "wav2vec 2.0", "ViT-B" of "ViT-B/16", "Pascal VOC"
    of "Pascal VOC 2012"): the model often leaves a version or edition out. Names by their
    form only; a span grown onto another's edges is dropped."""
    known = [c for c in cands if _KNOWN_SOURCES & set(c.sources)
             and is_name_shaped(text[c.start:c.end])]
    out: list[tagging.Span] = []
    seen: set[tuple[int, int]] = set()
    for s in spans:
        longer = [c for c in known if c.start == s.start and s.end < c.end]
        if longer:
            s = replace(s, end=max(c.end for c in longer))
        if (s.start, s.end) not in seen:
            seen.add((s.start, s.end))
            out.append(s)
    return out


def bracket_forms(name: str) -> tuple[str | None, tuple[str, ...]]:
    """(label, aliases) of a tagged name that defines an acronym in brackets inside itself:
    "reinforcement learning (RL)" is "reinforcement learning", also "RL"; "recurrent neural
    network (RNN) language model" is "recurrent neural network language model", also "RNN
    language model". (None, ()) when the bracket holds no acronym of the words before it, so
    that the name links with the same name written without it."""
    open_i = name.find(" (")
    close_i = name.find(")", open_i + 2)
    if open_i <= 0 or close_i < 0 or "(" in name[open_i + 2:close_i]:
        return None, ()
    long, short, tail = name[:open_i], name[open_i + 2:close_i], name[close_i + 1:].strip()
    if not acronyms.looks_like_short_form(short) or acronyms.best_long_form(short, long) is None:
        return None, ()
    if not tail:
        return long, (short,)
    if not tail[0].isalnum():
        return None, ()
    return f"{long} {tail}", (f"{short} {tail}",)


def combine(
    text: str,
    spans: list[tagging.Span],
    cands: tuple[rules.Candidate, ...],
    *,
    union: bool = True,
    rule_types: frozenset[str] | None = None,
    union_types: frozenset[str] = UNION_TYPES,
    cutoffs: cutoff_file.Cutoffs | None = None,
) -> list[Mention]:
    """Mentions from tagged spans and rule candidates (see the module's docstring); the types
    in `rule_types` come from the rules alone. Tagged spans under their type's confidence cutoff
    are dropped (`cutoffs`, by default data/models/tagger.thresholds.json, whose `rule_types`
    apply when `rule_types` is None)."""
    cutoffs = cutoff_file.shipped() if cutoffs is None else cutoffs
    rule_types = frozenset(cutoffs.rule_types) if rule_types is None else rule_types
    by_span = {(c.start, c.end): c for c in cands}
    ruled = [(c.start, c.end, c.type) for c in cands]
    out: list[Mention] = []
    #: indices in `out` of the mentions whose type a lexicon or the name's head word gives
    firm: set[int] = set()
    spans = [_with_class_word(text, s) for s in spans]
    spans = [s for s in spans if s.type not in rule_types and cutoffs.keeps(s, ruled)
             and not function_words(text[s.start : s.end])
             and not ends_as_adjective(text[s.start : s.end])]
    spans = [s if s.type != "dataset" else
             replace(s, start=_without_leading_modifiers(text, s.start, s.end)) for s in spans]
    spans = _to_known_names(text, spans, cands)
    for s in spans:
        rule = by_span.get((s.start, s.end))
        name = text[s.start : s.end]
        label, aliases = (rule.label, rule.aliases) if rule else bracket_forms(name)
        near = [c for c in cands if _overlaps(s.start, s.end, c.start, c.end)]
        # a short form the abstract defines is judged by its long form (`_lexicon_type`)
        defined = rule.label if rule and "acronym-use" in rule.sources else None
        ruled_type = (_lexicon_type(name, defined) or _variant_type(rule)
                      or _head_type(name))
        etype = ruled_type or s.type
        # the forms a bracket gives are read too: "Bi-Directional Attention Flow (BiDAF)
        # network" is also "Bi-Directional Attention Flow" and "BiDAF"
        bare = tuple(dict.fromkeys(b for form in (name, label, *aliases) if form
                                   for b in without_class_word(form, etype)))
        aliases = (*aliases, *bare)
        if etype == "task":
            bare = tuple(dict.fromkeys(b for form in (name, label) if form
                                       for b in task_without_class_word(form)))
            aliases = (*aliases, *bare)
        if bare and etype in ("dataset", "task") and label is None:
            # the node is named as other papers name it: "Cora", not "Cora datasets";
            # "machine translation", not "machine translation tasks"
            label = bare[0]
        if etype == "method" and any(c.type == "model" for c in near):
            etype = "model"
        if ruled_type:
            firm.add(len(out))
        out.append(
            Mention(
                type=etype,
                text=name,
                start=s.start,
                end=s.end,
                extractor=NAME,
                confidence=round(s.confidence, 4),
                label=label,
                aliases=aliases,
                # the rules see "we propose X" around a span they may have cut differently
                proposed=any(c.proposed for c in near),
            )
        )
    kept = [c for c in cands if c.type in rule_types]
    if union:
        kept += [c for c in cands if c.type not in rule_types
                 and _kept_alone(c, spans, union_types)]
    for c in kept:
        if set(c.sources) & LEXICON_SOURCES:
            firm.add(len(out))
        out.append(c.mention(NAME))
    return name_types.one_type_per_name(out, firm, CLASS_WORDS["method"])


def _kept_alone(c: rules.Candidate, spans: list[tagging.Span],
                union_types: frozenset[str]) -> bool:
    """A rule candidate that no tagged span overlaps is kept where it comes from a lexicon or an
    acronym, has a type of `union_types`, or is a name the abstract proposes."""
    if not (set(c.sources) & UNION_SOURCES or c.type in union_types or c.proposed):
        return False
    return not any(_overlaps(c.start, c.end, s.start, s.end) for s in spans)


def extract(doc: Doc) -> list[Mention]:
    return combine(doc.text, tagged(doc), rules.candidates(doc))


def extract_tagger_only(doc: Doc) -> list[Mention]:
    """The tagger's spans with the rules' labels and types, no rule-only mentions (measured
    against `extract` in docs/extraction.md)."""
    return combine(doc.text, tagged(doc), rules.candidates(doc), union=False)
