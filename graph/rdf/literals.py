"""Literals and IRIs in the canonical form Oxigraph stores them in ("92.5", not "92.50";
xsd:integer offsets; confidences to 3 places), so quads read back from a store equal the quads
written.
"""

from __future__ import annotations

import functools
import re
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from pyoxigraph import Literal, NamedNode

from graph.rdf.terms import XSD_DECIMAL, XSD_GYEAR, XSD_INTEGER


def text(value: str) -> Literal:
    return Literal(value)


@functools.lru_cache(maxsize=8192)
def integer(value: int) -> Literal:
    return Literal(str(int(value)), datatype=XSD_INTEGER)


def canonical_decimal(value: Decimal | float | int | str) -> str:
    """The lexical form Oxigraph keeps for an xsd:decimal: no exponent, no trailing zeros."""
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"not a decimal number: {value!r}") from None
    if not number.is_finite():
        raise ValueError(f"not a finite decimal number: {value!r}")
    lexical = format(number, "f")
    if "." in lexical:
        lexical = lexical.rstrip("0").rstrip(".")
    return "0" if lexical in ("-0", "") else lexical


def decimal(value: Decimal | float | int | str) -> Literal:
    return Literal(canonical_decimal(value), datatype=XSD_DECIMAL)


@functools.lru_cache(maxsize=4096)
def confidence(value: float) -> Literal:
    """A confidence rounded to 3 places."""
    rounded = Decimal(repr(float(value))).quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)
    return decimal(rounded)


def year(value: int) -> Literal:
    sign = "-" if value < 0 else ""
    return Literal(f"{sign}{abs(value):04d}", datatype=XSD_GYEAR)


@functools.lru_cache(maxsize=4096)
def iri(value: str) -> NamedNode:
    """A NamedNode, made once for the IRIs that recur (entities, extractors)."""
    return NamedNode(value)


#: What a path segment of an IRI cannot hold as it is (RFC 3987 and N-Triples): percent-encoded
#: in `iri_part`. "?" and "#" would start a query or a fragment and "[" "]" are only for hosts; a
#: non-ASCII character is kept only where RFC 3987's `ucschar` allows it.
_IRI_UNSAFE = re.compile(
    r'[<>"{}|^`\\\x00-\x20\x7f-\x9f\[\]#?\ud800-\uf8ff\ufdd0-\ufdef\ufff0-\uffff]'
    r'|[\U0001fffe-\U0001ffff\U0002fffe-\U0002ffff\U0003fffe-\U0003ffff\U0004fffe-\U0004ffff'
    r'\U0005fffe-\U0005ffff\U0006fffe-\U0006ffff\U0007fffe-\U0007ffff\U0008fffe-\U0008ffff'
    r'\U0009fffe-\U0009ffff\U000afffe-\U000affff\U000bfffe-\U000bffff\U000cfffe-\U000cffff'
    r'\U000dfffe-\U000dffff\U000e0000-\U000e0fff\U000efffe-\U0010ffff]'
    r'|%(?![0-9A-Fa-f]{2})')


def iri_part(text: str) -> str:
    """`text` (a DOI, say) as a piece of an IRI: characters an IRI cannot hold percent-encoded."""
    return _IRI_UNSAFE.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "surrogatepass")), text)
