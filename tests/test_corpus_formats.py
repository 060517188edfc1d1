"""Corpora as services and reference managers export them, built: titles, authors, original
ids, other-scheme ids and abstracts in the graph; detection by content; the report's notes."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from graph.corpus import read_corpus, read_file
from graph.errors import InputError
from graph.vocab import PKG
from graph.store import open_store

CORPORA = Path(__file__).parent / "data" / "corpora"
SAMPLES = [
    "openalex-works.json", "openalex-snapshot.jsonl", "arxiv-metadata-oai-snapshot.json",
    "semantic-scholar-search.json", "semantic-scholar-batch.json", "openreview-paperlist.json",
    "openreview-notes.json", "zotero-export.csl.json", "zotero-export.ris",
]
DC = "http://purl.org/dc/terms/"
SCHEMA = "https://schema.org/"


@pytest.fixture(scope="module")
def samples_build(tmp_path_factory):
    """Every sample, the OpenAlex snapshot gzipped under a name with no format in it (as the
    snapshot's own part files are), built into one store."""
    from graph.build import build

    work = tmp_path_factory.mktemp("formats")
    inputs = work / "corpora"
    inputs.mkdir()
    for name in SAMPLES:
        if name == "openalex-snapshot.jsonl":
            (inputs / "part_000.gz").write_bytes(gzip.compress((CORPORA / name).read_bytes(),
                                                               mtime=0))
        else:
            shutil.copy(CORPORA / name, inputs / name)
    result = build([inputs], out_dir=work / "exports", store=str(work / "store"))
    return result, work


def paper_rows(work: Path) -> dict[str, dict[str, object]]:
    """identifier -> title, authors (sorted), abstract, and every other-scheme id and sameAs."""
    store = open_store(str(work / "store"), read_only=True)
    try:
        rows: dict[str, dict[str, object]] = {}
        for solution in store.query(f"""
            SELECT ?id ?p ?o WHERE {{
              ?paper a <{PKG}Paper> ; <{DC}identifier> ?id ; ?p ?o .
              VALUES ?p {{ <{DC}title> <{DC}creator> <{DC}abstract> <{DC}issued>
                          <{SCHEMA}isPartOf> <{PKG}doi> <{PKG}arxivId> <{PKG}openalexId>
                          <{SCHEMA}sameAs> }} }}"""):
            row = rows.setdefault(solution["id"].value, {"creator": []})
            name = solution["p"].value.rsplit("/", 1)[-1].rsplit("#", 1)[-1]
            if name in ("creator", "sameAs"):
                row.setdefault(name, []).append(solution["o"].value)  # type: ignore[union-attr]
            else:
                row[name] = solution["o"].value
        for row in rows.values():
            for name in ("creator", "sameAs"):
                if name in row:
                    row[name] = sorted(row[name])  # type: ignore[arg-type]
        return rows
    finally:
        store.close()


@pytest.fixture(scope="module")
def papers(samples_build):
    return paper_rows(samples_build[1])


def test_every_sample_paper_with_an_abstract_is_built(samples_build, papers) -> None:
    result, _ = samples_build
    # 1 + 2 OpenAlex, 3 arXiv, 1 + 1 Semantic Scholar, 2 + 1 OpenReview, 2 CSL-JSON, 2 RIS
    assert result.papers == len(papers) == 15


def test_openalex_api_answer(papers) -> None:
    row = papers["https://openalex.org/W4391234567"]
    assert row["title"] == "Sparse Routing for Mixture-of-Experts Transformers"
    assert row["creator"] == ["Mara Oduya", "Tomás Ferreira"]
    assert row["abstract"] == (
        "We route tokens to experts with a learned sparse gate. Fewer tokens overflow.")
    assert (row["issued"], row["isPartOf"]) == ("2024", "arXiv (Cornell University)")
    assert (row["openalexId"], row["doi"]) == ("W4391234567", "10.48550/arXiv.2403.01234")
    assert row["sameAs"] == ["https://doi.org/10.48550/arXiv.2403.01234",
                             "https://openalex.org/W4391234567"]


def test_openalex_snapshot_gzipped_without_extension(papers) -> None:
    row = papers["https://openalex.org/W4390000002"]
    assert row["title"] == "Graph Contrastive Pretraining for Molecules"
    assert row["creator"] == ["Ines Vuković", "Kwame Mensah", "Li Wen"]
    assert row["abstract"] == ("Contrastive pretraining on molecular graphs improves property "
                               "prediction by 4.4 points.")
    assert row["isPartOf"] == "Proceedings of the 29th ACM SIGKDD Conference"
    assert papers["https://openalex.org/W4390000003"]["title"] == "Kernel Herding Revisited"


def test_arxiv_snapshot_authors_and_collapsed_text(papers) -> None:
    row = papers["2401.04321"]
    assert row["title"] == "Low-Rank Adapters for Speech Recognition at Scale"
    assert row["creator"] == ["Henrik Lund", "Nadia Kerrouche", "Paulo Sant'Anna"]
    assert row["abstract"] == (
        "We fine-tune speech recognisers with low-rank adapters. On LibriSpeech the word error "
        "rate falls by $4.4$\\% relative, with \\emph{two} percent of the parameters trained.")
    assert (row["arxivId"], row["sameAs"]) == ("2401.04321", ["https://arxiv.org/abs/2401.04321"])
    assert row["issued"] == "2024"  # the first version's year
    # no authors_parsed: "A, B and C" is three people
    assert papers["2312.11111"]["creator"] == ["Ana Lucía Torres", "Chidi Obi", "Wei Zhang"]
    assert papers["2312.11111"]["doi"] == "10.5555/tmlr.2024.0042"
    assert papers["cs/0112017"]["sameAs"] == ["https://arxiv.org/abs/cs/0112017"]


def test_semantic_scholar_search_and_batch_answers(papers) -> None:
    row = papers["0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c"]
    assert row["title"] == "Diffusion Models for Tabular Data Imputation"
    assert row["creator"] == ["Jonas Schmid", "Selam Abara"]
    assert row["abstract"].startswith("We impute missing tabular values")
    assert (row["isPartOf"], row["issued"]) == ("International Conference on Machine Learning",
                                                "2022")
    assert (row["doi"], row["arxivId"]) == ("10.48550/arXiv.2206.00007", "2206.00007")
    batch = papers["5c5b4a3928171605f4e3d2c1b0a998877665544f"]
    assert batch["creator"] == ["Olu Adeyemi", "Sven Berg", "Yara Haddad"]
    assert batch["sameAs"] == ["https://doi.org/10.18653/v1/2023.acl-long.999"]


def test_openreview_paper_list_keeps_ids_as_given(papers) -> None:
    row = papers["B1tC-LT6W"]
    assert row["title"] == "Self-Play Fine-Tuning of Language Agents"
    assert row["creator"] == ["Aiko Tanaka", "Bruno Costa", "Céline Martin"]
    assert row["abstract"].startswith("We fine-tune language agents by self-play")
    # an id that differs only in case is another paper
    assert papers["b1tc-lt6w"]["title"] == "Tabular Foundation Models"


def test_openreview_api_notes(papers) -> None:
    row = papers["Xq9fT2kLmN"]
    assert row["title"] == "Curriculum Distillation for Small Vision Models"
    assert row["creator"] == ["Emeka Eze", "Hana Novak"]
    assert (row["isPartOf"], row["issued"]) == ("ICLR 2026 Poster", "2026")


def test_csl_json_from_zotero(papers) -> None:
    row = papers["http://zotero.org/users/1234567/items/ABCD2345"]
    assert row["title"] == "Neural Radiance Fields for Sparse Views"
    assert row["creator"] == ["Chioma Okafor", "Lena van den Berg", "Vision Lab Consortium"]
    assert row["abstract"].startswith("We regularise radiance fields with a depth prior")
    assert (row["issued"], row["doi"]) == ("2024", "10.1109/CVPR52733.2024.00120")
    assert papers["ITEM-2"]["isPartOf"] == "Journal of Machine Learning Research"
    assert papers["ITEM-2"]["issued"] == "2023"


def test_ris_records(papers) -> None:
    row = papers["Rossi2023LSH"]
    assert row["title"] == "Efficient Attention with Locality-Sensitive Hashing"
    assert row["creator"] == ["Giulia Rossi", "Min-jun Park"]
    assert row["abstract"] == (
        "Hashing queries into buckets makes attention sub-quadratic while keeping accuracy "
        "within $0.3$ points of full attention.")
    assert (row["isPartOf"], row["issued"]) == (
        "Advances in Neural Information Processing Systems", "2023")
    untitled = [r for r in papers.values() if r.get("title") == "Robust Federated Averaging"]
    assert [(r["creator"], r["isPartOf"], r["issued"]) for r in untitled] == [
        (["Claire Dubois"], "Machine Learning", "2022")]


def test_report_names_each_unmapped_field_once_and_the_formats(samples_build) -> None:
    result, work = samples_build
    corpus = json.loads((work / "exports" / "report.json").read_text())["corpus"]
    assert corpus["formats"] == {"CSL-JSON": 2, "JSON": 2, "OpenAlex": 3, "OpenReview": 1,
                                 "RIS": 2, "Semantic Scholar": 2, "arXiv": 3}
    assert corpus["unmapped_fields"]["aff"] == 2
    assert corpus["unmapped_fields"]["cited_by_count"] == 3
    assert "authorships" not in corpus["unmapped_fields"]
    markdown = (work / "exports" / "report.md").read_text()
    assert markdown.count("`aff` (2)") == 1
    assert result.warnings == corpus["warnings"] == []
    assert sorted(s.rsplit("/", 1)[-1] for s in corpus["skipped"]) == [
        "openalex-works.json:85", "semantic-scholar-batch.json:11",
        "semantic-scholar-search.json:26", "zotero-export.csl.json:35", "zotero-export.ris:30"]
    assert "Records without an abstract, left out (5)" in markdown


def test_skipped_records_of_reference_exports_are_listed() -> None:
    corpus = read_corpus([CORPORA / "zotero-export.csl.json", CORPORA / "zotero-export.ris",
                          CORPORA / "semantic-scholar-batch.json"])
    assert [s.rsplit("/", 1)[-1] for s in corpus.skipped] == [
        "zotero-export.csl.json:35", "zotero-export.ris:30", "semantic-scholar-batch.json:11"]


# --- detection by content ------------------------------------------------------------------


def test_ris_named_txt_is_read_as_ris(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_text("TY  - JOUR\nTI  - T\nAB  - An abstract.\nER  - \n")
    assert [(p.title, p.abstract) for p in read_file(str(path)).papers] == [("T", "An abstract.")]


def test_text_list_whose_first_abstract_opens_a_bracket_stays_a_text_list(tmp_path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("[Background] We study lists.\n\n{Method} Another one.\n")
    assert len(read_file(str(path)).papers) == 2


def test_gzipped_bibtex_in_a_folder_is_read(tmp_path: Path) -> None:
    text = "@article{k1, title={T}, abstract={Zipped abstract.}}\n"
    (tmp_path / "refs.bib.gz").write_bytes(gzip.compress(text.encode()))
    assert [p.abstract for p in read_corpus([tmp_path]).papers] == ["Zipped abstract."]


def test_corrupt_gzip_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00broken")
    with pytest.raises(InputError, match=r"a\.jsonl\.gz: not a readable gzip file"):
        read_corpus([path])


def test_unknown_extension_with_json_content_is_read(tmp_path: Path) -> None:
    path = tmp_path / "answer.dat"
    path.write_text('{"data": [{"paperId": "abc", "title": "T", "abstract": "A."}]}')
    assert [p.id for p in read_file(str(path)).papers] == ["abc"]


def test_ris_record_not_closed_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "a.ris"
    path.write_text("TY  - JOUR\nAB  - A.\n\nTY  - JOUR\nAB  - B.\nER  - \n")
    with pytest.raises(InputError, match=r"a\.ris: line 4: a new record before"):
        read_corpus([path])


def test_field_that_looks_like_authors_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("abstract,Author Names,published\nOne.,Ann Lee,2020\nTwo.,Bo Wu,2021\n")
    corpus = read_corpus([path])
    assert corpus.warnings() == [
        f'{path}: field "Author Names" looks like the authors but is not read '
        '(2 records without authors); rename it "authors" to use it',
        f'{path}: field "published" looks like the year but is not read '
        '(2 records without year); rename it "year" to use it',
    ]
    assert corpus.unmapped_fields() == {"Author Names": 2, "published": 2}


def test_long_abstract_is_cut_at_a_sentence_end_with_a_warning(tmp_path: Path) -> None:
    from graph.report import corpus_report

    sentence = "Kernel methods scale poorly with the number of samples. "
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"id": "long-1", "abstract": sentence * 400}) + "\n")
    section, warnings = corpus_report(read_corpus([path]))
    read = section["cut"][0]["read"]
    assert (section["cut"][0]["key"], section["cut"][0]["characters"]) == ("long-1", 22_399)
    assert read <= 20_000 and read % len(sentence) == len(sentence) - 1
    assert warnings == [f"{path}:1: paper long-1: the abstract is 22,399 characters; "
                        f"extraction read the first {read:,} (to a sentence end; the limit is "
                        "20,000)"]


def test_samples_build_passes_shacl(samples_build) -> None:
    pyshacl = pytest.importorskip("pyshacl")
    import rdflib

    _, work = samples_build
    root = Path(__file__).resolve().parent.parent
    data = rdflib.Graph().parse(work / "exports" / "graph.nt", format="nt")
    shapes = rdflib.Graph().parse(root / "data" / "shapes.ttl", format="turtle")
    ontology = rdflib.Graph().parse(root / "data" / "ontology.ttl", format="turtle")
    conforms, _, text = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology)
    assert conforms, text


def test_a_second_doi_breaks_the_shape(samples_build) -> None:
    pyshacl = pytest.importorskip("pyshacl")
    import rdflib

    _, work = samples_build
    root = Path(__file__).resolve().parent.parent
    data = rdflib.Graph().parse(work / "exports" / "graph.nt", format="nt")
    paper = next(s for s, _, _ in data.triples((None, rdflib.URIRef(PKG + "doi"), None)))
    data.add((paper, rdflib.URIRef(PKG + "doi"), rdflib.Literal("10.9/other")))
    shapes = rdflib.Graph().parse(root / "data" / "shapes.ttl", format="turtle")
    conforms, _, _ = pyshacl.validate(data, shacl_graph=shapes)
    assert not conforms


def test_csv_columns_named_as_a_service_names_them_are_paperkg_fields(tmp_path: Path) -> None:
    path = tmp_path / "zotero.csv"
    path.write_text("Title,Abstract,DOI,issued\nT,An abstract.,10.1/X,2020\n")
    [paper] = read_file(str(path)).papers
    assert (paper.title, paper.abstract, paper.doi, dict(paper.extra)) == (
        "T", "An abstract.", "10.1/X", {"issued": "2020"})


def test_arxiv_authors_string_with_latex_accents(tmp_path: Path) -> None:
    path = tmp_path / "arxiv.json"
    record = {"id": "0704.0001", "authors": "C. Bal\\'azs, E. L. Berger and P. M. Nadolsky",
              "title": "Diphoton\n  production", "categories": "hep-ph",
              "update_date": "2008-11-13", "abstract": "  A calculation.\n"}
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "id": "0704.0002"}) + "\n")
    paper = read_file(str(path)).papers[0]
    assert (paper.authors, paper.title, paper.year) == (
        ("C. Balázs", "E. L. Berger", "P. M. Nadolsky"), "Diphoton production", 2008)
