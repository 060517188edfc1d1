"""graph.network's node names and ids, and the values blocks its store queries are made of."""

from __future__ import annotations

import pytest

from graph import network
from graph.errors import PaperkgError
from graph.network.nodes import CLASS_TYPES, is_safe_iri, node_id, node_iri
from graph.network.sparql_parts import as_int, in_chunks, values_block
from graph.vocab import DEFAULT_BASE, PKG


def test_ids_are_paths_under_the_base_and_back():
    iri = DEFAULT_BASE + "method/resnet"
    assert node_id(iri) == "method/resnet"
    assert node_iri("method/resnet") == iri
    assert node_id("https://elsewhere.org/x") == "https://elsewhere.org/x"
    assert node_iri("https://elsewhere.org/x") == "https://elsewhere.org/x"
    assert node_id("https://b.org/paper/p1", "https://b.org/") == "paper/p1"


def test_classes_map_to_node_types():
    assert CLASS_TYPES[PKG + "Paper"] == "paper"
    assert CLASS_TYPES[PKG + "Dataset"] == "dataset"
    assert network.NODE_TYPES == ("paper", "method", "dataset", "model", "task", "metric",
                                  "domain")


@pytest.mark.parametrize("iri, safe", [
    ("https://w3id.org/paperkg/id/method/resnet", True),
    ("urn:x:1", True),
    ("method/resnet", False),              # relative
    ("https://a.org/x> } DROP ALL {", False),  # would close the IRI in a query
    ("https://a.org/x y", False),
    ("", False),
])
def test_only_absolute_iris_that_cannot_break_a_query_are_safe(iri, safe):
    assert is_safe_iri(iri) is safe


def test_values_blocks_and_chunks():
    assert values_block(["urn:a", "urn:b"]) == "<urn:a> <urn:b>"
    assert list(in_chunks(["a", "b", "c", "d", "e"], 2)) == [["a", "b"], ["c", "d"], ["e"]]
    assert as_int("12") == 12
    assert as_int("3.0") == 3
    assert as_int("x") is None
    assert as_int(None) is None


def test_unknown_node_is_a_user_error():
    assert issubclass(network.UnknownNode, PaperkgError)
