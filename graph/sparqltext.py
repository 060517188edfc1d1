"""SPARQL text as a person wrote it: its tokens, its prologue, and syntax errors they can act on.

`tokens(text)` splits a query into the terminals of the SPARQL 1.1 grammar (§19.8: IRIs,
prefixed names, variables, literals, keywords, punctuation), skipping white space and comments,
each with its line and column in the text as given. Keywords are told apart from prefixed
names, variables, blank nodes and language tags, and nothing inside an IRI, a string or a
comment is a keyword, so a caller can look for `SERVICE` or `FROM` without being fooled by a
variable `?from` or a comment.

`explain(text, message)` turns the parser's message (pyoxigraph's "error at 1:26: expected
one of ...", which lists Unicode ranges) into one line a person can act on: an undeclared
prefix names the `PREFIX` line to add, a first word that is no query form says so, and the
position is the line and column in the text as given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.vocab import PREFIXES

QUERY_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")
UPDATE_KEYWORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY",
                   "WITH")

# PN_CHARS_BASE of the grammar (§19.8), as a character class body.
_BASE = ("A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
         "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff")
_U = _BASE + "_"
_CHARS = _U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_PREFIX = f"[{_BASE}](?:[{_CHARS}.]*[{_CHARS}])?"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_LOCAL = (f"(?:[{_U}:0-9]|{_PLX})(?:(?:[{_CHARS}.:]|{_PLX})*(?:[{_CHARS}:]|{_PLX}))?")
_ECHAR = r"\\[tbnrf\\\"']"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"

# Tried in order at each position; the first that matches wins (the grammar's longest-match
# rule only matters between these where one is a prefix of another, ordered accordingly).
_TOKEN = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in (
    ("space", r"[ \t\r\n]+"),
    ("comment", r"#[^\r\n]*"),
    ("iri", r'<(?:[^<>"{}|^`\\\x00-\x20]|' + _UCHAR + ")*>"),
    ("long_string", "'''(?:(?:'|'')?(?:[^'\\\\]|" + _ECHAR + "|" + _UCHAR + "))*'''"
     '|"""(?:(?:"|"")?(?:[^"\\\\]|' + _ECHAR + "|" + _UCHAR + '))*"""'),
    ("string", "'(?:[^'\\\\\\n\\r]|" + _ECHAR + "|" + _UCHAR + ")*'"
     '|"(?:[^"\\\\\\n\\r]|' + _ECHAR + "|" + _UCHAR + ')*"'),
    ("var", f"[?$](?:[{_U}0-9])(?:[{_U}0-9\\u00b7\\u0300-\\u036f\\u203f-\\u2040])*"),
    ("blank", f"_:(?:[{_U}0-9])(?:[{_CHARS}.]*[{_CHARS}])?"),
    ("pname", f"(?:{_PREFIX})?:(?:{_LOCAL})?"),
    ("langtag", r"@[A-Za-z]+(?:-[A-Za-z0-9]+)*"),
    ("number", r"[0-9]+\.[0-9]*[eE][+-]?[0-9]+|\.[0-9]+[eE][+-]?[0-9]+|[0-9]+[eE][+-]?[0-9]+"
     r"|[0-9]*\.[0-9]+|[0-9]+"),
    # A keyword may be spelt with code point escapes (§19.2 applies them before parsing).
    ("word", rf"(?:[A-Za-z]|{_UCHAR})(?:[A-Za-z0-9_]|{_UCHAR})*"),
    ("punct", r"\^\^|&&|\|\||!=|<=|>=|[{}()\[\],;.=<>!+\-*/^|?]"),
)))


@dataclass(frozen=True)
class Token:
    kind: str  # iri, string, var, blank, pname, langtag, number, word, punct, other
    text: str
    line: int  # 1-based
    column: int  # 1-based, in characters

    @property
    def keyword(self) -> str | None:
        """The upper-cased keyword when this token is a bare word (SELECT, FROM, a, ...),
        its code point escapes applied."""
        if self.kind != "word":
            return None
        if "\\" in self.text:
            return _ESCAPE.sub(lambda m: chr(int(m.group(0)[2:], 16)), self.text).upper()
        return self.text.upper()


def tokens(text: str) -> list[Token]:
    """The tokens of `text` without white space and comments. A character that starts no
    token of the grammar becomes a one-character token of kind "other"."""
    found: list[Token] = []
    line, line_start, position = 1, 0, 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            kind, end = "other", position + 1
        else:
            kind, end = match.lastgroup or "other", match.end()
        if kind not in {"space", "comment"}:
            found.append(Token(kind, text[position:end], line, position - line_start + 1))
        newlines = text.count("\n", position, end)
        if newlines:
            line += newlines
            line_start = text.rindex("\n", position, end) + 1
        position = end
    return found


@dataclass(frozen=True)
class Prologue:
    """BASE and PREFIX declarations at the start of a query, and where the query proper
    begins (`start`: an index into its tokens)."""

    prefixes: dict[str, str]  # prefix (without the colon) -> IRI as written
    start: int


def prologue(found: list[Token]) -> Prologue:
    prefixes: dict[str, str] = {}
    index = 0
    while index < len(found):
        word = found[index].keyword
        if word == "BASE" and index + 1 < len(found) and found[index + 1].kind == "iri":
            index += 2
        elif (word == "PREFIX" and index + 2 < len(found) and found[index + 1].kind == "pname"
              and found[index + 1].text.endswith(":") and found[index + 2].kind == "iri"):
            prefixes[found[index + 1].text[:-1]] = found[index + 2].text[1:-1]
            index += 3
        else:
            break
    return Prologue(prefixes, index)


def first_keyword(found: list[Token]) -> Token | None:
    """The token after the prologue: a query form or an update keyword in a valid text."""
    start = prologue(found).start
    return found[start] if start < len(found) else None


def undeclared_prefix(found: list[Token]) -> Token | None:
    """The first prefixed name whose prefix no PREFIX declaration before it declares."""
    declared: set[str] = set()
    index = 0
    while index < len(found):
        token = found[index]
        if (token.keyword == "PREFIX" and index + 1 < len(found)
                and found[index + 1].kind == "pname"):
            declared.add(found[index + 1].text.split(":", 1)[0])
            index += 2
            continue
        if token.kind == "pname" and token.text.split(":", 1)[0] not in declared:
            return token
        index += 1
    return None


_ESCAPE = re.compile(_UCHAR)
_POSITION = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)
# Character classes in the parser's list of what it expected ("['A' ..= 'Z' | ...]").
_CLASS = re.compile(r"\[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]")
_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|[^,]+')


def _near(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    rest = lines[line - 1][max(column - 1, 0):].strip()
    if not rest:
        return " (at the end of the line)" if line < len(lines) else " (at the end of the query)"
    return f" near {rest[:30]!r}"


def _expected(listing: str) -> str:
    """The parser's "expected ..." list without character classes, in a few words."""
    listing = _CLASS.sub("", " ".join(listing.split())).removeprefix("one of ")
    words = [w.strip() for w in _ITEM.findall(listing)]
    words = [w for w in words if w and not w.startswith("[")]
    if not words:
        return "a name, a variable or punctuation"
    shown = ", ".join(words[:8]) + (", ..." if len(words) > 8 else "")
    return shown if len(words) == 1 else "one of " + shown


def explain(text: str, message: str, *, known: dict[str, str] | None = None,
            shift: int = 0) -> str:
    """One line for a query that did not parse: what is wrong, where (line and column in
    `text`), and how to fix it when that is clear. `message` is the parser's own; `shift`
    characters were put before `text`'s first line when it was parsed."""
    known = PREFIXES if known is None else known
    found = tokens(text)
    missing = undeclared_prefix(found)
    if missing is not None and ("Prefix not found" in message or "prefix" in message.lower()):
        prefix = missing.text.split(":", 1)[0]
        iri = known.get(prefix, "...")
        return (f"line {missing.line}, column {missing.column}: prefix {prefix}: is not "
                f"declared — add PREFIX {prefix}: <{iri}>")
    head = first_keyword(found)
    if head is None:
        return "the query is empty: write SELECT, ASK, CONSTRUCT or DESCRIBE"
    if head.keyword not in QUERY_FORMS:
        return (f"line {head.line}, column {head.column}: expected SELECT, ASK, CONSTRUCT or "
                f"DESCRIBE (after any PREFIX and BASE lines), found {head.text[:30]!r}")
    match = _POSITION.search(message)
    if match is None:
        return "syntax error: " + " ".join(message.split())
    line, column = int(match.group(1)), int(match.group(2))
    if line == 1:
        column = max(1, column - shift)
    detail = " ".join(match.group(3).split())
    if detail.startswith("expected "):
        detail = "expected " + _expected(detail[len("expected "):])
    return f"line {line}, column {column}: syntax error{_near(text, line, column)}: {detail}"


def with_prefixes(query: str) -> str:
    """`query` with a PREFIX line for each of the project's prefixes it uses but does not
    declare, so that a page shows the whole query (its line numbers are the ones the endpoint
    reports)."""
    found = tokens(query)
    declared = {found[n + 1].text.split(":", 1)[0] for n, token in enumerate(found[:-1])
                if token.keyword == "PREFIX"}
    used = {token.text.split(":", 1)[0] for token in found if token.kind == "pname"}
    missing = [name for name in PREFIXES if name in used - declared]
    return "".join(f"PREFIX {name}: <{PREFIXES[name]}>\n" for name in missing) + query
