"""The nodes of the graph `graph.network` answers questions about: papers and entities, their
types and link names, and their ids ("type/slug" under the base)."""

from __future__ import annotations

import re

from pyoxigraph import NamedNode

from graph.errors import PaperkgError
from graph.vocab import (  # noqa: F401 - the network's callers read them from here too
    CLASS_TYPES,
    CONCEPT_TYPES,
    DEFAULT_BASE,
    LINKS,
    NODE_TYPES,
)


class UnknownNode(PaperkgError):
    """A node that is malformed or not in the graph."""


def node_id(iri: str, base: str = DEFAULT_BASE) -> str:
    """"type/slug" for an IRI under `base`, else the IRI itself."""
    return iri[len(base):] if iri.startswith(base) else iri


def node_iri(node: str, base: str = DEFAULT_BASE) -> str:
    return node if node.startswith(("http://", "https://")) else base + node


_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^<>\"{}|^`\\\x00-\x20\x7f]*$")


def is_safe_iri(iri: str) -> bool:
    """An absolute IRI that can go between <> in a query as it is."""
    if _IRI.match(iri) is None:
        return False
    try:
        NamedNode(iri)  # Oxigraph's IRI check: the code points RFC 3987 allows where
    except ValueError:
        return False
    return True
