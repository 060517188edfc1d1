"""The pipeline's attribute rules (tag map and exceptions), matched through an index.

spaCy's `AttributeRuler` finds its matches with a `Matcher`, which tries every one of its
patterns (179 in the English pipelines) at every token. On abstracts that took longer than the
parser. Nearly all of those patterns are one token with an exact tag or word, so an index from
tag, word and dependency label to the patterns that ask for it finds the same matches while
trying only a few patterns per token. The ruler itself, its rules and its way of applying the
matches stay as they are: only `match` is replaced, and only where every pattern is of a kind
the index reads; any other pattern leaves the ruler on its Matcher.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from spacy.attrs import DEP, IS_SPACE, LOWER, TAG
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc
from spacy.vocab import Vocab

#: Keys, most selective first, whose exact values (or IN lists) a pattern is filed under
_INDEX_KEYS = ("LOWER", "TAG", "DEP")
_ROW_COLUMN = {"TAG": 0, "LOWER": 1, "DEP": 2}

# A token's row: its hashes of tag, lower-case form and dependency, its lower-case text and
# whether it is white space
_Row = tuple[int, int, int, str, bool]
_Test = Callable[[_Row], bool]


class UnsupportedPattern(ValueError):
    """A pattern uses a key or operator the index does not read."""


def _value_test(key: str, spec, strings) -> _Test:
    column = _ROW_COLUMN.get(key)
    if key == "IS_SPACE":
        if not isinstance(spec, bool):
            raise UnsupportedPattern(f"IS_SPACE {spec!r}")
        return lambda row: row[4] is spec
    if column is None:
        raise UnsupportedPattern(f"key {key!r}")
    if isinstance(spec, str):
        h = strings.add(spec) if spec else 0
        return lambda row: row[column] == h
    if not isinstance(spec, dict) or len(spec) != 1:
        raise UnsupportedPattern(f"{key} {spec!r}")
    (op, value), = spec.items()
    if op in ("IN", "NOT_IN"):
        hashes = frozenset(strings.add(v) if v else 0 for v in value)
        if op == "IN":
            return lambda row: row[column] in hashes
        return lambda row: row[column] not in hashes
    if op == "REGEX" and key == "LOWER":
        search = re.compile(value).search
        return lambda row: search(row[3]) is not None
    raise UnsupportedPattern(f"{key} {op}")


def _token_test(token_spec: dict, strings) -> _Test:
    tests = [_value_test(key, spec, strings) for key, spec in token_spec.items()]
    if len(tests) == 1:
        return tests[0]
    return lambda row: all(test(row) for test in tests)


def _index_values(token_spec: dict, strings) -> tuple[int, list[int]] | None:
    """The column and hashes a pattern's first token can be filed under, or None."""
    for key in _INDEX_KEYS:
        spec = token_spec.get(key)
        if isinstance(spec, str):
            return _ROW_COLUMN[key], [strings.add(spec) if spec else 0]
        if isinstance(spec, dict) and set(spec) == {"IN"}:
            return _ROW_COLUMN[key], [strings.add(v) if v else 0 for v in spec["IN"]]
    return None


class IndexedMatch:
    """A stand-in for `AttributeRuler.match` that gives the same sorted matches."""

    def __init__(self, patterns: list[dict], vocab: Vocab):
        # kept so that it pickles as what it is built from (spaCy's multiprocessing pickles
        # the pipeline where processes are spawned): the tests built below are closures,
        # which pickle cannot carry
        self._patterns, self._vocab = patterns, vocab
        strings = vocab.strings
        # (rule id, its key in the StringStore, the tests of its tokens in order)
        self._indexed: list[dict[int, list]] = [{}, {}, {}]
        self._scan: list[tuple[int, int, list[_Test]]] = []
        for rule_id, rule in enumerate(patterns):
            key = strings[str(rule_id)]
            for pattern in rule["patterns"]:
                if not pattern or any(not isinstance(t, dict) or "OP" in t for t in pattern):
                    raise UnsupportedPattern(f"rule {rule_id}: {pattern!r}")
                entry = (rule_id, key, [_token_test(t, strings) for t in pattern])
                filed = _index_values(pattern[0], strings)
                if filed is None:
                    self._scan.append(entry)
                else:
                    column, values = filed
                    for value in values:
                        self._indexed[column].setdefault(value, []).append(entry)

    def __reduce__(self):
        return IndexedMatch, (self._patterns, self._vocab)

    def __call__(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        n = len(doc)
        if not n:
            return []
        columns = doc.to_array([TAG, LOWER, DEP, IS_SPACE]).tolist()
        strings = doc.vocab.strings
        rows: Sequence[_Row] = [
            (tag, lower, dep, strings[lower], space == 1) for tag, lower, dep, space in columns
        ]
        by_tag, by_lower, by_dep = self._indexed
        scan = self._scan
        empty: list = []
        matches = set()
        for i, row in enumerate(rows):
            for entries in (by_tag.get(row[0], empty), by_lower.get(row[1], empty),
                            by_dep.get(row[2], empty), scan):
                for rule_id, key, tests in entries:
                    if len(tests) == 1:
                        if tests[0](row):
                            matches.add((rule_id, key, i, i + 1))
                        continue
                    end = i + len(tests)
                    if end <= n and all(test(rows[i + k]) for k, test in enumerate(tests)):
                        matches.add((rule_id, key, i, end))
        return sorted(matches)


def unindex_attribute_ruler(ruler: AttributeRuler) -> None:
    """Give `ruler` back spaCy's own, Matcher-based `match`."""
    vars(ruler).pop("match", None)


def index_attribute_ruler(ruler: AttributeRuler) -> bool:
    """Make `ruler` find its matches through an index; False (and no change) where one of its
    patterns is of a kind the index does not read."""
    try:
        # replaced on this instance only, by design: the ruler applies what it matches as before
        ruler.match = IndexedMatch(ruler.patterns, ruler.vocab)  # type: ignore[method-assign]
    except UnsupportedPattern:
        return False
    return True
