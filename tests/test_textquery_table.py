import pyoxigraph as ox

from graph.textquery import render


def test_a_table_cell_with_line_breaks_stays_on_one_line():
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("http://x/s"), ox.NamedNode("http://x/p"),
                      ox.Literal("unsupervised\n  learning  of\tmaps")))
    out = render(store, "SELECT ?o WHERE { ?s ?p ?o }")
    assert out.splitlines() == ["o", "-" * len("unsupervised learning of maps"),
                                "unsupervised learning of maps", "(1 row)"]
