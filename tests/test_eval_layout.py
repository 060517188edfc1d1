"""Evaluation depends on extraction, never the other way round: no module that extracts (the
extractors, the NLP loading and the tagger's runtime, the pipeline, the resolver) imports
graph.eval or graph.tagger (the tagger's training, which reads the annotated corpora), so an
extraction change cannot pull scoring or training code into a build."""

from __future__ import annotations

import ast
from pathlib import Path

GRAPH = Path(__file__).resolve().parents[1] / "graph"
EXTRACTION = ("extractors", "nlp", "nlp.py", "pipeline.py", "resolve.py", "generic.py",
              "name_forms.py", "venue_tracks.py")


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _extraction_modules() -> list[Path]:
    found: list[Path] = []
    for name in EXTRACTION:
        path = GRAPH / name
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.is_file() else []
    return found


def test_extraction_never_imports_eval():
    modules = _extraction_modules()
    assert len(modules) > 10  # the extractors themselves were found
    offenders = {
        str(path.relative_to(GRAPH)): sorted(n for n in _imported(path) if n == "graph.eval"
                                             or n.startswith("graph.eval."))
        for path in modules
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_extraction_never_imports_the_tagger_training():
    offenders = {
        str(path.relative_to(GRAPH)): sorted(n for n in _imported(path) if n == "graph.tagger"
                                             or n.startswith("graph.tagger."))
        for path in _extraction_modules()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_import_check_sees_an_eval_import(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from graph.eval.matching import normalise\n", encoding="utf-8")
    assert "graph.eval.matching" in _imported(module)
