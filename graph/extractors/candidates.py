"""Entity candidates of one abstract, computed once and shared by the five entity extractors.

Candidates come from lexicon hits, acronym definitions (and later uses of the acronym),
trimmed noun chunks and coined names (ResNet-50, ViT-B/16, GPT-4o). Each gets one type from
the evidence classify.py finds, a confidence, the preferred label and aliases, and whether the
abstract presents it as its own contribution. methods.py, datasets.py ... pick their type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spacy.tokens import Doc, Span

from graph.extractors import acronyms, classify, lexicon, lists
from graph.extractors import scorer as scorer_mod
from graph.extractors.scorer import NONE, Scorer
from graph.extractors.tokens import Tokens, table
from graph.model import Mention

CACHE_KEY = "paperkg.entity_candidates.v1"
#: below this a candidate is not emitted at all
MIN_CONFIDENCE = 0.35
# Longer phrases are more often descriptions than names (in words: a hyphenated word is one).
MAX_PHRASE_TOKENS = 7

# Lexicon forms that are ordinary words as well: weaker evidence.
_GENERIC_LEXICON_STRENGTH = 0.55
_LEXICON_STRENGTH = 0.92
_ACRONYM_STRENGTH = 0.25
# a name listed under a word for its kind ("benchmarks including A, B and C"), and one listed
# beside known names of one kind
_LISTED_STRENGTH = 0.8
_PEER_STRENGTH = 0.7

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


class _Draft:
    """A candidate span, tokens start..end of doc, with its evidence, before it is typed."""

    __slots__ = (
        "doc", "tokens", "start", "end", "text", "root", "evidence", "sources", "label",
        "aliases", "surface", "lexicon_type", "partner", "_span",
    )

    def __init__(self, doc: Doc, tokens: Tokens, start: int, end: int) -> None:
        self.doc = doc
        #: the doc's token columns
        self.tokens = tokens
        self.start = start
        self.end = end
        self.text = tokens.span_text(start, end)
        #: `span.root.i`, asked for by most of the cues below
        self.root = tokens.root(start, end)
        self.evidence: dict[str, list[float]] = {}
        self.sources: set[str] = set()
        self.label: str | None = None
        self.aliases: list[str] = []
        #: the paper's longer wording of the name ("the COCO dataset"): aliases of the entity
        #: only, not evidence, unlike `aliases`, which are defined short forms
        self.surface: list[str] = []
        self.lexicon_type: str | None = None
        #: the short form written after a long form ("(GFN)"): the pair is typed together
        self.partner: _Draft | None = None
        self._span: Span | None = None

    @property
    def span(self) -> Span:
        # built only when asked for: a Span costs three Tokens
        if self._span is None:
            self._span = self.doc[self.start : self.end]
        return self._span

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


_TRIM_DEPS = frozenset({"det", "poss", "predet", "nummod"})
_TRIM_POS = frozenset({"PRON", "DET", "PUNCT", "ADV", "CCONJ", "ADP", "PART"})
_TRIM_TAIL_POS = frozenset({"PUNCT", "PART"})
_TRIM_TAIL_TEXT = frozenset({"-", "'s"})
#: the adverb of a hyphenated praise word ("well-established", "widely-adopted"): trimmed whole
_PRAISING_ADVERBS = frozenset({"well", "recently", "newly", "previously", "widely", "commonly"})
#: a model's size, which says how big, not what: "a 7B-parameter", "8x7B-sized"
_SIZE_COUNT = re.compile(r"^(?:\d+x)?\d+(?:\.\d+)?[BMKT]$")
#: adverbs of degree, time and standing: trimmed even where they modify a word of the phrase
#: ("very deep networks", "a recently proposed method"), unlike adverbs of manner that are part
#: of a method's name ("fully connected layers", "weakly supervised detection")
_DEGREE_ADVERBS = _PRAISING_ADVERBS | frozenset(
    "very more most much highly significantly relatively extremely considerably particularly "
    "substantially comparably far so only too quite rather less least best better even just "
    "still already also increasingly remarkably surprisingly notably dramatically greatly "
    "slightly fairly generally originally traditionally typically usually often simply easily "
    "freely truly really potentially readily currently concurrently carefully consistently "
    "possibly publicly always never almost nearly successfully efficiently effectively "
    "properly jointly first purely entirely completely totally largely mostly partly "
    "heavily".split()
)


def trim(span: Span) -> Span:
    """Drop determiners, pronouns, counts and evaluative words in front, punctuation at the end."""
    start, end = _trim(table(span.doc), span.start, span.end)
    return span.doc[start:end]


def _hyphen_word_end(t: Tokens, k: int, end: int) -> int:
    """End of the word joined by hyphens that starts at token k ("end-to-end", "one-dimensional",
    "state-of-the-art"): k + 1 where token k is followed by a space or no hyphen."""
    j = k
    while j + 2 < end and not t.ws[j] and t.text[j + 1] == "-" and not t.ws[j + 1]:
        j += 2
    return j + 1


def _trim(t: Tokens, start: int, end: int) -> tuple[int, int]:
    dep, pos, lower, like_num = t.dep, t.pos, t.lower, t.like_num
    evaluative = classify.EVALUATIVE
    while start < end:
        word_end = _hyphen_word_end(t, start, end)
        if word_end > start + 1:
            # a hyphenated word is trimmed whole ("state-of-the-art") or kept whole: the "one"
            # of "one-dimensional" is no count
            if not (t.span_text(start, word_end).lower() in evaluative
                    or lower[start] in _PRAISING_ADVERBS  # "well-established", "newly-proposed"
                    or _SIZE_COUNT.match(t.text[start])  # "7B-parameter language modeling"
                    or t.lemma[word_end - 1] in _NAMING_VERBS):  # "so-called"
                break
            start = word_end
        elif _manner_adverb(t, start, end):
            break
        elif (
            dep[start] in _TRIM_DEPS
            or pos[start] in _TRIM_POS
            or lower[start] in evaluative
            or (like_num[start] and pos[start] == "NUM")
            or t.text[start] == "%"  # "94% hit rate" once the number is gone
            # "so-called Augmented Autoencoder", "dubbed X": the name is what follows
            or (t.lemma[start] in _NAMING_VERBS and pos[start] == "VERB")
        ):
            start += 1
        else:
            break
    while end > start and (pos[end - 1] in _TRIM_TAIL_POS or t.text[end - 1] in _TRIM_TAIL_TEXT):
        end -= 1
    return start, end


def _words(t: Tokens, start: int, end: int) -> int:
    """Words in tokens start..end, a hyphenated word counting once ("short-term" is one)."""
    glue = sum(1 for k in range(start + 1, end - 1)
               if t.text[k] == "-" and not t.ws[k - 1] and not t.ws[k])
    return end - start - 2 * glue


#: words that join the conjuncts of a coordinated phrase ("&" is left alone: "Wide & Deep",
#: "CNN & Daily Mail" are names)
_CONJUNCTIONS = frozenset({"and", "or"})


def _conjuncts(t: Tokens, start: int, end: int) -> list[tuple[int, int]]:
    """The noun phrases joined by "and"/"or" (and commas before them) in tokens start..end,
    trimmed; none unless the phrase is such a coordination. A conjunct that is no noun phrase
    ("exact" of "exact and efficient sampling") is left out."""
    cuts = [k for k in range(start + 1, end - 1) if t.lower[k] in _CONJUNCTIONS
            and t.pos[k] == "CCONJ"]
    if not cuts:
        return []
    cuts = [k for k in range(start + 1, cuts[-1]) if t.text[k] == ","] + cuts
    out = []
    for a, b in zip([start - 1, *cuts], [*cuts, end], strict=True):
        part = _trim(t, a + 1, b)
        if part[0] < part[1] and t.pos[part[1] - 1] in ("NOUN", "PROPN"):
            out.append(part)
    return out


def _manner_adverb(t: Tokens, k: int, end: int) -> bool:
    """Token k is an adverb of manner modifying a modifier further in the phrase: "fully" of
    "fully connected layers", "biologically" of "biologically inspired filters"."""
    if t.pos[k] != "ADV" or t.tag[k] != "RB" or t.lower[k] in _DEGREE_ADVERBS:
        return False
    head = t.head[k]
    return k < head < end - 1 and t.dep[head] == "amod" and t.pos[head] in ("ADJ", "VERB")


def _whole_chunks(t: Tokens, doc: Doc) -> list[tuple[int, int]]:
    """The noun chunks, where one that is the tail of a hyphenated word (the "end" of "an
    end-to-end neural network", parsed as the object of "to") stands for the phrase around it,
    which spaCy's iterator skips once the tail has taken its tokens."""
    chunks = t.noun_chunks(doc)
    out: list[tuple[int, int]] = []
    for start, end in chunks:
        if start > 1 and t.text[start - 1] == "-" and not t.ws[start - 2] and not t.ws[start - 1]:
            k, steps = end - 1, 0
            while t.head[k] != k and t.head[k] < end and steps < _MAX_HYPHEN_PARTS:
                k, steps = t.head[k], steps + 1
            noun = t.head[k]
            if noun >= end and t.pos[noun] in ("NOUN", "PROPN"):
                start, end = t.left_edge(doc, noun), noun + 1
        if not out or out[-1] != (start, end):
            out.append((start, end))
    return out


#: how far up the parse a hyphenated word's tail may climb to the noun it modifies
_MAX_HYPHEN_PARTS = 8


_GLUE = {"-", "/", "."}


_CLITICS = frozenset({"'s", "n't", "s"})


def _glued_names(t: Tokens) -> list[tuple[int, int]]:
    """Runs of tokens written without spaces that make one coined name: "ViT-B/16", "Llama-2-7B"."""
    spans: list[tuple[int, int]] = []
    n = t.n
    text, ws, lower, is_punct, sent_start = t.text, t.ws, t.lower, t.is_punct, t.is_sent_start
    # a token that can be part of a glued name
    part = [
        a or num or w in _GLUE or any(map(str.isdigit, w))
        for a, num, w in zip(t.is_alpha, t.like_num, text, strict=True)
    ]
    i = 0
    while i < n:
        j = i + 1
        while (
            j < n
            and ws[j - 1] == ""
            and not sent_start[j]
            and part[j]
            and part[j - 1]
            and lower[j] not in _CLITICS
        ):
            j += 1
        while j > i + 1 and text[j - 1] in _GLUE:
            j -= 1
        word = text[i] if j == i + 1 else t.span_text(i, j)
        if classify.is_name_shaped(word) and not all(is_punct[i:j]):
            spans.append((i, j))
        i = j
    return spans


def _is_pair(t: Tokens, start: int, end: int) -> bool:
    """Two or more capitalised words joined by hyphens, slashes or "to": "English-German"."""
    words = [t.text[k] for k in range(start, end) if t.text[k] not in _GLUE and t.lower[k] != "to"]
    return len(words) >= 2 and all(w.isalpha() and w.istitle() for w in words)


_CLIMB_DEPS = frozenset({"conj", "appos", "compound", "amod", "nmod"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_PAPER_WORDS = frozenset({"paper", "work"})
# A Token is a new object on every access, so `tok.head is not tok` never held back a climb:
# a root climbs onto itself, as before.


def _in_contribution_context(d: _Draft) -> bool:
    """The context cue the learned scorer was trained with: the span sits where an abstract
    presents its contribution ("our X", "we propose X", "X, a novel ..."), name or not."""
    doc, t, start, end = d.doc, d.tokens, d.start, d.end
    lower, dep, kids = t.lower, t.dep, t.kids
    # "our X", "the proposed X", "X, a novel ..."
    for k in range(max(t.sent_first[start], start - 3), start):
        if lower[k] in _OWN_MARKERS and not any(t.is_punct[k:start]):
            return True
    tok = d.root
    for child in kids[tok]:
        if dep[child] == "appos" and any(lower[x] in _NOVEL for x in t.subtree(child)):
            return True
    # climb "X and Y", "X (ACR)", "a framework, X" to the word the verb governs
    seen = 0
    while dep[tok] in _CLIMB_DEPS and seen < 4:
        tok = t.head[tok]
        seen += 1
        if dep[tok] != "appos" and any(dep[c] == "appos" and start <= c < end for c in kids[tok]):
            if any(lower[x] in _NOVEL for x in range(t.left_edge(doc, tok), start)):
                return True
    head = t.head[tok]
    if dep[tok] in {"oprd", "xcomp", "dobj", "attr"} and t.lemma_lower[head] in _NAMING_VERBS:
        return True
    if dep[tok] in {"dobj", "nsubjpass", "attr"} and t.lemma_lower[head] in _PROPOSE_VERBS:
        subjects = [c for c in kids[head] if dep[c] in _SUBJECT_DEPS]
        if dep[tok] == "nsubjpass":
            return True
        if not subjects:
            return True
        return any(
            lower[s] in _OWN_SUBJECTS or any(lower[x] in _PAPER_WORDS for x in t.subtree(s))
            for s in subjects
        )
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


def _own_subject(t: Tokens, verb: int) -> bool:
    subjects = [c for c in t.kids[verb] if t.dep[c] in _SUBJECT_DEPS]
    if not subjects:
        # "X is proposed", "to introduce X": the abstract's own voice
        return True
    lower = t.lower
    return any(
        lower[s] in _OWN_SUBJECTS or any(lower[x] in _PAPER_WORDS for x in t.subtree(s))
        for s in subjects
    )


_NAMED_DEPS = frozenset({"oprd", "xcomp", "dobj", "attr", "appos", "npadvmod"})
_AS_VERBS = frozenset({"refer", "term", "name", "call", "denote"})


def _naming_cue(d: _Draft) -> bool:
    """The abstract gives the span as a name: "called X", "we refer to as X", "the task of X",
    "a new framework, X" under an own proposal verb, or a quoted term it introduces."""
    t, start, end = d.tokens, d.start, d.end
    dep, lower, lemma, heads = t.dep, t.lower, t.lemma_lower, t.head
    tok = d.root
    head = heads[tok]
    if dep[tok] in _NAMED_DEPS and lemma[head] in _NAMING_VERBS:
        return True
    if dep[tok] == "pobj" and lower[head] == "as" and lemma[heads[head]] in _AS_VERBS:
        return True
    if (
        dep[tok] == "pobj"
        and lower[head] == "of"
        and lemma[heads[head]] in {"task", "problem"}
        and lemma[heads[heads[head]]] in _PROPOSE_VERBS
    ):
        return True
    lead = t.span_text(max(t.sent_first[start], start - 3), start).lower()
    if lead.endswith(_NAMING_LEADS):
        return True
    n = t.n
    before = t.text[start - 1] if start > 0 else ""
    after = t.text[end] if end < n else ""
    if before in _QUOTES and (after in _QUOTES or (end + 1 < n and t.text[end + 1] in _QUOTES)):
        verbs = [
            v for v in range(t.sent_first[start], t.sent_end[start])
            if t.pos[v] == "VERB" and lemma[v] in _PROPOSE_VERBS
        ]
        return any(_own_subject(t, v) for v in verbs)
    return False


def _own_cue(d: _Draft, *, climb: bool = True) -> bool:
    """The span is the paper's own: "our X", "the proposed X", "our method, X", the object of
    "we propose/introduce", or "X, a novel ..."."""
    doc, t, start = d.doc, d.tokens, d.start
    lower, dep = t.lower, t.dep
    tok = d.root
    # "our X", "the proposed X": the marker belongs to the span's own phrase
    if any(lower[k] in _OWN_MARKERS for k in range(t.left_edge(doc, tok), start)):
        return True
    if any(
        dep[c] == "appos" and any(lower[x] in _NOVEL for x in t.subtree(c)) for c in t.kids[tok]
    ):
        return True
    # climb "X and Y", "X (ACR)", "a framework, X", "X network" to the word the verb governs
    seen = 0
    while climb and dep[tok] in _CLIMB_DEPS and seen < 4:
        tok = t.head[tok]
        seen += 1
        edge = t.left_edge(doc, tok)
        if any(lower[k] in _OWN_MARKERS for k in range(edge, min(tok, start))):
            return True  # "our method, X", "our fast text classifier X"
        if any(lower[k] in _NOVEL for k in range(edge, start)):
            return True  # "a novel generative model named X", "a novel X architecture"
    head = t.head[tok]
    if dep[tok] in {"dobj", "nsubjpass", "attr"} and t.lemma_lower[head] in _PROPOSE_VERBS:
        return dep[tok] == "nsubjpass" or _own_subject(t, head)
    return False


_ABLE = frozenset({"effective", "able", "competitive", "superior", "capable", "better"})


def _result_subject(d: _Draft) -> bool:
    """A coined name reporting results: "LeakGAN is highly effective", "AlphaZero achieved"."""
    t = d.tokens
    tok = d.root
    if t.dep[tok] not in _SUBJECT_DEPS:
        return False
    verb = t.head[tok]
    kids = t.kids[verb]
    if any(t.lower[c] in _BACKGROUND_ADVERBS for c in kids):
        return False
    if t.lemma_lower[verb] in _RESULT_VERBS:
        return True
    # "X is (highly) effective / able to / competitive"
    return t.lemma[verb] == "be" and any(
        t.dep[c] == "acomp" and t.lemma_lower[c] in _ABLE for c in kids
    )


def _baseline_or_number(d: _Draft) -> bool:
    t, start = d.tokens, d.start
    tok = d.root
    if t.dep[tok] == "pobj" and t.lower[t.head[tok]] in _BASELINE_PREPS:
        return True
    if t.dep[tok] == "dobj" and t.lemma_lower[t.head[tok]] in _BASELINE_VERBS:
        return True
    if start > 0 and t.lower[start - 1] in _BASELINE_PREPS:
        return True
    return t.like_num[start] or t.pos[start] == "NUM"


def _is_name(d: _Draft) -> bool:
    """A coined name rather than a description: name-shaped, or defined with an acronym."""
    text = _ADJECTIVE_COMPOUND.sub("", d.text).strip()
    if classify.is_name_shaped(text):
        return True
    t, start, end = d.tokens, d.start, d.end
    if d.aliases:
        return not (len(d.text.split()) <= 2 and t.lemma_lower[end - 1] in _KIND_HEADS)
    return any(
        t.pos[k] == "PROPN" and t.is_title[k] and not t.is_sent_start[k] for k in range(start, end)
    )


def is_proposed(d: _Draft) -> bool:
    """Whether the candidate is a name the abstract introduces as the paper's own."""
    text = d.text
    t, start, end = d.tokens, d.start, d.end
    if start >= end or _baseline_or_number(d) or _CITATION.match(text) is not None:
        return False
    if text.lower().endswith(_ADJECTIVE_TAILS):
        return False
    if end - start == 1 and t.lemma_lower[start] in classify.GENERIC:
        return False
    if t.lemma_lower[end - 1] in _ARTEFACTS:
        return False
    if _naming_cue(d):
        return True
    # a well-known name is the paper's own only when the sentence says so of the name itself
    # ("our classifier fastText"), not when it is a part the paper uses ("stochastic gradient
    # descent", "a GAN-based model")
    if "lexicon" in d.sources or "lexicon-variant" in d.sources:
        return classify.is_name_shaped(d.label or text) and _own_cue(d, climb=False)
    if _own_cue(d):
        if _is_name(d):
            return True
        # "we introduce multi-view consistency, a benchmark ...": a bare (no article, not
        # plural) lowercase phrase with a describing appositive names the contribution
        root = d.root
        kids = t.kids[root]
        bare = not any(t.dep[c] in {"det", "nummod", "poss"} for c in kids)
        bare = bare and t.tag[root] not in {"NNS", "NNPS"}
        described = any(t.dep[c] == "appos" for c in kids)
        return bare and described and end - start > 1
    if d.aliases and _is_name(d) and _own_sentence(d):
        # "we propose a method (SR) using a deeply-recursive network (DRCN)"
        return True
    return classify.is_name_shaped(text) and not text.isupper() and _result_subject(d)


def _own_sentence(d: _Draft) -> bool:
    t, start = d.tokens, d.start
    verbs = [
        v for v in range(t.sent_first[start], t.sent_end[start])
        if t.pos[v] == "VERB" and t.lemma_lower[v] in _PROPOSE_VERBS
    ]
    return any(
        _own_subject(t, v) and any(t.lower[c] in _OWN_SUBJECTS for c in t.kids[v]) for v in verbs
    )


def _combine(strengths: list[float]) -> float:
    """Noisy-or of independent pieces of evidence."""
    miss = 1.0
    for s in strengths:
        miss *= 1.0 - s
    return 1.0 - miss


_VARIANT_STOP_POS = frozenset({"PRON", "NUM", "CCONJ"})  # "average or max pooling": two names
_COMPARATIVE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})


def _names_a_variant(d: _Draft, known: list[tuple[int, int]]) -> bool:
    """"Deep Gaussian Mixture Model", "Gumbel Tree-LSTM": modifiers in front of a known name,
    none of them a kind noun ("text classifier fastText" is a description and its name)."""
    t = d.tokens
    for hit_start, hit_end in known:
        if hit_end == d.end and d.start < hit_start:
            heads = classify.HEADS
            return not any(
                t.pos[k] in _VARIANT_STOP_POS
                or t.tag[k] in _COMPARATIVE_TAGS  # "stronger data augmentation"
                or t.lemma[k] in _NAMING_VERBS  # "called Augmented Autoencoder"
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
_KIND_WORDS = {
    "method": frozenset("approach method technique framework algorithm architecture network "
                        "model scheme strategy module procedure".split()),
    "model": frozenset("model checkpoint architecture network".split()),
    "task": frozenset("task problem challenge".split()),
    "dataset": frozenset("dataset benchmark corpus treebank database data".split()),
    "metric": frozenset("metric measure score".split()),
}


def _kind_word_after(t: Tokens, end: int, etype: str | None) -> bool:
    """Whether token `end` is a word for the kind `etype` ("architecture", "dataset"); the
    tagger reads "metric" after a name as an adjective as often as a noun, and the lemmatiser
    turns "data" into "datum"."""
    if end >= t.n or t.pos[end] not in ("NOUN", "PROPN", "ADJ"):
        return False
    words = _KIND_WORDS.get(etype or "", ())
    return t.lemma_lower[end] in words or t.lower[end] in words


def _phrase_wordings(t: Tokens, d_list: list[_Draft], phrases: list[tuple[int, int]]) -> None:
    """The one name inside a phrase headed by a word for a dataset keeps the phrase as the
    paper's wording of it: "the WIDER FACE validation dataset", "the BRATS test data" (a name
    typed as another kind drops it: `_worded_as_another_kind`)."""
    words = _KIND_WORDS["dataset"]
    headed = [(s, e) for s, e in phrases if t.lemma_lower[e - 1] in words or t.lower[e - 1] in words]
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


def drafts_of(doc: Doc) -> tuple[list[_Draft], dict[str, _Draft]]:
    """Every candidate span with its evidence, untyped; and defined short form -> long form."""
    drafts: dict[tuple[int, int], _Draft] = {}
    t = table(doc)

    def draft(start: int, end: int) -> _Draft:
        key = (start, end)
        d = drafts.get(key)
        if d is None:
            d = drafts[key] = _Draft(doc, t, start, end)
        return d

    # 1. lexicon hits; a hit inside a longer hit of the same type is dropped
    hits = sorted(lexicon.find(doc), key=lambda h: (-(h.span.end - h.span.start), h.span.start))
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
        if _kind_word_after(t, end, d.lexicon_type):
            d.surface.append(t.span_text(start, end + 1))

    # 2. acronym definitions and later uses of the acronym
    pairs = acronyms.find_pairs(doc)
    short_forms: dict[str, _Draft] = {}
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
            d = short_forms.get(word)
            if d is None and word.endswith("s"):
                d = short_forms.get(word[:-1])
            if d is not None and not (d.start <= i < d.end):
                use = draft(i, i + 1)
                use.sources.add("acronym-use")

    # 3. noun chunks, trimmed; "X dataset" / "X model" name X
    generic_words = classify.GENERIC
    name_shaped = classify.is_name_shaped
    phrases: list[tuple[int, int]] = []
    for chunk_start, chunk_end in _whole_chunks(t, doc):
        # "a benchmark, CodeTrace,": an apposition the parser read as one phrase; the name is
        # what follows the comma
        # (not "a compact, fixed-size representation": adjectives in a row)
        commas = [k for k in range(chunk_start + 1, chunk_end - 1)
                  if t.text[k] == "," and t.pos[k - 1] == "NOUN"
                  and (t.pos[k + 1] == "PROPN" or name_shaped(t.text[k + 1]))]
        if commas:
            chunk_start = commas[-1] + 1
        start, end = _trim(t, chunk_start, chunk_end)
        if start >= end or _words(t, start, end) > MAX_PHRASE_TOKENS:
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
        for part_start, part_end in _conjuncts(t, start, end):
            part = draft(part_start, part_end)
            part.sources.add("chunk")
            part.add(classify.head_evidence_at(t, part_start, part_end))

    # 4. coined names written without spaces; one that extends a lexicon name ("Llama-2-7B"
    # from "Llama-2") is of its type
    for start, end in _glued_names(t):
        d = draft(start, end)
        d.sources.add("name")
        for hit in hits:
            if start <= hit.span.start and hit.span.end <= end and len(hit.span) < end - start:
                d.add({hit.type: _LEXICON_STRENGTH})
                d.sources.add("lexicon-variant")
        # "English-to-German translation", "Sim-to-Real transfer": a pair of named ends is the
        # setting of the task that follows, not a name of its own
        if end < t.n and _is_pair(t, start, end):
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
            d = drafts.get((start, end))
            if d is None:
                d = draft(start, end)
                # a listed task is a phrase ("word ordering"), a listed dataset a name
                d.sources.add("name" if _is_coined(d) else "chunk")
                d_list.append(d)
            d.add({named.type: strength})
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
        text = d.text
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
                start=d.tokens.idx[d.start],
                end=d.tokens.end_char(d.end - 1),
                text=text,
                confidence=conf,
                label=long.label or long.text,
                aliases=(long_alias,),
                # the "(ACR)" of a definition is as proposed as its long form; a later use
                # may be proposed on its own ("our ACR", "ACR achieves")
                proposed=long_proposed.get(id(long), False)
                or (d.start > long.end + 1 and is_proposed(d)),
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


# "3D", "6DoF", "2nd": how many dimensions or which one, a modifier of a name, never one
_MODIFIER = re.compile(r"^\d+(?:\.\d+)?-?(?:D|DoF|th|st|nd|rd)$")


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
    if len(text) < 2 or not any(ch.isalnum() for ch in text) or _MODIFIER.match(text):
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
        d.add({"method": 0.6 if _in_contribution_context(d) else 0.3})
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
    label = _label(d, etype)
    aliases = _aliases(d, etype)
    return Candidate(
        type=etype,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        confidence=min(conf, 0.99),
        label=label,
        aliases=aliases,
        proposed=is_proposed(d),
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted(scores.items())),
    )


#: types whose known names may stand for each other (SciREX files models under Method)
_MODEL_KINDS = frozenset({"method", "model"})


def _label(d: _Draft, etype: str) -> str | None:
    """The draft's preferred name as an entity of type `etype`: a lexicon's name for it only
    where the lexicon is of that kind. "VQA" typed as a dataset is not named "visual question
    answering", the task it abbreviates."""
    kind = d.lexicon_type
    if kind is None or kind == etype or {kind, etype} <= _MODEL_KINDS:
        return d.label
    return None


#: the kind words a name of each type may be written with (methods and models share theirs)
_OWN_KIND_WORDS = {
    etype: _KIND_WORDS["method"] | _KIND_WORDS["model"] if etype in _MODEL_KINDS else words
    for etype, words in _KIND_WORDS.items()
}
_ANY_KIND_WORD = frozenset().union(*_KIND_WORDS.values())


def _worded_as_another_kind(wording: str, etype: str) -> bool:
    """"VQA dataset" is no name of the task VQA: the wording ends in a word for another kind."""
    last = wording.rsplit(" ", 1)[-1].lower()
    words = {last, last[:-1]} if last.endswith("s") else {last}
    return bool(words & _ANY_KIND_WORD) and not words & _OWN_KIND_WORDS.get(etype, frozenset())


def _aliases(d: _Draft, etype: str) -> tuple[str, ...]:
    """The names a candidate of type `etype` goes by besides its label: defined short forms,
    the paper's longer wordings, and its text when the label is another name."""
    text = d.text
    label = _label(d, etype)
    surface = d.surface
    t, end = d.tokens, d.end
    # "the MARS datasets", "the AFLW database": the wording with the word for the kind the
    # name was typed as (known names have theirs already, from their lexicon's type)
    if _kind_word_after(t, end, etype):
        wording = t.span_text(d.start, end + 1)
        if wording not in surface:
            surface = [*surface, wording]
    aliases = tuple(a for a in (*d.aliases, *surface)
                    if a != (label or text) and not _worded_as_another_kind(a, etype))
    if label and text != label and text not in aliases:
        aliases = (text,) + aliases
    return aliases


_TIERS = {"named-variant": 0, "lexicon": 2, "lexicon-variant": 2, "acronym": 2, "acronym-use": 2, "name": 1, "chunk": 0}


def _tier(c: Candidate) -> int:
    # the name a paper gives its contribution beats the known name inside it
    # ("Gumbel Tree-LSTM" over "Tree-LSTM", "Deep Gaussian Mixture Model" over "Gaussian ...")
    if c.proposed and "named-variant" in c.sources:
        return 3
    # "Semantic image segmentation", "denoising convolutional neural network": the narrower
    # task or method is the one the paper works with
    if c.type in ("task", "method") and "named-variant" in c.sources:
        return 3
    return max(_TIERS[s] for s in c.sources)


def features(d: _Draft) -> dict[str, float]:
    """What the learned scorer sees of a candidate: its evidence, its words and their context."""
    t, start, end = d.tokens, d.start, d.end
    lower, lemma, pos = t.lower, t.lemma_lower, t.pos
    f: dict[str, float] = {"bias": 1.0}
    for etype, vals in d.evidence.items():
        f[f"ev:{etype}"] = _combine(vals)
    for src in d.sources:
        f[f"src:{src}"] = 1.0
    if d.lexicon_type:
        f[f"lex:{d.lexicon_type}"] = 1.0
    n = end - start
    f[f"len:{min(n, 7)}"] = 1.0
    text = d.text
    if classify.is_name_shaped(text):
        f["shape:name"] = 1.0
    if text.isupper():
        f["shape:upper"] = 1.0
    if any(map(str.isdigit, text)):
        f["shape:digit"] = 1.0
    if all(t.is_title[start:end]):
        f["shape:title"] = 1.0
    if text.islower():
        f["shape:lower"] = 1.0
    if d.aliases:
        f["acronym:defined"] = 1.0
    head = end - 1
    f[f"head:{lemma[head]}"] = 1.0
    f[f"suffix:{lower[head][-3:]}"] = 1.0
    f[f"headpos:{pos[head]}"] = 1.0
    if n > 1:
        f[f"first:{lemma[start]}"] = 1.0
        f[f"firstpos:{pos[start]}"] = 1.0
    for k in range(start, head):
        f[f"word:{lemma[k]}"] = 1.0
    root = d.root
    f[f"dep:{t.dep[root]}"] = 1.0
    # the governor of a root is itself; `root.head is not root` never held (a new Token on
    # every access), so roots have always had this feature too
    f[f"gov:{lemma[t.head[root]]}"] = 1.0
    prev = lower[start - 1] if start > 0 else "<s>"
    nxt = lower[end] if end < t.n else "</s>"
    f[f"prev:{prev}"] = 1.0
    f[f"next:{nxt}"] = 1.0
    if start > 1:
        f[f"prev2:{lower[start - 2]} {prev}"] = 1.0
    if _in_contribution_context(d):
        f["proposed"] = 1.0
    # a name is written again where a passing description seldom is
    f[f"rep:{min(_repeats(t.doc_lower, text), 3)}"] = 1.0
    return f


def _repeats(doc_lower: str, text: str) -> int:
    """How often `text` occurs in the doc (its lower-cased text) as whole words, any case."""
    # str.find rather than a regex, which each candidate would have to compile for itself;
    # the doc's text comes from the token table, lower-cased once: Doc.text joins every token
    # anew on each access
    haystack, needle = doc_lower, text.lower()
    n, i, size = 0, haystack.find(needle), len(needle)
    while i >= 0 and size:
        end = i + size
        if not (i and _is_word_char(haystack[i - 1])) and not (
            end < len(haystack) and _is_word_char(haystack[end])
        ):
            n += 1
            i = haystack.find(needle, end)  # matches do not overlap
        else:
            i = haystack.find(needle, i + 1)
    return n


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


# confidence of a coined name the abstract presents as its own, when nothing else types it
_COINED_CONTRIBUTION = 0.6


def _is_coined(d: _Draft) -> bool:
    span = d.span
    if d.aliases or classify.is_name_shaped(d.text):
        return True
    return len(span) == 1 and span[0].pos_ == "PROPN" and span[0].is_title and not span[0].is_sent_start


def _decide_learned(d: _Draft, scorer: Scorer) -> Candidate | None:
    probs = scorer.probabilities(features(d))
    typed = {t: p for t, p in probs.items() if t != NONE}
    if d.partner is not None:
        # "Margin Drift Loss (MDL)": either form may be the better known
        partner = scorer.probabilities(features(d.partner))
        typed = {t: max(p, partner[t]) for t, p in typed.items()}
    etype = max(typed, key=typed.get)
    conf = typed[etype]
    proposed: bool | None = None
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE) and (proposed := is_proposed(d)):
        # a name the abstract coins for its own contribution is an entity, whatever the
        # training papers (which never saw it) suggest; its type comes from the rules
        rule_scores = {t: _combine(v) for t, v in d.evidence.items() if t != "model"}
        etype = max(rule_scores, key=rule_scores.get) if rule_scores else "method"
        conf = max(conf, _COINED_CONTRIBUTION)
    # SciREX, the training data, files named models under Method, and its papers predate most
    # of today's model names: a name of a model family, or a checkpoint's shape, decides the
    # type, and the rule evidence is averaged into the learned probability
    # (also where another type came out on top too weakly to be kept: "BERT-base", which no
    # training paper wrote, is a model whatever its words suggest)
    ev_model = _combine(d.evidence.get("model", []))
    if (ev_model >= 0.75 or d.lexicon_type == "model") and (
        etype == "method" or conf < scorer.thresholds.get(etype, MIN_CONFIDENCE)
    ):
        learned = conf if etype == "method" else typed.get("method", 0.0)
        etype, conf = "model", (learned + ev_model) / 2
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE):
        return None
    text = d.text
    label = _label(d, etype)
    aliases = _aliases(d, etype)
    return Candidate(
        type=etype,
        start=d.tokens.idx[d.start],
        end=d.tokens.end_char(d.end - 1),
        text=text,
        confidence=min(conf, 0.99),
        label=label,
        aliases=aliases,
        proposed=is_proposed(d) if proposed is None else proposed,
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted((t, round(p, 4)) for t, p in typed.items())),
    )


#: types whose accepted phrases win over the known name of their type inside them (datasets
#: are names, not phrases)
_NARROWING_TYPES = frozenset({"method", "metric", "task"})
_COORDINATED = re.compile(r"\s(?:and|or|&)\s|,")


def _narrower(cands: list[Candidate]) -> set[int]:
    """ids of the phrases that contain a known name of their own type: "neural network
    classifier", "multi-loss convolutional neural network", "classification accuracy", "video
    face recognition" are what the paper uses, the known name only a part of it. Each passed
    its type's threshold on its own words, so the scorer already holds it to be a name."""
    known = [c for c in cands if "lexicon" in c.sources and c.type in _NARROWING_TYPES]
    if not known:
        return set()
    return {
        id(c) for c in cands
        if c.type in _NARROWING_TYPES and "chunk" in c.sources and "lexicon" not in c.sources
        # "average or max pooling" names two methods
        and not _COORDINATED.search(c.text)
        and any(k.type == c.type and c.start <= k.start and k.end <= c.end
                and k.end - k.start < c.end - c.start
                # "the convolutional neural network architecture" is the known name's wording
                and c.text not in k.aliases
                # a task is narrowed by words in front ("video face recognition"); words after
                # it name something else ("the face recognition community")
                and (c.type != "task" or k.end == c.end)
                # "the text classifier fastText", "a vanilla Transformer": a description, then
                # the name
                and not (k.end == c.end and classify.is_name_shaped(k.text))
                for k in known)
    }


def _resolve_overlaps(cands: list[Candidate]) -> list[Candidate]:
    """Within a type, of overlapping candidates keep the one with the best kind of evidence
    (a phrase that narrows a known name, a known or defined name, then a coined name, then a
    phrase), then the longer one."""
    kept: list[Candidate] = []
    taken: dict[str, list[tuple[int, int]]] = {}
    narrower = _narrower(cands)
    for c in sorted(cands, key=lambda c: (-(3 if id(c) in narrower else _tier(c)),
                                          -(c.end - c.start), -c.confidence, c.start)):
        spans = taken.setdefault(c.type, [])
        if any(c.start < e and s < c.end for s, e in spans):
            continue
        spans.append((c.start, c.end))
        kept.append(c)
    # a part of a longer known name of another type is not a name of its own: the "CNN" of
    # "CNN and Daily Mail"
    known = [(c.start, c.end, c.type) for c in kept
             if "lexicon" in c.sources or "lexicon-variant" in c.sources]
    kept = [c for c in kept
            if not any(s <= c.start and c.end <= e and e - s > c.end - c.start and t != c.type
                       for s, e, t in known)]
    kept.sort(key=lambda c: (c.start, c.end, c.type))
    return kept
