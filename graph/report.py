"""The build report: what a build put in the graph and what it could not find.

`build_report` gives a JSON-ready dict (report.json); `render_markdown` the same for people
(report.md). Both are deterministic: no times, sorted lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pyoxigraph import DefaultGraph, NamedNode, Quad, Triple

from graph.model import Entity, PaperExtraction, ResolvedCorpus
from graph.rdf import paper_label
from graph.store import Store, solutions
from graph.vocab import LINK_IRIS, MAKES_CLAIM, PKG, PREFIXES, RDF

_TYPE = RDF + "type"
_CLAIM_KIND = PKG + "claimKind"
_LINKS = LINK_IRIS | {PKG + MAKES_CLAIM}


def curie(iri: str) -> str:
    """`pkg:Paper` for the IRI, if a known prefix covers it."""
    for name, namespace in sorted(PREFIXES.items(), key=lambda item: -len(item[1])):
        if iri.startswith(namespace) and "/" not in iri[len(namespace):]:
            return f"{name}:{iri[len(namespace):]}"
    return iri


class ReportBuilder:
    """A report assembled paper by paper, so a build can drop each paper once it is written.

    `add_paper` for every paper (any order), `count_quads` or `count_store` for the graph's
    counts, then `finish`.
    """

    def __init__(self) -> None:
        self.papers = 0
        self.without: dict[str, list[dict[str, str]]] = {"methods": [], "domains": [],
                                                         "claims": []}
        self.counts: dict[str, Any] = {}

    def add_paper(self, extraction: PaperExtraction, refs: Sequence[str | None],
                  entities: Mapping[str, Entity] | None) -> None:
        self.papers += 1
        types = {ref.partition("/")[0] for ref in refs if ref}
        mention_types = {m.type for m in extraction.mentions}
        missing = ["methods"] if "method" not in types else []
        if "domain" not in mention_types and "domain" not in types:
            missing.append("domains")
        if "claim" not in mention_types:
            missing.append("claims")
        if missing:
            entry = {"key": extraction.paper.key,
                     "title": paper_label(extraction, refs, entities)}
            for kind in missing:
                self.without[kind].append(entry)

    def count_quads(self, quads: Iterable[Quad]) -> None:
        classes: Counter[str] = Counter()
        links: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        facts = provenance = 0
        for quad in quads:
            if not isinstance(quad.graph_name, DefaultGraph):
                provenance += 1
                continue
            facts += 1
            predicate = quad.predicate.value
            if predicate == _TYPE and isinstance(quad.object, NamedNode):
                classes[curie(quad.object.value)] += 1
            elif predicate in _LINKS:
                links[curie(predicate)] += 1
            elif predicate == _CLAIM_KIND and not isinstance(quad.object, Triple):
                kinds[quad.object.value.removeprefix(PKG).lower()] += 1
        self.counts = {"facts": facts, "provenance": provenance, "classes": classes,
                       "links": links, "kinds": kinds}

    def count_store(self, store: Store) -> None:
        """The same counts as `count_quads(store.quads())`, by SPARQL aggregates in the store.

        The provenance quads are the store's length less the facts: `len` counts in the
        index, several times faster than a `GRAPH ?g` pattern that decodes every quad. The
        queries run on two threads (Oxigraph and a server both answer them without the GIL).
        """
        from concurrent.futures import ThreadPoolExecutor

        def grouped(sparql: str) -> dict[str, int]:
            return {row["k"].value: int(row["n"].value) for row in solutions(store, sparql)}

        def number(sparql: str) -> int:
            return int(next(iter(solutions(store, sparql)))["n"].value)

        links = " ".join(f"<{iri}>" for iri in sorted(_LINKS))
        with ThreadPoolExecutor(max_workers=2) as pool:
            classes = pool.submit(grouped, f"SELECT ?k (COUNT(*) AS ?n) WHERE {{ ?s <{_TYPE}> ?k "
                                  "FILTER(isIRI(?k)) } GROUP BY ?k")
            linked = pool.submit(grouped, "SELECT ?k (COUNT(*) AS ?n) WHERE "
                                 f"{{ VALUES ?k {{ {links} }} ?s ?k ?o }} GROUP BY ?k")
            kinds = pool.submit(grouped, f"SELECT ?k (COUNT(*) AS ?n) WHERE {{ ?s <{_CLAIM_KIND}> "
                                "?k } GROUP BY ?k")
            facts = number("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
            quads = len(store)
            self.counts = {
                "facts": facts,
                "provenance": quads - facts,
                "classes": Counter({curie(k): n for k, n in classes.result().items()}),
                "links": Counter({curie(k): n for k, n in linked.result().items()}),
                "kinds": Counter({k.removeprefix(PKG).lower(): n
                                  for k, n in kinds.result().items()}),
            }

    def finish(self, *, entities: Mapping[str, Entity] | Counter[str],
               duplicates: Iterable[tuple[str, str]],
               corpus: Mapping[str, Any] | None = None) -> dict[str, Any]:
        counts = self.counts
        classes, kinds = counts["classes"], Counter(counts["kinds"])
        # Counted in the store, a claim is a node typed pkg:Claim (one type quad each).
        unknown_kind = classes.get("pkg:Claim", 0) - sum(kinds.values())
        if unknown_kind > 0:
            kinds["unknown"] = unknown_kind
        if isinstance(entities, Counter):
            per_type = entities
        else:
            per_type = Counter(entity.type for entity in entities.values())
        report = {
            "papers": self.papers,
            "entities": dict(sorted(per_type.items())),
            "quads": counts["facts"] + counts["provenance"],
            "facts": counts["facts"],
            "provenance": counts["provenance"],
            "classes": dict(sorted(classes.items())),
            "links": dict(sorted(counts["links"].items())),
            "claims": dict(sorted(kinds.items())),
            "results": classes.get("pkg:Result", 0),
            "papers_without": {kind: sorted(entries, key=lambda e: e["key"])
                               for kind, entries in self.without.items()},
            "duplicates": [
                {"kept": kept, "dropped": dropped} for kept, dropped in sorted(duplicates)
            ],
        }
        if corpus:
            report["corpus"] = dict(corpus)
        return report


def build_report(resolved: ResolvedCorpus, quads: Iterable[Quad]) -> dict[str, Any]:
    builder = ReportBuilder()
    for key in sorted(resolved.extractions):
        builder.add_paper(resolved.extractions[key], resolved.links.get(key, []),
                          resolved.entities)
    builder.count_quads(quads)
    return builder.finish(entities=resolved.entities, duplicates=resolved.duplicates)


def _escape(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(rows: Mapping[str, Any], header: tuple[str, str]) -> list[str]:
    lines = [f"| {header[0]} | {header[1]} |", "| --- | ---: |"]
    lines += [f"| {_escape(k)} | {_escape(v)} |" for k, v in rows.items()]
    return lines


def render_markdown(report: Mapping[str, Any]) -> str:
    """report.md: the report as headed tables and lists."""
    lines = ["# Build report", ""]
    summary = {
        key: report[key]
        for key in ("papers", "quads", "facts", "provenance", "results")
        if key in report
    }
    lines += _table(summary, ("", "count")) + [""]
    for key, title, header in (
        ("entities", "Entities", ("type", "entities")),
        ("classes", "Nodes by class", ("class", "nodes")),
        ("links", "Links", ("property", "links")),
        ("claims", "Claims by kind", ("kind", "claims")),
    ):
        if report.get(key):
            lines += [f"## {title}", ""] + _table(report[key], header) + [""]
    for kind, papers in (report.get("papers_without") or {}).items():
        lines += [f"## Papers without {kind} ({len(papers)})", ""]
        lines += [f"- `{_escape(p['key'])}` {_escape(p['title'])}" for p in papers] or ["none"]
        lines.append("")
    duplicates = report.get("duplicates") or []
    lines += [f"## Duplicates ({len(duplicates)})", ""]
    lines += [f"- `{_escape(d['kept'])}` kept; dropped {_escape(d['dropped'])}"
              for d in duplicates] or ["none"]
    lines.append("")
    lines += _corpus_markdown(report.get("corpus") or {})
    known = {"papers", "quads", "facts", "provenance", "results", "entities", "classes", "links",
             "claims", "papers_without", "duplicates", "corpus"}
    for key in sorted(set(report) - known):
        lines += [f"## {key}", "", "```", _escape_block(report[key]), "```", ""]
    return "\n".join(lines)


def _escape_block(value: Any) -> str:
    import json

    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)


def corpus_report(corpus: Any) -> tuple[dict[str, Any], list[str]]:
    """What reading the corpus left out, for the report's "corpus" section (empty when it left
    nothing out, as for a plain list), and the warnings a build prints.

    - `formats`: record format -> records, when any record was in a service's shape;
    - `unmapped_fields`: field -> records that kept it in `Paper.extra`, each field named once;
    - `skipped`: "path:line" of entries and records without an abstract (BibTeX, RIS,
      reference exports), which the build leaves out;
    - `cut`: papers whose abstract extraction read only in part (over
      `graph.nlp.text_clean.MAX_EXTRACTION_CHARS`), with the lengths.
    """
    from graph.nlp.text_clean import MAX_EXTRACTION_CHARS, extraction_view

    formats: Counter[str] = Counter()
    for notes in corpus.notes.values():
        formats.update(notes.formats)
    warnings = list(corpus.warnings())
    cut = []
    for paper in corpus.papers:
        if len(paper.abstract) > MAX_EXTRACTION_CHARS:
            view = extraction_view(paper.abstract)
            read = view.ends[-1] if view.ends else 0
            if read < len(paper.abstract.rstrip()):
                cut.append({"key": paper.key, "source": paper.source,
                            "characters": len(paper.abstract), "read": read})
                warnings.append(
                    f"{paper.source}: paper {paper.key}: the abstract is "
                    f"{len(paper.abstract):,} characters; extraction read the first {read:,} "
                    f"(to a sentence end; the limit is {MAX_EXTRACTION_CHARS:,})")
    section: dict[str, Any] = {}
    unmapped = corpus.unmapped_fields()
    skipped = list(corpus.skipped)
    if unmapped or cut or warnings or skipped or set(formats) - {
            "text", "JSON", "JSON Lines", "CSV", "TSV", "BibTeX"}:
        section = {"formats": dict(sorted(formats.items())), "unmapped_fields": unmapped,
                   "skipped": skipped, "cut": cut, "warnings": warnings}
    return section, warnings


def _corpus_markdown(corpus: Mapping[str, Any]) -> list[str]:
    if not corpus:
        return []
    lines = ["## Corpus", ""]
    lines += _table(corpus.get("formats") or {}, ("record format", "records")) + [""]
    unmapped = corpus.get("unmapped_fields") or {}
    lines += [f"Fields kept in the records but not mapped ({len(unmapped)}): "
              + (", ".join(f"`{_escape(k)}` ({n})" for k, n in unmapped.items()) or "none"), ""]
    skipped = corpus.get("skipped") or []
    if skipped:
        lines += [f"Records without an abstract, left out ({len(skipped)}): "
                  + ", ".join(_escape(s) for s in skipped), ""]
    for entry in corpus.get("cut") or []:
        lines.append(f"- `{_escape(entry['key'])}` abstract of {entry['characters']:,} "
                     f"characters cut to {entry['read']:,} for extraction")
    lines += [f"- warning: {_escape(w)}" for w in corpus.get("warnings") or []]
    lines.append("")
    return lines
