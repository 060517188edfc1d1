"""Plain text lists: abstracts separated by blank lines, an optional title line first."""

from __future__ import annotations

import re

from graph.corpus.records import Parsed
from graph.corpus.text import clean
from graph.errors import InputError

#: A title is one short line with no sentence end: CJK full stops anywhere, or . ! ? …
#: (perhaps before closing quotes/brackets) followed by a space or the end of the line.
_SENTENCE_END = re.compile(r"[。！？]|[.!?…][\"'”’)\]]*(?:\s|$)")
MAX_TITLE_CHARS = 200


def is_title(paragraph: str) -> bool:
    line = paragraph.strip()
    return (
        "\n" not in line
        and len(line) <= MAX_TITLE_CHARS
        and _SENTENCE_END.search(line) is None
    )


def paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each run of non-blank lines; lines are kept verbatim."""
    found: list[tuple[int, str]] = []
    lines: list[str] = []
    start = 0
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line)
        elif lines:
            found.append((start, "\n".join(lines)))
            lines = []
    if lines:
        found.append((start, "\n".join(lines)))
    return found


def read_txt(text: str, path: str, max_chars: int) -> Parsed:
    blocks = paragraphs(text)
    parsed = Parsed(kind="text")
    if blocks and is_title(blocks[0][1]):
        _, title = blocks.pop(0)
        parsed.title = clean(title).strip() or None
        if not blocks:
            raise InputError(f'{path}: no abstracts found (only the title line "{parsed.title}")')
    for line, block in blocks:
        parsed.add({"abstract": block}, path=path, line=line, where=f"{path}: line {line}",
                   max_chars=max_chars, default_venue=parsed.title)
    return parsed
