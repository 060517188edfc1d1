"""The RDF terms paperkg writes, as pyoxigraph NamedNodes, built from graph.vocab's table.

Standard vocabularies (rdf, rdfs, xsd, skos, dcterms, schema, oa, prov) are named here by their
local names; paperkg's own classes and links come from graph.vocab, which every other stage
reads too.
"""

from __future__ import annotations

from pyoxigraph import DefaultGraph, NamedNode

from graph import vocab
from graph.vocab import DCTERMS, OA, PKG, PROV, RDF, RDFS, SCHEMA, SKOS, XSD

DEFAULT = DefaultGraph()


def _n(ns: str, local: str) -> NamedNode:
    return NamedNode(ns + local)


A = _n(RDF, "type")
RDFS_LABEL = _n(RDFS, "label")
XSD_STRING = _n(XSD, "string")
XSD_DECIMAL = _n(XSD, "decimal")
XSD_INTEGER = _n(XSD, "integer")
XSD_GYEAR = _n(XSD, "gYear")
XSD_ANYURI = _n(XSD, "anyURI")
XSD_BOOLEAN = _n(XSD, "boolean")

SKOS_CONCEPT = _n(SKOS, "Concept")
SKOS_ALT = _n(SKOS, "altLabel")
SKOS_PREF = _n(SKOS, "prefLabel")
SKOS_IN_SCHEME = _n(SKOS, "inScheme")
SKOS_BROADER = _n(SKOS, "broader")

PAPER = _n(PKG, vocab.CLASSES["paper"])
CLAIM = _n(PKG, vocab.CLASSES["claim"])
RESULT = _n(PKG, vocab.CLASSES["result"])
DOMAIN = _n(PKG, vocab.CLASSES["domain"])
DOMAINS_SCHEME = _n(PKG, "Domains")
SUPPORT = _n(PKG, vocab.SUPPORT)

SCHOLARLY_ARTICLE = _n(SCHEMA, "ScholarlyArticle")
SCHEMA_CLAIM = _n(SCHEMA, "Claim")
SCHEMA_TEXT = _n(SCHEMA, "text")
SCHEMA_PART_OF = _n(SCHEMA, "isPartOf")
SCHEMA_KEYWORDS = _n(SCHEMA, "keywords")
SCHEMA_URL = _n(SCHEMA, "url")
SCHEMA_SAME_AS = _n(SCHEMA, "sameAs")

DC_TITLE = _n(DCTERMS, "title")
DC_ABSTRACT = _n(DCTERMS, "abstract")
DC_IDENTIFIER = _n(DCTERMS, "identifier")
DC_ISSUED = _n(DCTERMS, "issued")
DC_CREATOR = _n(DCTERMS, "creator")
#: Paper field -> (its property, the IRI prefix its schema:sameAs is written under)
SCHEME_IDS: dict[str, tuple[NamedNode, str]] = {
    field: (_n(PKG, local), prefix) for field, (local, prefix) in vocab.SCHEME_IDS.items()
}

PROPOSES = _n(PKG, vocab.PROPOSES)
IN_DOMAIN = _n(PKG, vocab.LINK_OF_TYPE["domain"])
MAKES_CLAIM = _n(PKG, vocab.MAKES_CLAIM)
CLAIM_KIND = _n(PKG, "claimKind")
ABOUT = _n(PKG, vocab.ABOUT)
HAS_RESULT = _n(PKG, vocab.HAS_RESULT)
VALUE = _n(PKG, "value")
UNIT = _n(PKG, "unit")
HIGHER_IS_BETTER = _n(PKG, "higherIsBetter")
CONFIDENCE = _n(PKG, "confidence")

OA_ANNOTATION = _n(OA, "Annotation")
OA_BODY = _n(OA, "hasBody")
OA_TARGET = _n(OA, "hasTarget")
OA_SOURCE = _n(OA, "hasSource")
OA_SELECTOR = _n(OA, "hasSelector")
OA_SPECIFIC = _n(OA, "SpecificResource")
OA_POSITION = _n(OA, "TextPositionSelector")
OA_QUOTE = _n(OA, "TextQuoteSelector")
OA_START = _n(OA, "start")
OA_END = _n(OA, "end")
OA_EXACT = _n(OA, "exact")

PROV_GENERATED_BY = _n(PROV, "wasGeneratedBy")
PROV_ACTIVITY = _n(PROV, "Activity")
PROV_SOFTWARE_AGENT = _n(PROV, "SoftwareAgent")

#: Concept type -> its class.
ENTITY_CLASS: dict[str, NamedNode] = {
    type_: _n(PKG, vocab.CLASSES[type_]) for type_ in vocab.CONCEPT_TYPES
}
#: Concept type -> the paper's link to a concept of that type it does not itself propose.
LINK_PREDICATE: dict[str, NamedNode] = {
    type_: _n(PKG, vocab.LINK_OF_TYPE[type_]) for type_ in vocab.CONCEPT_TYPES
}
CLAIM_KIND_IRI: dict[str, NamedNode] = {
    kind: _n(PKG, local) for kind, local in vocab.CLAIM_KIND_CLASSES.items()
}


def claim_kind(kind: str, paper: str) -> NamedNode:
    """The class of a claim kind; ValueError naming the paper for a kind paperkg does not know."""
    found = CLAIM_KIND_IRI.get(kind)
    if found is None:
        raise ValueError(
            f"paper {paper}: claim kind {kind!r} is not one of {', '.join(CLAIM_KIND_IRI)}"
        )
    return found


#: Result field -> (entity types its surface string may resolve to, IRI predicate, literal one).
RESULT_FIELDS: dict[str, tuple[tuple[str, ...], NamedNode, NamedNode]] = {
    field: (types, _n(PKG, link), _n(PKG, name))
    for field, (types, link, name) in vocab.RESULT_FIELDS.items()
}
