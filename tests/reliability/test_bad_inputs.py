"""Bad corpus input through the real `paperkg build`: a clear one-line error naming the file
and the place (exit 2, no traceback), or the handling docs/corpus-formats.md describes, and
never a changed store or export folder when the build is refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pyoxigraph import NamedNode, RdfFormat, parse

from graph.vocab import DCTERMS, RDFS
from graph.store import open_store

from .conftest import PAPERKG, ROOT, Graph, assert_user_error, run_cli

PAPERS = "https://w3id.org/paperkg/id/paper/"
ABSTRACT = ("We propose Plover, a gated recurrent estimator for sensor drift. "
            "On the DriftBench dataset Plover reduces error by 3.5% over a Kalman filter.")
# One file per kind of damage: (file name, bytes, what the one-line error must name).
BAD_FILES: list[tuple[str, bytes, tuple[str, ...]]] = [
    ("latin1.txt", "Résumé of a paper about caches.\n".encode("latin-1"),
     ("line 1", "not valid UTF-8", "0xe9")),
    ("mixed.jsonl",
     json.dumps({"abstract": ABSTRACT}).encode() + b"\n"
     + json.dumps({"abstract": "Second paper."}).encode() + b"\n"
     + '{"abstract": "Caf\u00e9 au lait."}'.encode("cp1252") + b"\n",
     ("line 3", "not valid UTF-8")),
    ("empty.txt", b"", ("no abstracts found",)),
    ("blank.jsonl", b"\n \n\t\n", ("no abstracts found",)),
    ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
     ("binary file",)),
    ("utf16.txt", ABSTRACT.encode("utf-16"), ("UTF-16",)),
    ("broken.jsonl",
     (json.dumps({"abstract": ABSTRACT}) + "\n" + json.dumps({"abstract": "Two."}) + "\n"
      + '{"abstract": "Three.", "title": }\n').encode(),
     ("line 3", "malformed JSON", "column")),
    ("broken.json", b'[\n  {"abstract": "One."},\n  {"abstract": "Two.",,}\n]\n',
     ("line 3", "malformed JSON")),
    ("noabstract.csv", b"id,title,summary\np1,A title,Some text.\n",
     ("abstract",)),
    ("emptyabstract.csv", b"id,abstract\np1,Good text here.\np2,\n", ("line 3", "abstract")),
    ("unclosed.bib", b"@article{k1,\n  abstract = {Never closed,\n  year = 2020\n",
     ("line",)),
    ("object.jsonl", b'{"abstract": "Fine."}\n["not", "an", "object"]\n',
     ("line 2", "JSON object")),
    ("number.jsonl", b'{"abstract": 42}\n', ("line 1", "abstract")),
]


@pytest.mark.parametrize("name,data,needles", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file_is_refused_and_leaves_the_graph_alone(
    good_graph: Graph, tmp_path: Path, name: str, data: bytes, needles: tuple[str, ...]
) -> None:
    before = good_graph.snapshot()
    bad = tmp_path / name
    bad.write_bytes(data)
    result = run_cli(["build", str(bad), *good_graph.args()])
    assert_user_error(result, str(bad), *needles)
    assert good_graph.snapshot() == before


def test_bad_file_among_good_ones_refuses_the_whole_build(good_graph: Graph, tmp_path: Path
                                                         ) -> None:
    before = good_graph.snapshot()
    good = tmp_path / "a.jsonl"
    good.write_text(json.dumps({"abstract": ABSTRACT}) + "\n", encoding="utf-8")
    bad = tmp_path / "b.jsonl"
    bad.write_bytes(b'{"abstract": "ok"}\n{oops}\n')
    result = run_cli(["build", str(tmp_path), *good_graph.args()])
    assert_user_error(result, str(bad), "line 2")
    assert good_graph.snapshot() == before


def test_50_mb_single_line_is_refused_with_its_line(good_graph: Graph, tmp_path: Path) -> None:
    before = good_graph.snapshot()
    big = tmp_path / "huge.jsonl"
    with big.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"abstract": ABSTRACT}) + "\n")
        out.write('{"abstract": "' + "word " * 10_000_000 + '"}\n')
    assert big.stat().st_size > 50_000_000
    result = run_cli(["build", str(big), *good_graph.args()])
    line = assert_user_error(result, str(big), "line 2")
    assert "1,000,000" in line or "1000000" in line
    assert good_graph.snapshot() == before


def test_missing_file_names_it(good_graph: Graph, tmp_path: Path) -> None:
    before = good_graph.snapshot()
    result = run_cli(["build", str(tmp_path / "nope.jsonl"), *good_graph.args()])
    assert_user_error(result, "nope.jsonl")
    assert good_graph.snapshot() == before


def test_unsupported_extension_names_the_supported_ones(good_graph: Graph, tmp_path: Path
                                                        ) -> None:
    bad = tmp_path / "papers.xlsx"
    bad.write_bytes(b"PK\x03\x04")
    before = good_graph.snapshot()
    assert_user_error(run_cli(["build", str(bad), *good_graph.args()]), "papers.xlsx", ".jsonl")
    assert good_graph.snapshot() == before


def test_installed_command_prints_one_line_and_no_traceback(good_graph: Graph, tmp_path: Path
                                                           ) -> None:
    """The real process, not the test runner: stderr is the one error line."""
    before = good_graph.snapshot()
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(b'{"abstract": "x"}\n\x00\x01\x02')
    proc = subprocess.run([*PAPERKG, "build", str(bad), *good_graph.args()], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        f"paperkg: error: {bad}: line 2: binary file (NUL byte); corpus files are UTF-8 text"
    ]
    assert proc.stdout == ""
    assert good_graph.snapshot() == before


# -- input that is handled, not refused ------------------------------------------------------


def literals(graph: Graph, predicate: str) -> dict[str, list[str]]:
    """Paper IRI -> values of `predicate` in the store."""
    store = open_store(str(graph.store), read_only=True)
    try:
        found: dict[str, list[str]] = {}
        for quad in store.quads(""):
            if quad.predicate == NamedNode(predicate):
                found.setdefault(quad.subject.value, []).append(quad.object.value)
        return found
    finally:
        store.close()


def export_literals(graph: Graph, predicate: str) -> dict[str, set[str]]:
    """File name -> every value of `predicate` of a paper in that export, parsed back."""
    formats = {"graph.ttl": RdfFormat.TURTLE, "graph.nt": RdfFormat.N_TRIPLES,
               "graph.jsonld": RdfFormat.JSON_LD, "graph.rdf": RdfFormat.RDF_XML,
               "graph.trig": RdfFormat.TRIG, "graph.nq": RdfFormat.N_QUADS}
    found = {}
    for name, fmt in formats.items():
        with (graph.exports / name).open("rb") as handle:
            found[name] = {t.object.value for t in parse(handle, fmt)
                           if t.predicate == NamedNode(predicate)
                           and t.subject.value.startswith(PAPERS)}
    return found


def build_ok(graph: Graph, *paths: Path):
    result = run_cli(["build", *map(str, paths), *graph.args()])
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_bom_and_crlf_are_dropped(good_graph: Graph, tmp_path: Path) -> None:
    corpus = tmp_path / "windows.txt"
    corpus.write_bytes(b"\xef\xbb\xbfWorkshop list\r\n\r\n"
                       + ABSTRACT.replace(". ", ".\r\n").encode() + b"\r\n\r\n"
                       + b"A second abstract about graph sparsifiers.\r\n")
    build_ok(good_graph, corpus)
    abstracts = sorted(v for vs in literals(good_graph, DCTERMS + "abstract").values()
                       for v in vs)
    assert abstracts == ["A second abstract about graph sparsifiers.",
                         ABSTRACT.replace(". ", ".\n")]
    venues = literals(good_graph, "https://schema.org/isPartOf")
    assert {v for vs in venues.values() for v in vs} == {"Workshop list"}


def test_duplicate_id_with_a_different_abstract_warns_and_keeps_the_first(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = tmp_path / "dups.jsonl"
    corpus.write_text(
        json.dumps({"id": "p-1", "abstract": ABSTRACT}) + "\n"
        + json.dumps({"id": "p 1", "abstract": "An entirely different abstract."}) + "\n",
        encoding="utf-8",
    )
    result = build_ok(good_graph, corpus)
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "p-1" in warnings[0] and "dups.jsonl" in warnings[0], warnings
    assert literals(good_graph, DCTERMS + "abstract") == {
        "https://w3id.org/paperkg/id/paper/p-1": [ABSTRACT]
    }


def test_200_kb_abstract_is_built_verbatim(good_graph: Graph, tmp_path: Path) -> None:
    # Short plain sentences: the parse stays linear (see docs/security.md on long sentences).
    sentence = "Rain fell on the old harbour town overnight. "
    long_abstract = (sentence * (200_000 // len(sentence) + 1)).strip()
    assert len(long_abstract) > 200_000
    corpus = tmp_path / "long.jsonl"
    corpus.write_text(json.dumps({"id": "long", "abstract": long_abstract}) + "\n",
                      encoding="utf-8")
    build_ok(good_graph, corpus)
    assert literals(good_graph, DCTERMS + "abstract") == {
        "https://w3id.org/paperkg/id/paper/long": [long_abstract]
    }
    assert set(map(frozenset, export_literals(good_graph, DCTERMS + "abstract").values())) == {
        frozenset({long_abstract})
    }


SCRIPTS = {
    "cjk": "我们提出了一种新的图神经网络方法，在 CiteGraph 数据集上准确率提高了 3.1%。",
    "rtl": "نقترح طريقة جديدة لتصنيف النصوص الطويلة. We test it on ArabicNews.",
    "hebrew": "אנו מציעים שיטה חדשה. The method \u202ereverses\u202c nothing.",
    "emoji": "We propose 🦜Parrot-Net 🚀, a model family 👨‍👩‍👧 for speech; it gains 2% 🎉.",
    "latex": r"We bound the regret by $\mathcal{O}(\sqrt{T \log T})$ and show $\alpha_{t} \to 0$.",
    "quotes": "We call it \"Q\\\"uote\" and 'apostrophe' with a backslash \\ and <tags> & amps.",
}


def test_scripts_emoji_and_latex_survive_store_and_every_export(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = tmp_path / "scripts.jsonl"
    corpus.write_text("".join(json.dumps({"id": name, "title": text[:40], "abstract": text},
                                         ensure_ascii=False) + "\n"
                              for name, text in SCRIPTS.items()), encoding="utf-8")
    build_ok(good_graph, corpus)
    stored = literals(good_graph, DCTERMS + "abstract")
    assert {iri.rsplit("/", 1)[1]: v for iri, v in stored.items()} == {
        name: [text] for name, text in SCRIPTS.items()
    }
    for name, values in export_literals(good_graph, DCTERMS + "abstract").items():
        assert values == set(SCRIPTS.values()), name
    titles = export_literals(good_graph, DCTERMS + "title")
    for name, values in titles.items():
        assert values == {t[:40].strip() for t in SCRIPTS.values()}, name


def test_control_characters_are_removed_or_become_spaces(good_graph: Graph, tmp_path: Path
                                                        ) -> None:
    corpus = tmp_path / "controls.jsonl"
    dirty = "We\x0bpropose\x0cthe Tern\x00 method\x07 for\x1b[31m\u0085 tables.\x7f"
    corpus.write_text(json.dumps({"id": "ctl", "title": "Tern\x08\x01", "abstract": dirty})
                      + "\n", encoding="utf-8")
    build_ok(good_graph, corpus)
    assert literals(good_graph, DCTERMS + "abstract") == {
        "https://w3id.org/paperkg/id/paper/ctl": ["We propose the Tern method for[31m  tables."]
    }
    for name, values in export_literals(good_graph, RDFS + "label").items():
        assert "Tern" in values, name


UNSAFE_IDS = ['a b', 'x<y>"z"', "{brace}|pipe^`tick`", "back\\slash", "../../etc/passwd",
              "%2e%2e%2f", "?q=1#frag", "名前", "\u202eevil", "a\tb\nc", "😀"]


def test_iri_unsafe_ids_become_safe_keys_that_round_trip(good_graph: Graph, tmp_path: Path
                                                        ) -> None:
    corpus = tmp_path / "ids.jsonl"
    corpus.write_text("".join(
        json.dumps({"id": given, "abstract": f"{ABSTRACT} Variant {n}."}) + "\n"
        for n, given in enumerate(UNSAFE_IDS)), encoding="utf-8")
    build_ok(good_graph, corpus)
    # the IRI ends in a safe key; dcterms:identifier keeps the id as given
    papers = literals(good_graph, DCTERMS + "identifier")
    assert sorted(given for (given,) in papers.values()) == sorted(UNSAFE_IDS)
    for iri in papers:
        key = iri.removeprefix("https://w3id.org/paperkg/id/paper/")
        assert key and all(c.isascii() and (c.isalnum() or c in "-.+") for c in key), key
        assert not key.startswith(".")
    for name, values in export_literals(good_graph, DCTERMS + "identifier").items():
        assert values == set(UNSAFE_IDS), name
