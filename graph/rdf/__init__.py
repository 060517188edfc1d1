"""ResolvedCorpus -> RDF, exactly as DESIGN §3 describes.

Facts go to the default graph, one `oa:Annotation` per mention to the provenance named graph,
with no blank nodes, so the same input always gives the same quads. Literals are written in the
canonical form Oxigraph stores them in, so quads read back from a store equal the quads written.

One job per module:
- `terms`: the pyoxigraph NamedNodes, built from graph.vocab's table;
- `literals`: literals in canonical form;
- `ntriples`: the N-Triples / N-Quads text writer (terms as the bytes pyoxigraph writes);
- `labels`: a paper's label, the names its entities go by, the numbering of its mentions;
- `paper_text`: a paper's lines as the build writes them, in a static and a linked part;
- `linking`: what the build keeps of a paper once its static lines are written;
- `quads`: a paper's and an entity's Quads built term by term, the reference for the lines;
- `corpus`: entities, domains, taxonomy, extractor agents; a whole corpus, sorted.

The names below stay importable from `graph.rdf` itself.
"""

from graph.rdf.corpus import (
    SortedQuads,
    broader_line,
    corpus_level_lines,
    corpus_lines,
    corpus_quads,
    domain_quads,
    entity_lines,
    sort_quads,
)
from graph.rdf.labels import LABEL_WORDS, paper_label
from graph.rdf.linking import linking_part
from graph.rdf.literals import (
    canonical_decimal,
    confidence,
    decimal,
    integer,
    iri_part,
    text,
    year,
)
from graph.rdf.ntriples import nt_iri, nt_string, quad_line
from graph.rdf.paper_text import (
    LINKED,
    STATIC,
    extractor_lines,
    paper_lines,
    paper_linked_lines,
    paper_static_lines,
)
from graph.rdf.quads import entity_quads, extractor_quads, paper_quads
from graph.rdf.terms import (
    CLAIM_KIND_IRI,
    DEFAULT,
    ENTITY_CLASS,
    LINK_PREDICATE,
    PROPOSES,
    RESULT_FIELDS,
    SCHEME_IDS,
)
from graph.taxonomy import taxonomy_quads
from graph.vocab import DEFAULT_BASE, entity_iri

__all__ = [
    "CLAIM_KIND_IRI", "DEFAULT", "DEFAULT_BASE", "ENTITY_CLASS", "LABEL_WORDS", "LINKED",
    "LINK_PREDICATE", "PROPOSES", "RESULT_FIELDS", "SCHEME_IDS", "STATIC", "SortedQuads",
    "broader_line", "canonical_decimal", "confidence", "corpus_level_lines", "corpus_lines",
    "corpus_quads", "decimal", "domain_quads", "entity_iri", "entity_lines", "entity_quads",
    "extractor_lines", "extractor_quads", "integer", "iri_part", "linking_part", "nt_iri",
    "nt_string", "paper_label", "paper_linked_lines", "paper_lines", "paper_quads",
    "paper_static_lines", "quad_line", "sort_quads", "taxonomy_quads", "text", "year",
]
