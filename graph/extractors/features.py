"""What the learned scorer sees of a candidate span: its evidence, its words and their context."""

from __future__ import annotations

from graph.extractors import classify
from graph.extractors.proposed import in_contribution_context
from graph.extractors.spans import Draft, combine


def features(d: Draft) -> dict[str, float]:
    """What the learned scorer sees of a candidate: its evidence, its words and their context."""
    t, start, end = d.tokens, d.start, d.end
    lower, lemma, pos = t.lower, t.lemma_lower, t.pos
    f: dict[str, float] = {"bias": 1.0}
    for etype, vals in d.evidence.items():
        f[f"ev:{etype}"] = combine(vals)
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
    if in_contribution_context(d):
        f["proposed"] = 1.0
    # a name is written again where a passing description seldom is
    f[f"rep:{min(repeats(t.doc_lower, text), 3)}"] = 1.0
    return f


def repeats(doc_lower: str, text: str) -> int:
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
