"""The N-Triples / N-Quads text writer: terms written as the exact bytes pyoxigraph writes for
them (its escapes, canonical literals), with no Quad objects.

The build's fast path writes a paper's facts straight as these lines (graph.rdf.paper_text)
and bulk loads them; graph.rdf.quads builds the same facts as Quad objects, the reference the
tests hold these lines to.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal

from pyoxigraph import NamedNode, Quad

from graph.rdf.literals import canonical_decimal, confidence
from graph.rdf.terms import (
    ABOUT,
    CLAIM,
    CLAIM_KIND,
    CONFIDENCE,
    DC_ABSTRACT,
    DC_CREATOR,
    DC_IDENTIFIER,
    DC_ISSUED,
    DC_TITLE,
    HAS_RESULT,
    HIGHER_IS_BETTER,
    IN_DOMAIN,
    MAKES_CLAIM,
    OA_ANNOTATION,
    OA_BODY,
    OA_END,
    OA_EXACT,
    OA_POSITION,
    OA_QUOTE,
    OA_SELECTOR,
    OA_SOURCE,
    OA_SPECIFIC,
    OA_START,
    OA_TARGET,
    PAPER,
    PROV_ACTIVITY,
    PROV_GENERATED_BY,
    PROV_SOFTWARE_AGENT,
    RDFS_LABEL,
    RESULT,
    SCHEMA_CLAIM,
    SCHEMA_KEYWORDS,
    SCHEMA_PART_OF,
    SCHEMA_SAME_AS,
    SCHEMA_TEXT,
    SCHEMA_URL,
    SCHOLARLY_ARTICLE,
    SKOS_CONCEPT,
    SUPPORT,
    UNIT,
    VALUE,
    XSD_ANYURI,
    XSD_BOOLEAN,
    XSD_DECIMAL,
    XSD_INTEGER,
    A,
)
from graph.vocab import extractor_iri

#: N-Triples escapes, as Oxigraph writes them: the named ones, \uXXXX for other controls.
_ESCAPES = {i: f"\\u{i:04X}" for i in (*range(0x20), 0x7F)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r",
                 ord('"'): '\\"', ord("\\"): "\\\\"})
_NEEDS_ESCAPE = frozenset(chr(i) for i in _ESCAPES)


def nt_string(value: str) -> str:
    """A plain (xsd:string) literal in N-Triples syntax."""
    if _NEEDS_ESCAPE.isdisjoint(value):
        return f'"{value}"'
    return f'"{value.translate(_ESCAPES)}"'


def nt(node: NamedNode) -> str:
    """A NamedNode in N-Triples syntax."""
    return f"<{node.value}>"


def nt_iri(value: str) -> str:
    """An IRI in N-Triples syntax; ValueError for one a store would refuse."""
    if not _IRI_OK.match(value):
        NamedNode(value)  # raises ValueError naming what is wrong
    return f"<{value}>"


_IRI_OK = re.compile(r"^[a-z][a-z0-9+.\-]*:[^<>\"{}|^`\\\x00-\x20]*$")

NT_A, NT_LABEL, NT_SUPPORT = nt(A), nt(RDFS_LABEL), nt(SUPPORT)
#: The IRIs the lines use, in N-Triples syntax once.
NT_ABOUT = nt(ABOUT)
NT_CLAIM = nt(CLAIM)
NT_CLAIM_KIND = nt(CLAIM_KIND)
NT_CONFIDENCE = nt(CONFIDENCE)
NT_DC_ABSTRACT = nt(DC_ABSTRACT)
NT_DC_CREATOR = nt(DC_CREATOR)
NT_DC_IDENTIFIER = nt(DC_IDENTIFIER)
NT_DC_ISSUED = nt(DC_ISSUED)
NT_DC_TITLE = nt(DC_TITLE)
NT_HAS_RESULT = nt(HAS_RESULT)
NT_IN_DOMAIN = nt(IN_DOMAIN)
NT_MAKES_CLAIM = nt(MAKES_CLAIM)
NT_OA_ANNOTATION = nt(OA_ANNOTATION)
NT_OA_BODY = nt(OA_BODY)
NT_OA_END = nt(OA_END)
NT_OA_EXACT = nt(OA_EXACT)
NT_OA_POSITION = nt(OA_POSITION)
NT_OA_QUOTE = nt(OA_QUOTE)
NT_OA_SELECTOR = nt(OA_SELECTOR)
NT_OA_SOURCE = nt(OA_SOURCE)
NT_OA_SPECIFIC = nt(OA_SPECIFIC)
NT_OA_START = nt(OA_START)
NT_OA_TARGET = nt(OA_TARGET)
NT_PAPER = nt(PAPER)
NT_PROV_ACTIVITY = nt(PROV_ACTIVITY)
NT_PROV_GENERATED_BY = nt(PROV_GENERATED_BY)
NT_PROV_SOFTWARE_AGENT = nt(PROV_SOFTWARE_AGENT)
NT_RESULT = nt(RESULT)
NT_SCHEMA_CLAIM = nt(SCHEMA_CLAIM)
NT_SCHEMA_KEYWORDS = nt(SCHEMA_KEYWORDS)
NT_SCHEMA_PART_OF = nt(SCHEMA_PART_OF)
NT_SCHEMA_TEXT = nt(SCHEMA_TEXT)
NT_SCHEMA_URL = nt(SCHEMA_URL)
NT_SCHEMA_SAME_AS = nt(SCHEMA_SAME_AS)
NT_SCHOLARLY_ARTICLE = nt(SCHOLARLY_ARTICLE)
NT_SKOS_CONCEPT = nt(SKOS_CONCEPT)
NT_UNIT = nt(UNIT)
NT_HIGHER_IS_BETTER = nt(HIGHER_IS_BETTER)
NT_TRUE, NT_FALSE = (f'"{v}"^^{nt(XSD_BOOLEAN)}' for v in ("true", "false"))
NT_VALUE = nt(VALUE)
NT_XSD_ANYURI = nt(XSD_ANYURI)
_XSD_INTEGER, _XSD_DECIMAL = nt(XSD_INTEGER), nt(XSD_DECIMAL)


@functools.lru_cache(maxsize=256)
def nt_extractor(name: str) -> str:
    return nt_iri(extractor_iri(name))


def nt_integer(value: int) -> str:
    return f'"{int(value)}"^^{_XSD_INTEGER}'


@functools.lru_cache(maxsize=4096)
def nt_confidence(value: float) -> str:
    return str(confidence(value))


def nt_decimal(value: Decimal | float | int | str) -> str:
    return f'"{canonical_decimal(value)}"^^{_XSD_DECIMAL}'


def quad_line(quad: Quad) -> str:
    """One Quad as an N-Quads line (pyoxigraph's own syntax)."""
    return f"{quad} .\n"
