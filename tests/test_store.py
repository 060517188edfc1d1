"""graph.store: the embedded store, its atomic generations, incremental updates and errors."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, QueryBoolean
from rdf_corpus import BASE, PKG, make_corpus

from graph.build import build
from graph.build.incremental import remove_paper
from graph.build.update import replace_paper
from graph.errors import QueryError, StoreError
from graph.rdf import corpus_quads, entity_quads, paper_quads
from graph.store import DEFAULT_GRAPH, EmbeddedStore, Store, open_store
from graph.vocab import paper_iri, provenance_graph

ROOT = Path(__file__).resolve().parent.parent
NO_TAXONOMY = "/nonexistent/taxonomy.ttl"
KEY_A, KEY_B = "a1b2c3d4e5f6", "survey-1"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"


@pytest.fixture(scope="module")
def quads() -> list[Quad]:
    return corpus_quads(make_corpus(), taxonomy=NO_TAXONOMY)


def marker(i: int) -> Quad:
    return Quad(NamedNode(f"http://example.org/s{i}"), NamedNode("http://example.org/p"),
                Literal(str(i)), DefaultGraph())


def count(store: Store, where: str) -> int:
    rows = list(store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}"))
    return int(rows[0]["n"].value)


def test_round_trip_on_disk(tmp_path, quads):
    store = open_store(str(tmp_path / "store"))
    assert len(store) == 0
    store.replace_all(quads)
    assert set(store.quads()) == set(quads)
    assert len(store) == len(quads)
    store.close()
    reader = open_store(str(tmp_path / "store"), read_only=True)
    assert set(reader.quads()) == set(quads)
    reader.close()


def test_default_location_and_environment(tmp_path, monkeypatch, quads):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAPERKG_STORE", raising=False)
    store = open_store()
    assert store.location == os.path.join(".paperkg", "store")
    store.close()
    assert (tmp_path / ".paperkg" / "store").is_symlink()
    monkeypatch.setenv("PAPERKG_STORE", str(tmp_path / "elsewhere"))
    other = open_store()
    assert other.location == str(tmp_path / "elsewhere")
    other.close()


def test_quads_by_graph(quads):
    store = open_store(":memory:")
    store.replace_all(quads)
    facts = set(store.quads(DEFAULT_GRAPH))
    provenance = set(store.quads(provenance_graph(BASE)))
    assert facts == {q for q in quads if isinstance(q.graph_name, DefaultGraph)}
    assert provenance == {q for q in quads if not isinstance(q.graph_name, DefaultGraph)}
    assert facts | provenance == set(store.quads())


def test_query_graph_options(quads):
    store = open_store(":memory:")
    store.replace_all(quads)
    assert count(store, "?a a <http://www.w3.org/ns/oa#Annotation>") == 0
    annotations = count(
        store, "GRAPH ?g { ?a a <http://www.w3.org/ns/oa#Annotation> }"
    )
    assert annotations == 10
    union = list(store.query(
        "SELECT (COUNT(*) AS ?n) WHERE { ?a a <http://www.w3.org/ns/oa#Annotation> }",
        union_default_graph=True,
    ))
    assert int(union[0]["n"].value) == annotations
    chosen = list(store.query(
        "SELECT (COUNT(*) AS ?n) WHERE { ?a a <http://www.w3.org/ns/oa#Annotation> }",
        default_graph=[provenance_graph(BASE)],
    ))
    assert int(chosen[0]["n"].value) == annotations
    none_named = list(store.query(
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }", named_graphs=[],
    ))
    assert int(none_named[0]["n"].value) == 0
    assert isinstance(store.query(f"ASK {{ ?p a <{PKG}Paper> }}"), QueryBoolean)


def test_query_syntax_error_is_a_query_error():
    store = open_store(":memory:")
    with pytest.raises(QueryError, match="invalid SPARQL"):
        store.query("SELECT WHERE {")


def test_generation_changes_with_content(tmp_path, quads):
    store = open_store(str(tmp_path / "store"))
    first = store.generation()
    store.replace_all(quads)
    second = store.generation()
    store.add_quads([marker(1)])
    third = store.generation()
    remove_paper(store, KEY_B)
    assert len({first, second, third, store.generation()}) == 4
    memory = open_store(":memory:")
    before = memory.generation()
    memory.add_quads([marker(1)])
    assert memory.generation() != before


def test_reader_keeps_its_snapshot_until_refresh(tmp_path, quads):
    path = str(tmp_path / "store")
    writer = open_store(path)
    writer.replace_all(quads)
    reader = open_store(path, read_only=True)
    seen = reader.generation()
    writer.replace_all([marker(1)])
    # the reader still answers from the generation it opened, and can tell it changed
    assert len(reader) == len(quads)
    assert reader.generation() != seen
    assert reader.refresh() is True
    assert set(reader.quads()) == {marker(1)}
    assert reader.refresh() is False


def test_layout_is_a_symlink_to_one_generation(tmp_path, quads):
    path = tmp_path / "store"
    store = open_store(str(path))
    for i in range(4):
        store.replace_all([marker(i)])
    target = Path(os.readlink(path))
    assert target.parent.name == "store.d"
    folders = sorted(p.name for p in (tmp_path / "store.d").iterdir() if p.is_dir())
    # the current generation and the one it replaced, for readers still on it
    assert len(folders) == 2 and target.name in folders
    assert not list(tmp_path.glob(".store.*.link"))


def test_failed_load_leaves_previous_store(tmp_path, quads):
    path = str(tmp_path / "store")
    store = open_store(path)
    store.replace_all(quads)
    generation = store.generation()
    folders = set((tmp_path / "store.d").iterdir())

    def broken():
        yield marker(1)
        raise RuntimeError("parse failure half-way")

    with pytest.raises(RuntimeError):
        store.replace_all(broken())
    assert store.generation() == generation
    assert set(store.quads()) == set(quads)
    assert set((tmp_path / "store.d").iterdir()) == folders
    store.close()
    assert set(open_store(path, read_only=True).quads()) == set(quads)


def test_killed_load_leaves_previous_store(tmp_path, quads):
    path = str(tmp_path / "store")
    store = open_store(path)
    store.replace_all([marker(0)])
    store.close()
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad
        from graph.store import open_store

        def quads():
            for i in range(50_000):
                if i == 40_000:
                    os.kill(os.getpid(), signal.SIGKILL)
                yield Quad(NamedNode(f"http://example.org/k{{i}}"),
                           NamedNode("http://example.org/p"), Literal("x"), DefaultGraph())

        open_store({path!r}).replace_all(quads())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], timeout=120)
    assert done.returncode == -9
    reader = open_store(path, read_only=True)
    assert set(reader.quads()) == {marker(0)}
    reader.close()
    # the next writer clears the half-written generation away and works
    writer = open_store(path)
    writer.replace_all([marker(2)])
    assert set(writer.quads()) == {marker(2)}
    assert len([p for p in (tmp_path / "store.d").iterdir() if p.is_dir()]) == 2


def test_one_writer_at_a_time(tmp_path):
    path = str(tmp_path / "store")
    first = open_store(path)
    with pytest.raises(StoreError, match="another process"):
        open_store(path)
    first.close()
    open_store(path).close()


def test_read_only_refuses_writes(tmp_path):
    path = str(tmp_path / "store")
    open_store(path).close()
    reader = open_store(path, read_only=True)
    with pytest.raises(StoreError, match="read-only"):
        reader.add_quads([marker(1)])


def test_missing_store_for_reading(tmp_path):
    missing = tmp_path / "nothing"
    with pytest.raises(StoreError, match=str(missing)):
        open_store(str(missing), read_only=True)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(StoreError, match=str(locked)):
            open_store(str(locked / "store"))
    finally:
        locked.chmod(0o700)


def test_path_under_a_file_is_a_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match=str(blocker)):
        open_store(str(blocker / "store"))


def _plain_folder(tmp_path):
    """A store folder made by pyoxigraph itself (no generations), holding marker(7)."""
    import pyoxigraph

    folder = tmp_path / "plain"
    db = pyoxigraph.Store(str(folder))
    db.extend([marker(7)])
    db.flush()
    del db
    return folder


def test_plain_folder_store_is_adopted(tmp_path, quads):
    folder = _plain_folder(tmp_path)
    reader = open_store(str(folder), read_only=True)
    assert set(reader.quads()) == {marker(7)}
    reader.close()
    writer = open_store(str(folder))
    writer.replace_all(quads)
    assert folder.is_symlink()
    assert set(open_store(str(folder), read_only=True).quads()) == set(quads)


def test_a_reader_of_a_plain_folder_sees_it_adopted(tmp_path, quads):
    folder = _plain_folder(tmp_path)
    reader = open_store(str(folder), read_only=True)
    plain = reader.generation()
    assert plain.startswith("folder-") and reader.generation() == plain == reader.opened
    open_store(str(folder)).replace_all(quads)  # the plain folder becomes a generation
    assert reader.generation() not in (plain, "")
    assert reader.refresh() is True and reader.opened == reader.generation()
    assert set(reader.quads()) == set(quads)
    assert reader.refresh() is False


def test_closed_store(tmp_path):
    store = open_store(":memory:")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        len(store)


@pytest.mark.parametrize("location", [":memory:", "disk"])
def test_remove_paper(tmp_path, quads, location):
    store = open_store(location if location == ":memory:" else str(tmp_path / "s"))
    store.replace_all(quads)
    assert remove_paper(store, KEY_A) is True
    assert remove_paper(store, KEY_A) is False
    left = set(store.quads())
    # nothing of paper A is left: no facts, claims, results, annotations
    assert not any(KEY_A in q.subject.value or KEY_A in q.object.value for q in left)
    # entities only A linked are gone; shared ones lost one paper of support
    survivors = {q.subject.value for q in left if q.predicate.value == PKG + "support"}
    assert survivors == {BASE + "method/dense-routing", BASE + "task/graph-clustering"}
    support = {
        q.subject.value: q.object.value for q in left if q.predicate.value == PKG + "support"
    }
    assert support == {BASE + "method/dense-routing": "1", BASE + "task/graph-clustering": "1"}
    # B is whole; shared nodes (extractors, taxonomy domains) stay, the domain without support
    only_b = corpus_quads(_only(KEY_B), taxonomy=NO_TAXONOMY)
    assert _unshared(left) == _unshared(only_b)
    assert BASE + "domain/machine-learning" not in survivors


def _unshared(quads) -> set[Quad]:
    """Quads but those about the nodes papers share: extractors and domains."""
    return {
        q for q in quads
        if not q.subject.value.startswith((PKG + "extractor/", BASE + "domain/"))
    }


def _only(key: str):
    corpus = make_corpus()
    corpus.extractions = {key: corpus.extractions[key]}
    corpus.links = {key: corpus.links[key]}
    corpus.entities = {
        ref: e for ref, e in corpus.entities.items() if key in e.papers
    }
    for entity in corpus.entities.values():
        entity.papers = {key}
    return corpus


def test_replace_paper_adds_back(tmp_path, quads):
    store = open_store(str(tmp_path / "s"))
    store.replace_all(corpus_quads(_only(KEY_B), taxonomy=NO_TAXONOMY))
    corpus = make_corpus()
    new = paper_quads(corpus.extractions[KEY_A], corpus.links[KEY_A],
                      entities=corpus.entities)
    for ref in corpus.links[KEY_A]:
        if ref:
            new += entity_quads(corpus.entities[ref])
    replace_paper(store, paper_iri(BASE, KEY_A), new, base=BASE)
    # support recounted from the links, whatever the new quads said
    assert _unshared(store.quads()) == _unshared(quads)
    domain_support = Quad(NamedNode(BASE + "domain/machine-learning"),
                          NamedNode(PKG + "support"),
                          Literal("1", datatype=NamedNode(XSD_INTEGER)), DefaultGraph())
    assert domain_support in set(store.quads())
    # replacing again with the same quads changes nothing but the generation
    before = store.generation()
    content = set(store.quads())
    replace_paper(store, paper_iri(BASE, KEY_A), new, base=BASE)
    assert set(store.quads()) == content
    assert store.generation() != before


def test_add_quads_is_one_transaction(tmp_path):
    store = open_store(str(tmp_path / "s"))
    store.add_quads([marker(1), marker(2)])
    assert set(store.quads()) == {marker(1), marker(2)}


def test_url_opens_the_remote_backend(monkeypatch):
    import types

    opened = []
    fake = types.ModuleType("graph.store.remote")

    class RemoteStore:
        def __init__(self, location):
            opened.append(location)

    fake.RemoteStore = RemoteStore
    monkeypatch.setitem(sys.modules, "graph.store.remote", fake)
    store = open_store("http://127.0.0.1:7878/")
    assert isinstance(store, RemoteStore)
    assert opened == ["http://127.0.0.1:7878/"]


def test_embedded_store_meets_the_protocol():
    assert isinstance(open_store(":memory:"), Store)
    assert isinstance(open_store(":memory:"), EmbeddedStore)


def test_disk_full_is_a_store_error_and_keeps_the_store(tmp_path, quads, monkeypatch):
    import errno

    import pyoxigraph

    path = str(tmp_path / "store")
    store = open_store(path)
    store.replace_all(quads)
    folders = set((tmp_path / "store.d").iterdir())

    class FullStore:
        def __init__(self, folder):
            Path(folder).mkdir()

        def bulk_extend(self, items):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pyoxigraph, "Store", type("Patched", (), {
        "__new__": lambda cls, folder=None: FullStore(folder),
        "read_only": staticmethod(pyoxigraph.Store.read_only),
    }))
    with pytest.raises(StoreError, match=f"{path}.*no space left"):
        store.replace_all([marker(1)])
    monkeypatch.undo()
    assert set(store.quads()) == set(quads)
    assert set((tmp_path / "store.d").iterdir()) == folders


# -- N-Quads bulk loads and public updates ------------------------------------------------------


def nquads(quads) -> bytes:
    return "".join(f"{q} .\n" for q in quads).encode()


@pytest.mark.parametrize("location", ["disk", ":memory:"])
def test_replace_all_nquads_from_files_written_in_the_generation(tmp_path, quads, location):
    path = str(tmp_path / "store") if location == "disk" else location
    store = open_store(path)
    seen = []

    def fill(folder: Path) -> list[Path]:
        seen.append(folder)
        first, second = folder / "a.nq", folder / "b.nq"
        first.write_bytes(nquads(quads[:100]))
        second.write_bytes(nquads(quads[50:]) + nquads(quads[:10]))
        return [first, second]

    assert store.replace_all_nquads(fill) == len(quads)
    assert set(store.quads()) == set(quads)
    if location == "disk":
        assert seen[0].parent == tmp_path / "store.d"
        assert Path(os.readlink(tmp_path / "store")).name == seen[0].name
    assert not seen[0].exists() or not list(seen[0].glob("*.nq"))  # loaded files are gone
    assert store.replace_all_nquads([nquads(quads[:3])], count=False) is None
    assert set(store.quads()) == set(quads[:3])
    store.close()


def test_bad_nquads_is_a_store_error_and_keeps_the_store(tmp_path, quads):
    store = open_store(str(tmp_path / "store"))
    store.replace_all(quads)
    generation = store.generation()
    folders = set((tmp_path / "store.d").iterdir())

    def fill(folder: Path) -> list[Path]:
        (folder / "a.nq").write_bytes(nquads(quads[:5]) + b"<not an iri> <p> <o> .\n")
        return [folder / "a.nq"]

    with pytest.raises(StoreError, match="line"):
        store.replace_all_nquads(fill)
    assert store.generation() == generation
    assert set(store.quads()) == set(quads)
    assert set((tmp_path / "store.d").iterdir()) == folders
    store.close()


def test_files_a_generator_yields_load_on_a_second_thread_as_it_goes(tmp_path, quads,
                                                                    monkeypatch):
    import threading

    import graph.store.bulk as store_module

    loaded: list[tuple[str, str]] = []
    first_loaded = threading.Event()
    real_load = store_module._bulk_load

    def recording_load(db, item, location, lenient=False):
        real_load(db, item, location, lenient)
        loaded.append((Path(item).name, threading.current_thread().name))
        first_loaded.set()

    monkeypatch.setattr(store_module, "_bulk_load", recording_load)
    store = open_store(str(tmp_path / "store"))

    def fill(folder: Path):
        for n, part in enumerate((quads[:40], quads[40:80], quads[80:])):
            path = folder / f"part-{n}.nq"
            path.write_bytes(nquads(part))
            yield path
            if n == 0:
                # the first file is loaded while this generator still has work to do
                assert first_loaded.wait(10)
                assert loaded == [("part-0.nq", "paperkg-load")]

    assert store.replace_all_nquads(fill) == len(quads)
    assert loaded == [(f"part-{n}.nq", "paperkg-load") for n in range(3)]
    assert set(store.quads()) == set(quads)
    store.close()


# An IRI with a space: Oxigraph's lenient parser stores it as it is.
_BAD_IRI = b"<http://example.org/a b> <http://example.org/p> <http://example.org/o> .\n"


@pytest.mark.parametrize("location", ["memory", "disk"])
def test_loading_checks_each_iri_unless_asked_to_trust_the_text(tmp_path, location):
    path = ":memory:" if location == "memory" else str(tmp_path / "store")
    store = open_store(path)
    with pytest.raises(StoreError, match=r"cannot load N-Quads .*Invalid IRI code point ' '"):
        store.replace_all_nquads([_BAD_IRI])
    assert store.replace_all_nquads([_BAD_IRI], lenient=True) == 1
    store.close()


def test_a_build_loads_its_own_text_leniently(tmp_path, monkeypatch):
    import graph.store.bulk as store_module

    flags: list[bool] = []
    real_load = store_module._bulk_load

    def recording_load(db, item, location, lenient=False):
        flags.append(lenient)
        real_load(db, item, location, lenient)

    monkeypatch.setattr(store_module, "_bulk_load", recording_load)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"id": "p1", "title": "T", "abstract": "We propose FooNet, a new '
                      'method. It is evaluated on ImageNet."}\n', encoding="utf-8")
    build([str(corpus)], out_dir=None, store=str(tmp_path / "store"))
    assert flags and all(flags)


@pytest.mark.parametrize("failure", ["writer", "loader"])
def test_a_failure_on_either_side_of_a_streamed_load_keeps_the_store(tmp_path, quads, failure):
    store = open_store(str(tmp_path / "store"))
    store.replace_all(quads)
    generation = store.generation()
    folders = set((tmp_path / "store.d").iterdir())
    closed = []

    def fill(folder: Path):
        try:
            (folder / "a.nq").write_bytes(nquads(quads[:5]))
            yield folder / "a.nq"
            if failure == "writer":
                raise RuntimeError("the extractor broke")
            (folder / "b.nq").write_bytes(b"<not an iri> <p> <o> .\n")
            yield folder / "b.nq"
            for n in range(100):  # the loader's error stops the writer early
                (folder / f"c{n}.nq").write_bytes(nquads(quads[:1]))
                yield folder / f"c{n}.nq"
        finally:
            closed.append(True)

    expected = (RuntimeError, "extractor broke") if failure == "writer" else (StoreError, "line")
    with pytest.raises(expected[0], match=expected[1]):
        store.replace_all_nquads(fill)
    assert closed == [True]
    assert store.generation() == generation
    assert set(store.quads()) == set(quads)
    assert set((tmp_path / "store.d").iterdir()) == folders
    store.close()


def test_update_is_one_new_generation(tmp_path, quads):
    store = open_store(str(tmp_path / "store"))
    store.replace_all(quads)
    generation = store.generation()
    store.update(f"INSERT DATA {{ <http://example.org/s> <{PKG}x> 1 }} ; "
                 f"DELETE WHERE {{ ?p a <{PKG}Paper> ; <{PKG}nothing> ?o }}")
    assert store.generation() != generation
    assert count(store, f"<http://example.org/s> <{PKG}x> ?o") == 1
    with pytest.raises(QueryError):
        store.update("INSERT NONSENSE")
    assert isinstance(store, Store)
    store.close()
    with pytest.raises(StoreError, match="read-only"):
        open_store(str(tmp_path / "store"), read_only=True).update("CLEAR DEFAULT")


def test_nquads_files_roll_over_at_the_line_limit(tmp_path, quads):
    from graph.store import NQuadsFiles

    lines = [f"{q} .\n" for q in quads[:25]]
    with NQuadsFiles(tmp_path, "part", lines_per_file=10) as out:
        out.write(lines[:3])
        assert out.take_finished() == []
        out.write(lines[3:])
        # two files are full; the third is still open
        assert [p.name for p in out.take_finished()] == ["part-0000.nq", "part-0001.nq"]
        assert out.take_finished() == []
    assert [p.name for p in out.take_finished()] == ["part-0002.nq"]
    assert [p.name for p in out.paths] == ["part-0000.nq", "part-0001.nq", "part-0002.nq"]
    assert [len(p.read_text().splitlines()) for p in out.paths] == [10, 10, 5]
    store = open_store(":memory:")
    assert store.replace_all_nquads(out.paths) == 25
    assert set(store.quads()) == set(quads[:25])


def test_support_deltas_count_papers_not_links():
    from graph.build.update import support_deltas

    before = {"a": {"x", "y"}}
    after = {"a": {"y", "z"}, "b": {"z"}}
    assert support_deltas(before, after) == {"x": -1, "z": 2}
    assert support_deltas(after, after) == {}


def test_adjust_support_moves_the_stored_counts():
    import pyoxigraph

    from graph.build.update import adjust_support

    support = NamedNode(PKG + "support")
    xsd_integer = NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    popular, domain, fresh = (NamedNode(f"{BASE}{name}")
                              for name in ("method/popular", "domain/vision", "task/fresh"))
    db = pyoxigraph.Store()
    db.add(Quad(popular, support, Literal("3", datatype=xsd_integer), DefaultGraph()))
    db.add(Quad(domain, support, Literal("1", datatype=xsd_integer), DefaultGraph()))
    for operation in adjust_support({popular.value: 2, domain.value: -1, fresh.value: 1}):
        db.update(operation)
    assert {(q.subject, q.object.value) for q in db.quads_for_pattern(None, support, None)} == {
        (popular, "5"), (fresh, "1")}  # the domain with no paper left keeps no count
