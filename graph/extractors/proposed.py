"""Whether an abstract presents a candidate as its own contribution: the context cue the learned
scorer reads (`in_contribution_context`) and the stricter test for a *name* the paper introduces
(`is_proposed`, which becomes pkg:proposes)."""

from __future__ import annotations

import re

from graph.extractors import classify
from graph.extractors.phrases import NAMING_VERBS
from graph.extractors.spans import Draft
from graph.extractors.tokens import Tokens

_PROPOSE_VERBS = frozenset(
    "propose introduce present develop design devise build create construct formulate offer "
    "contribute release collect curate establish describe".split()
)
_OWN_SUBJECTS = frozenset("we i paper work article study letter".split())
_NOVEL = frozenset("novel new".split())
_OWN_MARKERS = frozenset("our proposed".split())

_CLIMB_DEPS = frozenset({"conj", "appos", "compound", "amod", "nmod"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_PAPER_WORDS = frozenset({"paper", "work"})
# A Token is a new object on every access, so `tok.head is not tok` never held back a climb:
# a root climbs onto itself, as before.


def in_contribution_context(d: Draft) -> bool:
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
    if dep[tok] in {"oprd", "xcomp", "dobj", "attr"} and t.lemma_lower[head] in NAMING_VERBS:
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
_ADJECTIVE_TAILS = (
    "-like", "-based", "-style", "-inspired", "-driven", "-aware", "-free", "-specific",
)
# a citation key left in converted text: "bellemare2017distributional"
_CITATION = re.compile(r"^[a-z]+\d{4}[a-z]*$")
_NAMING_LEADS = (
    "refer to as", "referred to as", "refer to it as", "called", "named", "dubbed", "termed",
    "coined", "we call", "we name", "we term", "we dub",
)
# "our VQA demo", "our code": artefacts of the work, not what it proposes
_ARTEFACTS = frozenset("demo code website webpage page repository implementation toolkit".split())
# "a super-resolution method (SR)": a defined acronym on a description is not a coined name
_KIND_HEADS = frozenset(
    "method approach technique model system algorithm framework scheme strategy".split()
)
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


def _naming_cue(d: Draft) -> bool:
    """The abstract gives the span as a name: "called X", "we refer to as X", "the task of X",
    "a new framework, X" under an own proposal verb, or a quoted term it introduces."""
    t, start, end = d.tokens, d.start, d.end
    dep, lower, lemma, heads = t.dep, t.lower, t.lemma_lower, t.head
    tok = d.root
    head = heads[tok]
    if dep[tok] in _NAMED_DEPS and lemma[head] in NAMING_VERBS:
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


def _own_cue(d: Draft, *, climb: bool = True) -> bool:
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


def _result_subject(d: Draft) -> bool:
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


def _baseline_or_number(d: Draft) -> bool:
    t, start = d.tokens, d.start
    tok = d.root
    if t.dep[tok] == "pobj" and t.lower[t.head[tok]] in _BASELINE_PREPS:
        return True
    if t.dep[tok] == "dobj" and t.lemma_lower[t.head[tok]] in _BASELINE_VERBS:
        return True
    if start > 0 and t.lower[start - 1] in _BASELINE_PREPS:
        return True
    return t.like_num[start] or t.pos[start] == "NUM"


def _is_name(d: Draft) -> bool:
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


def is_proposed(d: Draft) -> bool:
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


def _own_sentence(d: Draft) -> bool:
    t, start = d.tokens, d.start
    verbs = [
        v for v in range(t.sent_first[start], t.sent_end[start])
        if t.pos[v] == "VERB" and t.lemma_lower[v] in _PROPOSE_VERBS
    ]
    return any(
        _own_subject(t, v) and any(t.lower[c] in _OWN_SUBJECTS for c in t.kids[v]) for v in verbs
    )
