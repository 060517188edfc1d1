"""A typed candidate's text without an unbalanced bracket and its label without TeX residue."""

from __future__ import annotations

import re
from dataclasses import replace

from graph.extractors.spans import Candidate

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
    label: str | None = clean_label(c.label or text)
    label = None if label == text else label
    if text == c.text and label == c.label:
        return c
    aliases = tuple(a for a in c.aliases if a != (label or text))
    if label and text not in aliases:
        aliases = (text, *aliases)
    return replace(c, start=start, end=start + len(text), text=text, label=label, aliases=aliases)
