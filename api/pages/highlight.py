"""Abstracts with their extracted mentions marked, as well-formed, escaped HTML."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from .common import TYPE_NAMES, iri, ref_of, select


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    type: str
    title: str
    ref: str = ""


def highlight(text: str, spans: Sequence[Span]) -> Markup:
    """`text` escaped, each span wrapped in `<mark class="m-{type}">`, nested properly.

    Spans may nest or cross: a span that crosses a boundary of a span opened after it is
    closed there and reopened, so the HTML is always well formed. Spans outside the text or
    empty are left out.
    """
    good = sorted(
        (s for s in spans if 0 <= s.start < s.end <= len(text)),
        key=lambda s: (s.start, -s.end, s.type, s.ref),
    )
    bounds = sorted({0, len(text)} | {s.start for s in good} | {s.end for s in good})
    starts: dict[int, list[Span]] = defaultdict(list)
    for span in good:
        starts[span.start].append(span)
    out: list[str] = []
    stack: list[Span] = []

    def open_tag(span: Span) -> str:
        return (
            f'<mark class="m m-{escape(span.type)}" data-type="{escape(span.type)}"'
            f' data-ref="{escape(span.ref)}" title="{escape(span.title)}">'
        )

    for i, pos in enumerate(bounds):
        ending = [k for k, s in enumerate(stack) if s.end <= pos]
        if ending:
            lowest = ending[0]
            reopen = [s for s in stack[lowest:] if s.end > pos]
            out.append("</mark>" * (len(stack) - lowest))
            del stack[lowest:]
            for span in reopen:
                out.append(open_tag(span))
                stack.append(span)
        for span in starts.get(pos, ()):  # longest first: it nests the others
            out.append(open_tag(span))
            stack.append(span)
        if i + 1 < len(bounds):
            out.append(str(escape(text[pos : bounds[i + 1]])))
    out.append("</mark>" * len(stack))
    return Markup("".join(out))


def mention_spans(paper: str) -> list[Span]:
    rows = select(f"""
SELECT ?body ?start ?end ?confidence ?label WHERE {{
  GRAPH ?g {{
    ?a a oa:Annotation ; oa:hasBody ?body ; oa:hasTarget ?t .
    ?t oa:hasSource {iri(paper)} ; oa:hasSelector ?s .
    ?s a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end .
    OPTIONAL {{ ?a pkg:confidence ?confidence }}
  }}
  OPTIONAL {{ ?body rdfs:label ?label }}
}}""")
    spans: dict[tuple[str, int, int], Span] = {}
    for row in rows:
        try:
            start, end = int(row["start"] or ""), int(row["end"] or "")
        except ValueError:
            continue
        body = row["body"] or ""
        ref = ref_of(body)
        type_ = ref[0] if ref else "other"
        name = TYPE_NAMES.get(type_, "Mention")
        label = row["label"] if type_ not in ("claim", "result") else None
        title = f"{name}: {label}" if label else name
        if row["confidence"]:
            title += f" (confidence {row['confidence']})"
        spans.setdefault((body, start, end),
                         Span(start, end, type_, title, f"{ref[0]}/{ref[1]}" if ref else ""))
    return list(spans.values())
