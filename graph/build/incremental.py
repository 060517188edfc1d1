"""Add, re-ingest and remove papers in a built graph, without rebuilding it.

`add_papers` extracts only the papers it is given, resolves their mentions against the
entities already in the store (labels and aliases read back with SPARQL and passed to
`graph.resolve.resolve` as `known`), and changes the store in one SPARQL Update request:
the old facts and provenance of re-ingested papers out, the new papers' quads and their
entities' new names in, `pkg:support` recounted for every entity a changed paper links (or
linked), and entities no paper links any more removed.

Re-ingesting. A paper is recognised by its key, stored as `dcterms:identifier` (and in its
IRI). A record whose key is in the store with the same record fields is skipped as
unchanged; with any field changed (abstract, title, authors, ...) its old facts, claims,
results and annotations are replaced. A paper's key is its `id` when it has one, so a paper
*with an id* and a corrected abstract replaces its old version; a paper without an id is keyed
by its abstract's hash, so a changed abstract is a new paper and the old one stays until it is
removed (`remove_paper`) - nothing else ties the two texts together.

Where an incremental add can differ from a full rebuild of the same papers, because the
resolver's corpus-level decisions are not revisited for entities already in the graph:

- an entity keeps the label and IRI it got when it was created, even if the new papers would
  outvote it for another surface form in a rebuild;
- a new paper that gives an acronym a *second* long form makes that acronym ambiguous: a
  rebuild keeps it paper-local everywhere, but old papers that were already linked through it
  stay linked;
- a new paper whose long form/acronym pair ties two existing entities together does not merge
  them (each keeps its IRI), where a rebuild would make one entity;
- the label of a paper without a title that proposes an existing entity uses that entity's
  stored label.

When no such case arises - every name is used the same way throughout - the graph after adding
papers is the graph a full build of all of them gives (tests/test_incremental.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import DefaultGraph, NamedNode, Quad

from graph import export, rdf
from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.build.update import (
    SUPPORT_IRI,
    apply_update,
    change_update,
    links_of,
    owned_quads,
    replace_paper,
    support_deltas,
)
from graph.corpus import read_corpus
from graph.extractors import pipeline
from graph.model import ENTITY_TYPES, Entity, Paper, PaperExtraction
from graph.network import search_update
from graph.resolve import resolve
from graph.store import Store, open_store, solutions
from graph.vocab import (
    CLASSES,
    DCTERMS,
    DEFAULT_BASE,
    PKG,
    RDFS,
    SCHEMA,
    SKOS,
    entity_iri,
    paper_iri,
)

#: Properties of a paper's record (the corpus fields); a change in any of them re-ingests it.
RECORD_PREDICATES = frozenset(
    [DCTERMS + name for name in ("title", "abstract", "identifier", "issued", "creator")]
    + [SCHEMA + name for name in ("isPartOf", "keywords", "url")]
)
_SKOS_BROADER = "http://www.w3.org/2004/02/skos/core#broader"
_PAPER_CLASS = PKG + CLASSES["paper"]
_CLASS_TYPE = {PKG + CLASSES[t]: t for t in ENTITY_TYPES}

Extract = Callable[[Sequence[Paper]], list[PaperExtraction]]


@dataclass
class AddResult:
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    new_entities: list[str] = field(default_factory=list)
    quads_inserted: int = 0
    quads_deleted: int = 0
    store: str = ""
    exports: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        text = (
            f"added {len(self.added)} papers, replaced {len(self.replaced)}, "
            f"{len(self.unchanged)} unchanged; {len(self.new_entities)} new entities; "
            f"{self.quads_inserted} quads in, {self.quads_deleted} out of {self.store}"
        )
        if self.exports:
            text += f"\nexports: {', '.join(str(p) for p in self.exports)}"
        return text


# -- reading the store ------------------------------------------------------------------------


def store_base(store: Store) -> str:
    """The instance base a store was built with (from its provenance graph's name)."""
    for row in solutions(store, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"):
        name = row["g"].value
        if name.endswith("graph/provenance"):
            return name[: -len("graph/provenance")]
    return DEFAULT_BASE


def known_entities(store: Store, *, base: str) -> dict[str, Entity]:
    """Every method, dataset, model, task and metric in the store, with labels and aliases.

    `papers` is left empty: support is recounted in the store, not carried through Python.
    """
    classes = " ".join(f"<{iri}>" for iri in _CLASS_TYPE)
    rows = solutions(
        store,
        f"""SELECT ?e ?class ?label ?alias WHERE {{
  VALUES ?class {{ {classes} }}
  ?e a ?class ; <{RDFS}label> ?label .
  OPTIONAL {{ ?e <{SKOS}altLabel> ?alias }} }}"""
    )
    entities: dict[str, Entity] = {}
    for row in rows:
        iri = row["e"].value
        type_ = _CLASS_TYPE[row["class"].value]
        prefix = entity_iri(base, type_, "")
        if not iri.startswith(prefix):
            continue  # not an entity of this base (taxonomy, another graph)
        ref = f"{type_}/{iri[len(prefix):]}"
        entity = entities.get(ref)
        if entity is None:
            entity = entities[ref] = Entity(type=type_, slug=iri[len(prefix):],
                                            label=row["label"].value)
        elif row["label"].value < entity.label:
            entity.label = row["label"].value  # two labels: pick one the same way every time
        alias = row["alias"]
        if alias is not None:
            entity.aliases.add(alias.value)
    return entities


def _record_quads(paper: Paper, base: str) -> set[Quad]:
    quads = rdf.paper_quads(PaperExtraction(paper=paper, mentions=[]), [], base=base)
    return {q for q in quads if q.predicate.value in RECORD_PREDICATES}


def stored_records(store: Store, keys: Sequence[str], *, base: str) -> dict[str, set[Quad]]:
    """key -> the record quads the store holds for it (absent keys are left out)."""
    records: dict[str, set[Quad]] = {}
    predicates = " ".join(f"<{p}>" for p in sorted(RECORD_PREDICATES))
    for start in range(0, len(keys), 500):
        part = keys[start : start + 500]
        values = " ".join(f"<{paper_iri(base, key)}>" for key in part)
        rows = solutions(
            store,
            f"SELECT ?p ?pred ?o WHERE {{ VALUES ?p {{ {values} }} VALUES ?pred {{ {predicates} }} "
            "?p ?pred ?o }"
        )
        for row in rows:
            key = row["p"].value[len(paper_iri(base, "")) :]
            records.setdefault(key, set()).add(
                Quad(row["p"], row["pred"], row["o"], DefaultGraph())
            )
    return records


# -- writing ----------------------------------------------------------------------------------


def _broader_quad(ref: str, family: str, base: str) -> Quad:
    child, parent = (NamedNode(entity_iri(base, *r.split("/", 1))) for r in (ref, family))
    return Quad(child, NamedNode(_SKOS_BROADER), parent, DefaultGraph())


# -- the operations ---------------------------------------------------------------------------


def _default_extract(spacy_model: str, extractors: Sequence[str]) -> Extract:
    def extract(papers: Sequence[Paper]) -> list[PaperExtraction]:
        return pipeline.extract_papers(papers, nlp=nlp_loader.load(spacy_model),
                                       extractors=extractors)

    return extract


def add_papers(
    store: Store,
    papers: Sequence[Paper],
    *,
    base: str | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    extract: Extract | None = None,
) -> AddResult:
    """Add `papers` to the graph in `store` (or replace changed ones), in one write.

    `base` defaults to the base the store was built with. `extract` replaces the spaCy
    extraction (papers -> extractions), for callers that have extractions already.
    """
    base = base or store_base(store)
    result = AddResult(store=store.location)
    unique: dict[str, Paper] = {}
    for paper in papers:
        unique.setdefault(paper.key, paper)
    stored = stored_records(store, list(unique), base=base)
    todo: list[Paper] = []
    for key, paper in unique.items():
        if key not in stored:
            result.added.append(key)
            todo.append(paper)
        elif stored[key] != _record_quads(paper, base):
            result.replaced.append(key)
            todo.append(paper)
        else:
            result.unchanged.append(key)
    if not todo:
        return result

    extractions = (extract or _default_extract(spacy_model, extractors))(todo)
    known = known_entities(store, base=base)
    resolved = resolve(extractions, known=known)

    delete: list[Quad] = []
    before: dict[str, set[str]] = {}
    after: dict[str, set[str]] = {}
    for key in result.replaced:
        old = owned_quads(store, paper_iri(base, key))
        delete.extend(old)
        before[key] = links_of(old, paper_iri(base, key))

    insert: dict[Quad, None] = {}
    for extraction in extractions:
        key = extraction.paper.key
        quads = rdf.paper_quads(extraction, resolved.links.get(key, []), base=base,
                            entities=resolved.entities)
        insert.update(dict.fromkeys(quads))
        after[key] = links_of(quads, paper_iri(base, key))
    linked = {ref for links in resolved.links.values() for ref in links if ref is not None}
    for ref in sorted(linked):
        if ref not in known:
            result.new_entities.append(ref)
        for quad in rdf.entity_quads(resolved.entities[ref], base=base):
            if quad.predicate.value != SUPPORT_IRI:
                insert[quad] = None
    # A family link stays right whichever side arrives later: an edition added under a family
    # already stored, or a family added above editions already stored.
    for ref in sorted(resolved.entities):
        family = resolved.entities[ref].broader
        if family and (ref in linked or family in linked):
            insert[_broader_quad(ref, family, base)] = None
    # New domains get the quads a build gives them (support comes from the recount).
    insert.update(dict.fromkeys(
        q for q in rdf.domain_quads(resolved, rdf.taxonomy_quads(base=base), base)
        if q.predicate.value != SUPPORT_IRI
    ))
    # A quad deleted and inserted again (an unchanged part of a replaced paper) just stays.
    deleted = [q for q in dict.fromkeys(delete) if q not in insert]
    inserted = list(insert)
    with search_update.follow(store, base, [paper_iri(base, p.key) for p in todo]):
        apply_update(store, change_update(deleted, inserted, support_deltas(before, after),
                                          base=base))
    result.quads_inserted = len(inserted)
    result.quads_deleted = len(deleted)
    return result


def remove_paper(store: Store, key: str, *, base: str | None = None) -> bool:
    """Remove a paper's facts and provenance; recount its entities' support and drop the ones
    (and the domain nodes) no other paper links. False if the store has no such paper."""
    base = base or store_base(store)
    iri = key if key.startswith(("http://", "https://")) else paper_iri(base, key)
    with search_update.follow(store, base, [iri]):
        return replace_paper(store, iri, [], base=base)


def add_files(
    inputs: Sequence[str | os.PathLike],
    *,
    store: str | None = None,
    base: str | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    out_dir: str | os.PathLike | None = None,
) -> AddResult:
    """`paperkg build --add`: read corpus files, add their papers, refresh the exports."""
    corpus = read_corpus(list(inputs))
    target = open_store(store)
    try:
        result = add_papers(target, corpus.papers, base=base, spacy_model=spacy_model,
                            extractors=extractors)
        if out_dir is not None and (result.added or result.replaced):
            result.exports = _refresh_exports(target, out_dir)
    finally:
        target.close()
    return result


def _refresh_exports(store: Store, out_dir: str | os.PathLike) -> list[Path]:
    rows = solutions(store, f"SELECT (COUNT(*) AS ?n) WHERE {{ ?p a <{_PAPER_CLASS}> }}")
    papers = int(next(iter(rows))["n"].value)
    report = {"papers": papers, "quads": len(store), "incremental": True}
    return export.write_store_exports(store, out_dir, report=report)


__all__ = [
    "AddResult",
    "add_files",
    "add_papers",
    "apply_update",
    "change_update",
    "known_entities",
    "remove_paper",
    "store_base",
    "stored_records",
]
