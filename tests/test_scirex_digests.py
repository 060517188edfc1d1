"""The SciREX train-split build holds its exports' SHA-256 digests: moving code must not move bytes.

The demo build's exports are compared byte for byte in tests/test_build.py; this test does the
same for a larger and more varied input, the 235 SciREX train-split abstracts of
tests/gold/scirex-train.json (title and abstract of each paper, keyed by its SciREX doc id),
against the digests committed in tests/data/scirex-train-digests.json.

When extraction changes on purpose, regenerate the digests and commit them with the change:

    .venv/bin/python tests/test_scirex_digests.py

(the same build as the test, written over tests/data/scirex-train-digests.json).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold" / "scirex-train.json"
DIGESTS = ROOT / "tests" / "data" / "scirex-train-digests.json"
EXPORT_FILES = ["graph.ttl", "graph.nt", "graph.jsonld", "graph.rdf", "graph.trig", "graph.nq",
                "report.json", "report.md"]


def write_corpus(path: Path) -> Path:
    """The gold file's papers as a JSON Lines corpus: id, title and abstract, in gold order."""
    papers = json.loads(GOLD.read_text(encoding="utf-8"))["papers"]
    with path.open("w", encoding="utf-8") as out:
        for paper in papers:
            record = {"id": paper["id"], "title": paper["title"], "abstract": paper["abstract"]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def build_digests(work: Path) -> dict:
    """Build the SciREX train split into `work` and return the digests of its exports."""
    from graph.build import build

    corpus = write_corpus(work / "scirex-train.jsonl")
    result = build([corpus], out_dir=work / "exports", store=str(work / "store"))
    return {
        "papers": result.papers,
        "quads": result.quads,
        "sha256": {name: hashlib.sha256((work / "exports" / name).read_bytes()).hexdigest()
                   for name in EXPORT_FILES},
    }


@pytest.fixture(scope="module")
def scirex_build(tmp_path_factory):
    return build_digests(tmp_path_factory.mktemp("scirex"))


def test_scirex_build_size(scirex_build):
    committed = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert scirex_build["papers"] == committed["papers"] == 235
    assert scirex_build["quads"] == committed["quads"]


@pytest.mark.parametrize("name", EXPORT_FILES)
def test_scirex_exports_match_committed_digests(scirex_build, name):
    committed = json.loads(DIGESTS.read_text(encoding="utf-8"))["sha256"]
    assert scirex_build["sha256"][name] == committed[name], (
        f"{name} of the SciREX train build changed: if on purpose, run "
        "`.venv/bin/python tests/test_scirex_digests.py` and commit tests/data/"
        "scirex-train-digests.json")


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        digests = build_digests(Path(tmp))
    DIGESTS.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {DIGESTS.relative_to(ROOT)}\n")
