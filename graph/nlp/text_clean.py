"""Text as a reader sees it: whitespace collapsed, LaTeX read as text, with a map back.

`collapse` is for labels (one line, single spaces). `readable` turns an abstract into the
text extraction parses and pages show: inline math without its dollars (``$4.4$`` -> 4.4),
escaped characters unescaped (``\\%`` -> %), text-style commands reduced to their argument
(``\\emph{two}`` and ``{\\em two}`` -> two), one-letter accents and the letters of
other alphabets made Unicode (``\\'e`` -> é, ``\\L{}`` -> Ł), ``~`` and whitespace runs
made one space. Each character of the result knows the offset of the character of the
verbatim text it came from, so spans found in the readable text map back to the verbatim
abstract, which provenance offsets index.

Long abstracts: `cut_for_extraction` keeps the first `MAX_EXTRACTION_CHARS` characters,
ending at the last sentence end inside them.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace

from graph.model import ENTITY_TYPES, Mention

#: An abstract longer than this is cut at a sentence end for extraction (the build warns and
#: names the paper). Real abstracts run to about 3,000 characters; a 344,000-character one
#: took 218 s and 1.27 GB to extract.
MAX_EXTRACTION_CHARS = 20_000

_ANY_SPACE = re.compile(r"\s+")
#: LaTeX's one-letter accent commands -> the combining character each puts on its letter
COMBINING = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "k": "\u0328",
}
#: Commands whose argument is the text itself.
_TEXT_COMMANDS = ("emph", "textbf", "textit", "texttt", "textsc", "textrm", "textsf",
                  "underline", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "text",
                  "operatorname", "mbox")
#: Old-style font declarations, written inside the group they style: "{\\em new} results".
_DECLARATIONS = ("em", "it", "bf", "sl", "sc", "tt", "rm", "sf")
_SYMBOLS = {
    r"\times": "×", r"\cdot": "·", r"\pm": "±", r"\approx": "≈", r"\sim": "~", r"\leq": "≤",
    r"\le": "≤", r"\geq": "≥", r"\ge": "≥", r"\neq": "≠", r"\infty": "∞", r"\alpha": "α",
    r"\beta": "β", r"\gamma": "γ", r"\delta": "δ", r"\epsilon": "ε", r"\lambda": "λ",
    r"\mu": "μ", r"\sigma": "σ", r"\rightarrow": "→", r"\to": "→", r"\ldots": "…",
    r"\dots": "…", r"\%": "%", r"\&": "&", r"\_": "_", r"\#": "#", r"\$": "$", r"\{": "{",
    r"\}": "}",
}
#: LaTeX's commands for letters of other alphabets ("Polyak-\\L{}ojasiewicz"), longest first
_LETTERS = {"ss": "ß", "ae": "æ", "AE": "Æ", "aa": "å", "AA": "Å", "oe": "œ", "OE": "Œ",
            "L": "Ł", "l": "ł", "o": "ø", "O": "Ø", "i": "ı", "j": "ȷ"}
#: one of them, braced ("{\\L}") or ended by "{}", by spaces (which it eats) or by a non-letter
LETTER = (r"\{\\(?P<b>" + "|".join(_LETTERS) + r")\}|\\(?P<w>" + "|".join(_LETTERS)
          + r")(?:\{\}|\s+|(?![A-Za-z]))")
#: A one-letter accent command and its letter: groups mark, then the letter braced or bare.
ACCENT = r"""\\(?P<mark>["'`^~=.]|[cvuHk](?=[\s{]))\s*(?:\{(?P<l1>[A-Za-z])\}|(?P<l2>[A-Za-z]))"""
# One token the reader rewrites; anything else (a single space too) is copied as it is.
_TOKEN = re.compile(
    r"(?P<accent>" + ACCENT + ")"
    r"|(?P<letter>" + LETTER + ")"
    r"|(?P<command>\\(?P<name>" + "|".join(_TEXT_COMMANDS) + r")\s*\{)"
    r"|(?P<declaration>\{\\(?:" + "|".join(_DECLARATIONS) + r")(?![A-Za-z])\s*)"
    r"|(?P<symbol>" + "|".join(re.escape(s) for s in sorted(_SYMBOLS, key=len, reverse=True))
    + r")(?![A-Za-z])"
    r"|(?P<dollar>(?<!\\)\$)"
    r"|(?P<space>\s{2,}|[^\S ]|(?<=\S)~(?=\S))"
)
#: Inline math, as pandoc reads it: an unescaped dollar with no space after it, up to one with
#: no space before it and no digit after it; "costs $5 and $6" is money.
_INLINE_MATH = re.compile(r"(?<!\\)\$(?=\S)[^$]{1,300}?(?<=\S)(?<!\\)\$(?!\d)")


def collapse(text: str) -> str:
    """Whitespace runs (line breaks included) to one space, stripped."""
    return _ANY_SPACE.sub(" ", text).strip()


@dataclass(frozen=True)
class Readable:
    """`text`, with `starts[i]`/`ends[i]` the span of the verbatim text that `text[i]` was
    read from (one character, or a whole token such as ``\\'e`` or ``\\%``)."""

    text: str
    starts: Sequence[int]
    ends: Sequence[int]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """A span of `text` as the span of the verbatim text it was read from."""
        if end <= start:
            at = self.starts[start] if start < len(self.starts) else (
                self.ends[-1] if self.ends else 0)
            return at, at
        return self.starts[start], self.ends[end - 1]

    def find(self, start: int, end: int) -> tuple[int, int]:
        """The span of `text` read from the verbatim span [start, end): what a page shows of a
        mention whose provenance offsets point into the verbatim abstract."""
        first = bisect_left(self.starts, start)
        last = bisect_right(self.ends, end)
        return first, max(first, last)


def readable(text: str) -> Readable:
    """The abstract as text (see the module doc), with its offset map; identity when there is
    nothing to rewrite."""
    if "\\" not in text and "$" not in text and "~" not in text and "  " not in text \
            and "\n" not in text and "\t" not in text and text == text.strip():
        return Readable(text, range(len(text)), range(1, len(text) + 1))
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    closers: list[int] = []  # brace depth at which an open \emph{ ends
    depth = 0
    pos = 0
    opening = {m.start() for m in _INLINE_MATH.finditer(text)}
    closing = {m.end() - 1 for m in _INLINE_MATH.finditer(text)}
    # Dropped markup belongs to the words it wraps: an opening "$" or "\emph{" to the next
    # character read, a closing "$" or "}" to the last one, so "$m$-SGD" maps back whole.
    held: int | None = None

    def emit(chars: str, start: int, end: int) -> None:
        nonlocal held
        if held is not None:
            start, held = held, None
        out.append(chars)
        starts.extend([start] * len(chars))
        ends.extend([end] * len(chars))

    def emit_run(start: int, stop: int) -> None:
        nonlocal held
        if text[start] == " " and out and out[-1].endswith(" "):
            start += 1  # markup dropped between two spaces leaves one
        if start == stop:
            return
        out.append(text[start:stop])
        starts.extend(range(start, stop))
        ends.extend(range(start + 1, stop + 1))
        if held is not None:
            starts[-(stop - start)], held = held, None

    def close(end: int) -> None:
        if ends:
            ends[-1] = end

    while pos < len(text):
        match = _TOKEN.search(text, pos)
        stop = match.start() if match else len(text)
        if not closers and stop > pos:
            # plain text outside any \emph{...}: braces there close nothing of ours
            emit_run(pos, stop)
            pos = stop
        for i in range(pos, stop):
            char = text[i]
            if char == "{":
                depth += 1
            elif char == "}":
                if closers and closers[-1] == depth:
                    closers.pop()
                    depth -= 1
                    close(i + 1)
                    continue
                depth -= 1
            elif char == " " and out and out[-1].endswith(" "):
                continue
            emit(char, i, i + 1)
        if match is None:
            break
        if match.group("accent"):
            letter = match.group("l1") or match.group("l2")
            emit(unicodedata.normalize("NFC", letter + COMBINING[match.group("mark")]),
                 match.start(), match.end())
        elif match.group("command") or match.group("declaration"):
            depth += 1
            closers.append(depth)
            held = match.start() if held is None else held
        elif match.group("letter"):
            emit(_LETTERS[match.group("b") or match.group("w")], match.start(), match.end())
        elif match.group("symbol"):
            emit(_SYMBOLS[match.group("symbol")], match.start(), match.end())
        elif match.group("space"):
            if out and not out[-1].endswith(" "):
                emit(" ", match.start(), match.end())
        elif match.start() in opening:
            held = match.start() if held is None else held
        elif match.start() in closing:
            close(match.end())
        else:
            emit("$", match.start(), match.end())
        pos = match.end()
    joined = "".join(out)
    lead = len(joined) - len(joined.lstrip(" "))
    stop = len(joined.rstrip(" "))
    return Readable(joined[lead:stop], starts[lead:stop], ends[lead:stop])


_SENTENCE_END = re.compile(r"[.!?。！？][\"')\]”’]*\s")


def cut_for_extraction(text: str, limit: int = MAX_EXTRACTION_CHARS) -> str:
    """`text` itself when it is within `limit`, else its first `limit` characters cut back to
    the last sentence end in them (or at the limit, when no sentence ends there)."""
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit)]
    return text[: ends[-1]].rstrip() if ends else text[:limit]


def extraction_view(abstract: str, limit: int = MAX_EXTRACTION_CHARS) -> Readable:
    """What extraction parses of an abstract: `readable`, cut by `cut_for_extraction`."""
    view = readable(abstract)
    cut = cut_for_extraction(view.text, limit)
    if len(cut) == len(view.text):
        return view
    return Readable(cut, view.starts[: len(cut)], view.ends[: len(cut)])


def to_verbatim(mentions: list[Mention], view: Readable, abstract: str) -> list[Mention]:
    """Mentions found in `view.text` with their spans, and the results' spans, in `abstract`;
    each `text` becomes the verbatim words there (what provenance quotes)."""
    if view.text == abstract:
        return mentions
    mapped = []
    for mention in mentions:
        start, end = view.span(mention.start, mention.end)
        results = tuple(
            replace(result, start=r_start, end=r_end, text=abstract[r_start:r_end])
            for result in mention.results
            for r_start, r_end in (view.span(result.start, result.end),)
        )
        verbatim = abstract[start:end]
        # the name as read ("m-Synchronous SGD") stays the label of "$m$-Synchronous SGD"
        label = mention.label
        if label is None and mention.type in ENTITY_TYPES and verbatim != mention.text:
            label = mention.text
        mapped.append(replace(mention, start=start, end=end, text=verbatim, label=label,
                              results=results))
    return mapped
