"""graph.vocab is the one table of types, classes and links: every name in it is declared by
data/ontology.ttl, and the graph's terms (graph.rdf.terms) are built from it."""

from __future__ import annotations

from pyoxigraph import RdfFormat, parse

from graph import vocab
from graph.model import MENTION_TYPES
from graph.paths import ONTOLOGY
from graph.rdf import terms

OWL = vocab.OWL


def _declared() -> dict[str, set[str]]:
    """IRI -> the owl kinds data/ontology.ttl declares it as."""
    kinds: dict[str, set[str]] = {}
    with open(ONTOLOGY, "rb") as handle:
        for quad in parse(handle, format=RdfFormat.TURTLE):
            if quad.predicate.value == vocab.RDF + "type" and quad.object.value.startswith(OWL):
                kinds.setdefault(quad.subject.value, set()).add(quad.object.value[len(OWL):])
    return kinds


def test_every_class_and_link_is_declared_by_the_ontology():
    declared = _declared()
    for local in vocab.CLASSES.values():
        assert "Class" in declared[vocab.PKG + local], local
    for local in vocab.CLAIM_KIND_CLASSES.values():
        assert "NamedIndividual" in declared[vocab.PKG + local], local
    for name in (*vocab.LINKS, vocab.MAKES_CLAIM, vocab.HAS_RESULT, vocab.ABOUT):
        assert "ObjectProperty" in declared[vocab.PKG + name], name
    for _, link, literal in vocab.RESULT_FIELDS.values():
        assert "ObjectProperty" in declared[vocab.PKG + link]
        assert "DatatypeProperty" in declared[vocab.PKG + literal]
    for local, _ in vocab.SCHEME_IDS.values():
        assert "DatatypeProperty" in declared[vocab.PKG + local]
    assert "DatatypeProperty" in declared[vocab.PKG + vocab.SUPPORT]


def test_the_type_sets_nest_and_each_link_reaches_one_type():
    assert vocab.CONCEPT_TYPES == (*vocab.ENTITY_TYPES, "domain")
    assert vocab.NODE_TYPES == ("paper", *vocab.CONCEPT_TYPES)
    assert MENTION_TYPES == (*vocab.CONCEPT_TYPES, "claim")
    assert set(vocab.LINK_OF_TYPE) == set(vocab.CONCEPT_TYPES)
    assert vocab.LINKS == (vocab.PROPOSES, *vocab.LINK_OF_TYPE.values())
    assert vocab.LINK_IRIS == {vocab.PKG + name for name in vocab.LINKS}
    assert set(vocab.CLASS_TYPES.values()) == set(vocab.NODE_TYPES)


def test_rdf_terms_are_built_from_the_table():
    assert {t: n.value for t, n in terms.LINK_PREDICATE.items()} == {
        t: vocab.PKG + link for t, link in vocab.LINK_OF_TYPE.items()}
    assert {n.value for n in terms.ENTITY_CLASS.values()} == {
        iri for iri, t in vocab.CLASS_TYPES.items() if t != "paper"}
    assert terms.PROPOSES.value == vocab.PKG + "proposes"
    assert terms.IN_DOMAIN.value == vocab.PKG + "inDomain"
