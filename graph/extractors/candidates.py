"""Entity candidates of one abstract, computed once and shared by the five entity extractors.

Candidates come from lexicon hits, acronym definitions (and later uses of the acronym),
trimmed noun chunks and coined names (ResNet-50, ViT-B/16, GPT-4o). Each gets one type from
the evidence classify.py finds, a confidence, the preferred label and aliases, and whether the
abstract presents it as its own contribution. methods.py, datasets.py ... pick their type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from spacy.tokens import Doc, Span, Token

from graph.extractors import acronyms, classify, lexicon
from graph.extractors import scorer as scorer_mod
from graph.extractors.scorer import NONE, Scorer
from graph.model import Mention

CACHE_KEY = "paperkg.entity_candidates.v1"
#: below this a candidate is not emitted at all
MIN_CONFIDENCE = 0.35
# Longer phrases are more often descriptions than names.
MAX_PHRASE_TOKENS = 7

# Lexicon forms that are ordinary words as well: weaker evidence.
_GENERIC_LEXICON_STRENGTH = 0.55
_LEXICON_STRENGTH = 0.92
_ACRONYM_STRENGTH = 0.25

_PROPOSE_VERBS = frozenset(
    "propose introduce present develop design devise build create construct formulate offer "
    "contribute release collect curate establish describe".split()
)
_NAMING_VERBS = frozenset("call name dub term coin denote".split())
_OWN_SUBJECTS = frozenset("we i paper work article study letter".split())
_NOVEL = frozenset("novel new".split())
_OWN_MARKERS = frozenset("our proposed".split())


@dataclass(frozen=True)
class Candidate:
    type: str
    start: int
    end: int
    text: str
    confidence: float
    label: str | None = None
    aliases: tuple[str, ...] = ()
    proposed: bool = False
    #: which generators found it: "lexicon", "acronym", "acronym-use", "chunk", "name"
    sources: tuple[str, ...] = ()
    #: the evidence per type that decided it, for the learned scorer
    evidence: tuple[tuple[str, float], ...] = ()

    def mention(self, extractor: str) -> Mention:
        return Mention(
            type=self.type,
            text=self.text,
            start=self.start,
            end=self.end,
            extractor=extractor,
            confidence=round(self.confidence, 4),
            label=self.label,
            aliases=self.aliases,
            proposed=self.proposed,
        )


@dataclass
class _Draft:
    span: Span
    evidence: dict[str, list[float]] = field(default_factory=dict)
    sources: set[str] = field(default_factory=set)
    label: str | None = None
    aliases: list[str] = field(default_factory=list)
    lexicon_type: str | None = None
    #: the short form written after a long form ("(GFN)"): the pair is typed together
    partner: _Draft | None = None

    def add(self, evidence: dict[str, float]) -> None:
        for etype, strength in evidence.items():
            self.evidence.setdefault(etype, []).append(strength)


def candidates(doc: Doc) -> tuple[Candidate, ...]:
    """The doc's candidates, every type, computed on first use and cached on the Doc."""
    cached = doc.user_data.get(CACHE_KEY)
    if cached is None:
        cached = compute(doc, scorer_mod.default())
        doc.user_data[CACHE_KEY] = cached
    return cached


def compute(doc: Doc, scorer: Scorer | None) -> tuple[Candidate, ...]:
    """The doc's candidates typed by `scorer`, or by the rules alone when it is None (no cache)."""
    return tuple(_generate(doc, scorer))


def mentions(doc: Doc, etype: str, extractor: str) -> list[Mention]:
    """The doc's mentions of one type, as the extractor named `extractor` reports them."""
    return [c.mention(extractor) for c in candidates(doc) if c.type == etype]


# --- generation -------------------------------------------------------------------------


def trim(span: Span) -> Span:
    """Drop determiners, pronouns, counts and evaluative words in front, punctuation at the end."""
    doc = span.doc
    start, end = span.start, span.end
    while start < end:
        tok = doc[start]
        if (
            tok.dep_ in {"det", "poss", "predet", "nummod"}
            or tok.pos_ in {"PRON", "DET", "PUNCT", "ADV", "CCONJ", "ADP", "PART"}
            or tok.lower_ in classify.EVALUATIVE
            or (tok.like_num and tok.pos_ == "NUM")
        ):
            start += 1
        else:
            break
    while end > start and (doc[end - 1].pos_ in {"PUNCT", "PART"} or doc[end - 1].text in {"-", "'s"}):
        end -= 1
    return doc[start:end]


_GLUE = {"-", "/", "."}


def _glued_names(doc: Doc) -> list[Span]:
    """Runs of tokens written without spaces that make one coined name: "ViT-B/16", "Llama-2-7B"."""
    spans: list[Span] = []
    i = 0
    while i < len(doc):
        j = i + 1
        while (
            j < len(doc)
            and doc[j - 1].whitespace_ == ""
            and not doc[j].is_sent_start
            and (doc[j].is_alpha or doc[j].like_num or doc[j].text in _GLUE or any(c.isdigit() for c in doc[j].text))
            and (doc[j - 1].is_alpha or doc[j - 1].like_num or doc[j - 1].text in _GLUE or any(c.isdigit() for c in doc[j - 1].text))
            and doc[j].lower_ not in {"'s", "n't", "s"}
        ):
            j += 1
        while j > i + 1 and doc[j - 1].text in {"-", "/", "."}:
            j -= 1
        span = doc[i:j]
        if classify.is_name_shaped(span.text) and not all(t.is_punct for t in span):
            spans.append(span)
        i = j
    return spans


def _in_contribution_context(span: Span) -> bool:
    """The context cue the learned scorer was trained with: the span sits where an abstract
    presents its contribution ("our X", "we propose X", "X, a novel ..."), name or not."""
    doc = span.doc
    # "our X", "the proposed X", "X, a novel ..."
    for k in range(max(span.sent.start, span.start - 3), span.start):
        if doc[k].lower_ in _OWN_MARKERS and all(not t.is_punct for t in doc[k : span.start]):
            return True
    tok = span.root
    for child in tok.children:
        if child.dep_ == "appos" and any(t.lower_ in _NOVEL for t in child.subtree):
            return True
    # climb "X and Y", "X (ACR)", "a framework, X" to the word the verb governs
    seen = 0
    while tok.dep_ in {"conj", "appos", "compound", "amod", "nmod"} and tok.head is not tok and seen < 4:
        tok = tok.head
        seen += 1
        if tok.dep_ != "appos" and any(c.dep_ == "appos" and c.i >= span.start and c.i < span.end for c in tok.children):
            if any(t.lower_ in _NOVEL for t in doc[tok.left_edge.i : span.start]):
                return True
    head = tok.head
    if tok.dep_ in {"oprd", "xcomp", "dobj", "attr"} and head.lemma_.lower() in _NAMING_VERBS:
        return True
    if tok.dep_ in {"dobj", "nsubjpass", "attr"} and head.lemma_.lower() in _PROPOSE_VERBS:
        subjects = [c for c in head.children if c.dep_ in {"nsubj", "nsubjpass"}]
        if tok.dep_ == "nsubjpass":
            return True
        if not subjects:
            return True
        return any(s.lower_ in _OWN_SUBJECTS or any(t.lower_ in {"paper", "work"} for t in s.subtree) for s in subjects)
    return False


# --- proposed names ------------------------------------------------------------------------
#
# `proposed` (pkg:proposes) marks a *name* the abstract gives its own contribution. Being in a
# contribution sentence is not enough: "we propose a deep architecture", "we train a CNN" and
# "outperforms LSTM" are descriptions, tools and baselines, not names the paper introduces.

# verbs whose subject, when it is a coined name, reports the paper's own results
_RESULT_VERBS = frozenset(
    "achieve outperform reach surpass obtain attain beat exceed set improve yield learn "
    "disentangle discover generate produce converge match deliver establish rank".split()
)
# "outperforms X", "better than X", "improvement over X": X is a baseline
_BASELINE_PREPS = frozenset("over than against versus vs".split())
_BASELINE_VERBS = frozenset("outperform beat surpass exceed compare".split())
_BACKGROUND_ADVERBS = frozenset("recently previously originally traditionally".split())
# adjectival compounds ("ResNet-like", "EM-based") describe; they do not name
_ADJECTIVE_TAILS = ("-like", "-based", "-style", "-inspired", "-driven", "-aware", "-free", "-specific")
# a citation key left in converted text: "bellemare2017distributional"
_CITATION = re.compile(r"^[a-z]+\d{4}[a-z]*$")
_NAMING_LEADS = (
    "refer to as", "referred to as", "refer to it as", "called", "named", "dubbed", "termed",
    "coined", "we call", "we name", "we term", "we dub",
)
# "our VQA demo", "our code": artefacts of the work, not what it proposes
_ARTEFACTS = frozenset("demo code website webpage page repository implementation toolkit".split())
# "a super-resolution method (SR)": a defined acronym on a description is not a coined name
_KIND_HEADS = frozenset("method approach technique model system algorithm framework scheme strategy".split())
_ADJECTIVE_COMPOUND = re.compile(r"\S+-(?:like|based|style|inspired|driven|aware|free|specific)\b")
_QUOTES = frozenset("\"'“”‘’")


def _own_subject(verb: Token) -> bool:
    subjects = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if not subjects:
        # "X is proposed", "to introduce X": the abstract's own voice
        return True
    return any(
        s.lower_ in _OWN_SUBJECTS or any(t.lower_ in {"paper", "work"} for t in s.subtree) for s in subjects
    )


def _naming_cue(span: Span) -> bool:
    """The abstract gives the span as a name: "called X", "we refer to as X", "the task of X",
    "a new framework, X" under an own proposal verb, or a quoted term it introduces."""
    tok = span.root
    head = tok.head
    if tok.dep_ in {"oprd", "xcomp", "dobj", "attr", "appos", "npadvmod"} and head.lemma_.lower() in _NAMING_VERBS:
        return True
    if tok.dep_ == "pobj" and head.lower_ == "as" and head.head.lemma_.lower() in {"refer", "term", "name", "call", "denote"}:
        return True
    if (
        tok.dep_ == "pobj"
        and head.lower_ == "of"
        and head.head.lemma_.lower() in {"task", "problem"}
        and head.head.head.lemma_.lower() in _PROPOSE_VERBS
    ):
        return True
    doc = span.doc
    lead = doc[max(span.sent.start, span.start - 3) : span.start].text.lower()
    if lead.endswith(_NAMING_LEADS):
        return True
    before = doc[span.start - 1].text if span.start > 0 else ""
    after = doc[span.end].text if span.end < len(doc) else ""
    if before in _QUOTES and (after in _QUOTES or (span.end + 1 < len(doc) and doc[span.end + 1].text in _QUOTES)):
        verbs = [t for t in span.sent if t.pos_ == "VERB" and t.lemma_.lower() in _PROPOSE_VERBS]
        return any(_own_subject(v) for v in verbs)
    return False


def _own_cue(span: Span, *, climb: bool = True) -> bool:
    """The span is the paper's own: "our X", "the proposed X", "our method, X", the object of
    "we propose/introduce", or "X, a novel ..."."""
    doc = span.doc
    tok = span.root
    # "our X", "the proposed X": the marker belongs to the span's own phrase
    if any(doc[k].lower_ in _OWN_MARKERS for k in range(tok.left_edge.i, span.start)):
        return True
    if any(c.dep_ == "appos" and any(t.lower_ in _NOVEL for t in c.subtree) for c in tok.children):
        return True
    # climb "X and Y", "X (ACR)", "a framework, X", "X network" to the word the verb governs
    seen = 0
    while climb and tok.dep_ in {"conj", "appos", "compound", "amod", "nmod"} and tok.head is not tok and seen < 4:
        tok = tok.head
        seen += 1
        if any(doc[k].lower_ in _OWN_MARKERS for k in range(tok.left_edge.i, min(tok.i, span.start))):
            return True  # "our method, X", "our fast text classifier X"
        if any(t.lower_ in _NOVEL for t in doc[tok.left_edge.i : span.start]):
            return True  # "a novel generative model named X", "a novel X architecture"
    head = tok.head
    if tok.dep_ in {"dobj", "nsubjpass", "attr"} and head.lemma_.lower() in _PROPOSE_VERBS:
        return tok.dep_ == "nsubjpass" or _own_subject(head)
    return False


def _result_subject(span: Span) -> bool:
    """A coined name reporting results: "LeakGAN is highly effective", "AlphaZero achieved"."""
    tok = span.root
    if tok.dep_ not in {"nsubj", "nsubjpass"}:
        return False
    verb = tok.head
    if any(c.lower_ in _BACKGROUND_ADVERBS for c in verb.children):
        return False
    if verb.lemma_.lower() in _RESULT_VERBS:
        return True
    # "X is (highly) effective / able to / competitive"
    return verb.lemma_ == "be" and any(
        c.dep_ == "acomp" and c.lemma_.lower() in {"effective", "able", "competitive", "superior", "capable", "better"}
        for c in verb.children
    )


def _baseline_or_number(span: Span) -> bool:
    doc = span.doc
    tok = span.root
    if tok.dep_ == "pobj" and tok.head.lower_ in _BASELINE_PREPS:
        return True
    if tok.dep_ == "dobj" and tok.head.lemma_.lower() in _BASELINE_VERBS:
        return True
    if span.start > 0 and doc[span.start - 1].lower_ in _BASELINE_PREPS:
        return True
    return span[0].like_num or span[0].pos_ == "NUM"


def _is_name(d: _Draft) -> bool:
    """A coined name rather than a description: name-shaped, or defined with an acronym."""
    text = _ADJECTIVE_COMPOUND.sub("", d.span.text).strip()
    if classify.is_name_shaped(text):
        return True
    if d.aliases:
        return not (len(d.span.text.split()) <= 2 and d.span[-1].lemma_.lower() in _KIND_HEADS)
    return any(t.pos_ == "PROPN" and t.is_title and not t.is_sent_start for t in d.span)


def is_proposed(d: _Draft) -> bool:
    """Whether the candidate is a name the abstract introduces as the paper's own."""
    span = d.span
    text = span.text
    if not len(span) or _baseline_or_number(span) or _CITATION.match(text) is not None:
        return False
    if text.lower().endswith(_ADJECTIVE_TAILS):
        return False
    if len(span) == 1 and span[0].lemma_.lower() in classify.GENERIC:
        return False
    if span[-1].lemma_.lower() in _ARTEFACTS:
        return False
    if _naming_cue(span):
        return True
    # a well-known name is the paper's own only when the sentence says so of the name itself
    # ("our classifier fastText"), not when it is a part the paper uses ("stochastic gradient
    # descent", "a GAN-based model")
    if "lexicon" in d.sources or "lexicon-variant" in d.sources:
        return classify.is_name_shaped(d.label or text) and _own_cue(span, climb=False)
    if _own_cue(span):
        if _is_name(d):
            return True
        # "we introduce multi-view consistency, a benchmark ...": a bare (no article, not
        # plural) lowercase phrase with a describing appositive names the contribution
        root = span.root
        bare = not any(c.dep_ in {"det", "nummod", "poss"} for c in root.children) and root.tag_ not in {"NNS", "NNPS"}
        described = any(c.dep_ == "appos" for c in root.children)
        return bare and described and len(span) > 1
    if d.aliases and _is_name(d) and _own_sentence(span):
        # "we propose a method (SR) using a deeply-recursive network (DRCN)"
        return True
    return classify.is_name_shaped(text) and not text.isupper() and _result_subject(span)


def _own_sentence(span: Span) -> bool:
    verbs = [t for t in span.sent if t.pos_ == "VERB" and t.lemma_.lower() in _PROPOSE_VERBS]
    return any(_own_subject(v) and any(c.lower_ in _OWN_SUBJECTS for c in v.children) for v in verbs)


def _combine(strengths: list[float]) -> float:
    """Noisy-or of independent pieces of evidence."""
    miss = 1.0
    for s in strengths:
        miss *= 1.0 - s
    return 1.0 - miss


def _names_a_variant(span: Span, known: list[Span]) -> bool:
    """"Deep Gaussian Mixture Model", "Gumbel Tree-LSTM": modifiers in front of a known name,
    none of them a kind noun ("text classifier fastText" is a description and its name)."""
    for hit in known:
        if hit.end == span.end and span.start < hit.start:
            prefix = span.doc[span.start : hit.start]
            return not any(
                t.pos_ in {"PRON", "NUM"} or (t.is_lower and (t.pos_ == "NOUN" or t.lemma_ in classify.HEADS))
                for t in prefix
            )
    return False


def drafts_of(doc: Doc) -> tuple[list[_Draft], dict[str, _Draft]]:
    """Every candidate span with its evidence, untyped; and defined short form -> long form."""
    drafts: dict[tuple[int, int], _Draft] = {}

    def draft(span: Span) -> _Draft:
        key = (span.start, span.end)
        if key not in drafts:
            drafts[key] = _Draft(span)
        return drafts[key]

    # 1. lexicon hits; a hit inside a longer hit of the same type is dropped
    hits = sorted(lexicon.find(doc), key=lambda h: (-(h.span.end - h.span.start), h.span.start))
    covered: dict[str, set[int]] = {}
    for hit in hits:
        toks = set(range(hit.span.start, hit.span.end))
        if toks & covered.setdefault(hit.type, set()):
            continue
        covered[hit.type] |= toks
        d = draft(hit.span)
        d.sources.add("lexicon")
        generic = len(hit.span) == 1 and hit.span.text.islower() and not any(c.isdigit() for c in hit.span.text)
        d.add({hit.type: _GENERIC_LEXICON_STRENGTH if generic else _LEXICON_STRENGTH})
        d.lexicon_type = d.lexicon_type or hit.type
        if hit.name != hit.span.text:
            d.label = hit.name

    # 2. acronym definitions and later uses of the acronym
    pairs = acronyms.find_pairs(doc)
    short_forms: dict[str, _Draft] = {}
    for pair in pairs:
        d = draft(pair.long)
        d.sources.add("acronym")
        if pair.short.text not in d.aliases:
            d.aliases.append(pair.short.text)
        d.add(classify.head_evidence(pair.long))
        short_forms.setdefault(pair.short.text, d)
        if pair.short.text.endswith("s"):
            short_forms.setdefault(pair.short.text[:-1], d)
        short = draft(pair.short)
        short.sources.add("acronym-use")
        d.partner = short
    for tok in doc:
        d = short_forms.get(tok.text) or (short_forms.get(tok.text[:-1]) if tok.text.endswith("s") else None)
        if d is not None and not (d.span.start <= tok.i < d.span.end):
            use = draft(doc[tok.i : tok.i + 1])
            use.sources.add("acronym-use")

    # 3. noun chunks, trimmed; "X dataset" / "X model" name X
    for chunk in doc.noun_chunks:
        span = trim(chunk)
        if not len(span) or len(span) > MAX_PHRASE_TOKENS:
            continue
        if len(span) == 1 and (span[0].lower_ in classify.GENERIC or span[0].lemma_.lower() in classify.GENERIC):
            continue
        if span.root.pos_ == "PRON" or all(t.is_stop for t in span):
            continue
        last = span[-1]
        rest = span.doc[span.start : span.end - 1]
        if (
            len(rest)
            and last.lemma_.lower() in classify.GENERIC | {"corpus", "treebank"}
            and classify.is_name_shaped(rest.text)
            and all(classify.is_name_shaped(t.text) or t.pos_ == "PROPN" or t.is_punct for t in rest)
        ):
            name = draft(rest)
            name.sources.add("name")
            head = classify.head_evidence(span)
            if head:
                etype, strength = next(iter(head.items()))
                name.add({etype: max(strength, 0.6)})
            if not last.is_title:
                continue
            # "Deep Gaussian Mixture Model": the capitalised kind word is part of the name
        d = draft(span)
        d.sources.add("chunk")
        d.add(classify.head_evidence(span))

    # 4. coined names written without spaces; one that extends a lexicon name ("Llama-2-7B"
    # from "Llama-2") is of its type
    for span in _glued_names(doc):
        d = draft(span)
        d.sources.add("name")
        for hit in hits:
            if span.start <= hit.span.start and hit.span.end <= span.end and len(hit.span) < len(span):
                d.add({hit.type: _LEXICON_STRENGTH})
                d.sources.add("lexicon-variant")

    d_list = [d for _, d in sorted(drafts.items())]
    known = [h.span for h in hits] + [d.span for d in d_list if "lexicon-variant" in d.sources]
    for d in d_list:
        if "chunk" in d.sources and _names_a_variant(d.span, known):
            d.sources.add("named-variant")
    for d in d_list:
        d.add(classify.context_evidence(d.span))
        shape = classify.model_shape(d.span.text)
        if shape:
            d.add({"model": shape})
    return d_list, short_forms


def _generate(doc: Doc, scorer: Scorer | None) -> list[Candidate]:
    d_list, short_forms = drafts_of(doc)
    # type each draft
    by_short: dict[str, tuple[str, float]] = {}
    long_proposed: dict[int, bool] = {}
    out: list[Candidate] = []
    for d in d_list:
        if "acronym-use" in d.sources and "lexicon" not in d.sources:
            continue  # typed after their long forms
        cand = _decide(d, scorer)
        long_proposed[id(d)] = cand is not None and cand.proposed
        if cand is not None:
            out.append(cand)
            for alias in cand.aliases:
                by_short[alias] = (cand.type, cand.confidence)
    for d in d_list:
        if "acronym-use" not in d.sources or "lexicon" in d.sources:
            continue
        text = d.span.text
        long = short_forms.get(text) or short_forms.get(text[:-1])
        if long is None:
            continue
        long_alias = long.aliases[0] if long.aliases else text
        typed = by_short.get(long_alias)
        if typed is None:
            continue
        etype, conf = typed
        out.append(
            Candidate(
                type=etype,
                start=d.span.start_char,
                end=d.span.end_char,
                text=text,
                confidence=conf,
                label=long.label or long.span.text,
                aliases=(long_alias,),
                # the "(ACR)" of a definition is as proposed as its long form; a later use
                # may be proposed on its own ("our ACR", "ACR achieves")
                proposed=long_proposed.get(id(long), False)
                or (d.span.start > long.span.end + 1 and is_proposed(d)),
                sources=tuple(sorted(d.sources)),
                evidence=((etype, conf),),
            )
        )
    return _resolve_overlaps([t for t in (tidy(c) for c in out) if t is not None])


_OPEN, _CLOSE = "([{", ")]}"
_LATEX_ARG = re.compile(r"\\[A-Za-z]+\{([^{}]*)\}")
_LATEX_CMD = re.compile(r"\\[A-Za-z]+")


def clean_label(text: str) -> str:
    """A name without TeX residue: "$m$-Synchronous SGD" -> "m-Synchronous SGD"."""
    if "$" not in text and "\\" not in text:
        return text
    out = _LATEX_CMD.sub("", _LATEX_ARG.sub(r"\1", text))
    out = out.replace("$", "").replace("{", "").replace("}", "")
    return " ".join(out.split())


def _unmatched(text: str) -> int | None:
    """Index of the first bracket in `text` without its partner, or None."""
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch in _OPEN:
            stack.append(i)
        elif ch in _CLOSE:
            if stack and _OPEN[_CLOSE.index(ch)] == text[stack[-1]]:
                stack.pop()
            else:
                return i
    return stack[0] if stack else None


def tidy(c: Candidate) -> Candidate | None:
    """The candidate with no unbalanced bracket in its span ("SDP)" -> "SDP", "residue (binding
    site" -> "residue") and its label free of TeX residue; None when nothing is left."""
    start, text = c.start, c.text
    while (i := _unmatched(text)) is not None:
        left, right = text[:i], text[i + 1 :]
        if left.strip():
            text = left
        else:
            start += i + 1
            text = right
        lead = len(text) - len(text.lstrip(" ,;:-"))
        start += lead
        text = text.strip(" ,;:-")
    if len(text) < 2 or not any(ch.isalnum() for ch in text):
        return None
    label = clean_label(c.label or text)
    label = None if label == text else label
    if text == c.text and label == c.label:
        return c
    aliases = tuple(a for a in c.aliases if a != (label or text))
    if label and text not in aliases:
        aliases = (text, *aliases)
    return replace(c, start=start, end=start + len(text), text=text, label=label, aliases=aliases)


def _decide(d: _Draft, scorer: Scorer | None) -> Candidate | None:
    if scorer is not None:
        return _decide_learned(d, scorer)
    span = d.span
    named = _is_coined(d)
    # a proper name with no other evidence: most coined names in abstracts are methods
    if named and not d.evidence:
        # ... and one the abstract presents as its own almost always is
        d.add({"method": 0.6 if _in_contribution_context(span) else 0.3})
    scores = {etype: _combine(vals) for etype, vals in d.evidence.items()}
    if not scores:
        return None
    if "acronym" in d.sources:
        best = max(scores, key=scores.get)
        scores[best] = _combine([scores[best], _ACRONYM_STRENGTH])
    # a named variant of a model family, or a lexicon model, is a model rather than a method
    if scores.get("model", 0) and scores.get("method", 0) and scores["model"] >= 0.75:
        scores["model"] = max(scores["model"], scores.pop("method"))
    etype = max(scores, key=lambda t: (scores[t], t == d.lexicon_type))
    conf = scores[etype]
    if "chunk" in d.sources and "lexicon" not in d.sources and "acronym" not in d.sources:
        # descriptions, not names: the longer, the less likely an entity
        conf *= 1.0 - 0.06 * max(0, len(span) - 2)
        if etype == "dataset" and not any(classify.is_name_shaped(t.text) or t.pos_ == "PROPN" for t in span):
            # "a large-scale dataset", "training data": a dataset is named by a proper name
            conf *= 0.35
    if conf < MIN_CONFIDENCE:
        return None
    aliases = tuple(a for a in d.aliases if a != (d.label or span.text))
    if d.label and span.text != d.label and span.text not in aliases:
        aliases = (span.text,) + aliases
    return Candidate(
        type=etype,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        confidence=min(conf, 0.99),
        label=d.label,
        aliases=aliases,
        proposed=is_proposed(d),
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted(scores.items())),
    )


_TIERS = {"named-variant": 0, "lexicon": 2, "lexicon-variant": 2, "acronym": 2, "acronym-use": 2, "name": 1, "chunk": 0}


def _tier(c: Candidate) -> int:
    # the name a paper gives its contribution beats the known name inside it
    # ("Gumbel Tree-LSTM" over "Tree-LSTM", "Deep Gaussian Mixture Model" over "Gaussian ...")
    if c.proposed and "named-variant" in c.sources:
        return 3
    return max(_TIERS[s] for s in c.sources)


def features(d: _Draft) -> dict[str, float]:
    """What the learned scorer sees of a candidate: its evidence, its words and their context."""
    span = d.span
    doc = span.doc
    f: dict[str, float] = {"bias": 1.0}
    for etype, vals in d.evidence.items():
        f[f"ev:{etype}"] = _combine(vals)
    for src in d.sources:
        f[f"src:{src}"] = 1.0
    if d.lexicon_type:
        f[f"lex:{d.lexicon_type}"] = 1.0
    n = len(span)
    f[f"len:{min(n, 7)}"] = 1.0
    text = span.text
    if classify.is_name_shaped(text):
        f["shape:name"] = 1.0
    if text.isupper():
        f["shape:upper"] = 1.0
    if any(c.isdigit() for c in text):
        f["shape:digit"] = 1.0
    if all(t.is_title for t in span):
        f["shape:title"] = 1.0
    if text.islower():
        f["shape:lower"] = 1.0
    if d.aliases:
        f["acronym:defined"] = 1.0
    head = span[-1]
    f[f"head:{head.lemma_.lower()}"] = 1.0
    f[f"suffix:{head.lower_[-3:]}"] = 1.0
    f[f"headpos:{head.pos_}"] = 1.0
    if n > 1:
        f[f"first:{span[0].lemma_.lower()}"] = 1.0
        f[f"firstpos:{span[0].pos_}"] = 1.0
    for tok in span[:-1]:
        f[f"word:{tok.lemma_.lower()}"] = 1.0
    root = span.root
    f[f"dep:{root.dep_}"] = 1.0
    if root.head is not root:
        f[f"gov:{root.head.lemma_.lower()}"] = 1.0
    prev = doc[span.start - 1].lower_ if span.start > 0 else "<s>"
    nxt = doc[span.end].lower_ if span.end < len(doc) else "</s>"
    f[f"prev:{prev}"] = 1.0
    f[f"next:{nxt}"] = 1.0
    if span.start > 1:
        f[f"prev2:{doc[span.start - 2].lower_} {prev}"] = 1.0
    if _in_contribution_context(span):
        f["proposed"] = 1.0
    return f


# confidence of a coined name the abstract presents as its own, when nothing else types it
_COINED_CONTRIBUTION = 0.6


def _is_coined(d: _Draft) -> bool:
    span = d.span
    if d.aliases or classify.is_name_shaped(span.text):
        return True
    return len(span) == 1 and span[0].pos_ == "PROPN" and span[0].is_title and not span[0].is_sent_start


def _decide_learned(d: _Draft, scorer: Scorer) -> Candidate | None:
    span = d.span
    probs = scorer.probabilities(features(d))
    typed = {t: p for t, p in probs.items() if t != NONE}
    if d.partner is not None:
        # "Margin Drift Loss (MDL)": either form may be the better known
        partner = scorer.probabilities(features(d.partner))
        typed = {t: max(p, partner[t]) for t, p in typed.items()}
    etype = max(typed, key=typed.get)
    conf = typed[etype]
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE) and is_proposed(d):
        # a name the abstract coins for its own contribution is an entity, whatever the
        # training papers (which never saw it) suggest; its type comes from the rules
        rule_scores = {t: _combine(v) for t, v in d.evidence.items() if t != "model"}
        etype = max(rule_scores, key=rule_scores.get) if rule_scores else "method"
        conf = max(conf, _COINED_CONTRIBUTION)
    # SciREX, the training data, files named models under Method, and its papers predate most
    # of today's model names: a name of a model family, or a checkpoint's shape, decides the
    # type, and the rule evidence is averaged into the learned probability
    ev_model = _combine(d.evidence.get("model", []))
    if etype == "method" and (ev_model >= 0.75 or d.lexicon_type == "model"):
        etype = "model"
        conf = (conf + ev_model) / 2
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE):
        return None
    aliases = tuple(a for a in d.aliases if a != (d.label or span.text))
    if d.label and span.text != d.label and span.text not in aliases:
        aliases = (span.text,) + aliases
    return Candidate(
        type=etype,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        confidence=min(conf, 0.99),
        label=d.label,
        aliases=aliases,
        proposed=is_proposed(d),
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted((t, round(p, 4)) for t, p in typed.items())),
    )


def _resolve_overlaps(cands: list[Candidate]) -> list[Candidate]:
    """Within a type, of overlapping candidates keep the one with the best kind of evidence
    (a known or defined name, then a coined name, then a phrase), then the longer one."""
    kept: list[Candidate] = []
    taken: dict[str, list[tuple[int, int]]] = {}
    for c in sorted(cands, key=lambda c: (-_tier(c), -(c.end - c.start), -c.confidence, c.start)):
        spans = taken.setdefault(c.type, [])
        if any(c.start < e and s < c.end for s, e in spans):
            continue
        spans.append((c.start, c.end))
        kept.append(c)
    kept.sort(key=lambda c: (c.start, c.end, c.type))
    return kept
