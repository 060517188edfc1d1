"""graph.taxonomy reads data/taxonomy.ttl one way: concepts, the build's quads and the broader
links evaluation uses all come from the same parse."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from graph import taxonomy
from graph.errors import InputError
from graph.eval import taxonomy_broader
from graph.vocab import DEFAULT_BASE

OTHER_BASE = "http://example.org/kg/"
TTL = (
    "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
    "@prefix pkg: <https://w3id.org/paperkg/ns#> .\n"
    "<https://w3id.org/paperkg/id/domain/vision> a skos:Concept ; skos:inScheme pkg:Domains ;\n"
    '  skos:prefLabel "Vision"@en .\n'
    "<https://w3id.org/paperkg/id/domain/detection> a skos:Concept ; skos:inScheme pkg:Domains ;\n"
    '  skos:prefLabel "Detection"@en ; skos:altLabel "object detection"@en , "detection"@en ;\n'
    "  skos:broader <https://w3id.org/paperkg/id/domain/vision> .\n"
)


def test_broader_links_are_the_concepts_broader_ones(tmp_path):
    path = tmp_path / "tax.ttl"
    path.write_text(TTL, encoding="utf-8")
    broader = taxonomy.broader_links(path)
    assert broader is not None
    assert broader("detection") == ("vision",)
    assert broader("vision") == ()
    assert broader("unknown") == ()
    assert taxonomy.broader_links(tmp_path / "missing.ttl") is None
    # evaluation reads them through the same function
    assert taxonomy_broader(path)("detection") == ("vision",)


def test_shipped_broader_links_match_the_concepts():
    shipped = taxonomy.load()
    broader = taxonomy.broader_links()
    assert broader is not None
    assert all(broader(c.slug) == c.broader for c in shipped)
    assert broader("deep-learning") == ("machine-learning",)


def test_quads_move_under_the_base_and_match_the_concepts(tmp_path):
    path = tmp_path / "tax.ttl"
    path.write_text(TTL, encoding="utf-8")
    default = taxonomy.taxonomy_quads(path)
    moved = taxonomy.taxonomy_quads(path, base=OTHER_BASE)
    assert len(default) == len(moved) == 9
    assert {q.subject.value for q in moved} == {OTHER_BASE + "domain/vision",
                                                OTHER_BASE + "domain/detection"}
    assert (NamedNode(OTHER_BASE + "domain/detection"),
            NamedNode(OTHER_BASE + "domain/vision")) in {
        (q.subject, q.object) for q in moved if q.predicate.value.endswith("#broader")}
    concepts = taxonomy.parse(path)
    assert concepts["detection"].alt_labels == ("detection", "object detection")
    assert {c.iri for c in concepts} == {q.subject.value for q in default}
    assert all(q.subject.value.startswith(DEFAULT_BASE) for q in default)


def test_an_edited_file_is_read_again(tmp_path):
    path = tmp_path / "tax.ttl"
    path.write_text(TTL, encoding="utf-8")
    assert len(taxonomy.parse(path)) == 2
    path.write_text(TTL.split("<https://w3id.org/paperkg/id/domain/detection>")[0],
                    encoding="utf-8")
    assert [c.slug for c in taxonomy.parse(path)] == ["vision"]


def test_a_broken_file_is_one_error_naming_it(tmp_path):
    path = tmp_path / "broken.ttl"
    path.write_text("this is not turtle", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.ttl: cannot read the taxonomy"):
        taxonomy.taxonomy_quads(path)
    with pytest.raises(InputError, match=r"broken\.ttl: cannot read the taxonomy"):
        taxonomy.parse(path)
    assert taxonomy.taxonomy_quads(tmp_path / "missing.ttl") == []
