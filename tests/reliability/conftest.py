"""Fixtures of the reliability suite: a good graph built once, copied per test, and
byte-level snapshots of a store and an export folder."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from graph.cli import cli

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = HERE / "data"
GOOD_CORPUS = DATA / "good.jsonl"
PAPERKG = [sys.executable, "-m", "graph"]


@dataclass
class Graph:
    """A built graph: `root/store` (symlink + `store.d/`) and `root/exports`."""

    root: Path

    @property
    def store(self) -> Path:
        return self.root / "store"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    def args(self) -> list[str]:
        return ["--store", str(self.store), "--out", str(self.exports), "--no-progress"]

    def snapshot(self) -> dict[str, tuple[str, bytes | str]]:
        """The store as readers see it (the link and the generation it names) and every
        file of the export folder. Generations no link names are garbage a writer may clear."""
        found = {"store": ("link", os.readlink(self.store))}
        current = self.store.resolve()
        found.update({f"store/{k}": v for k, v in snapshot(current).items()})
        found.update({f"exports/{k}": v for k, v in snapshot(self.exports).items()})
        return found


def snapshot(root: Path, skip: Sequence[str] = ()) -> dict[str, tuple[str, bytes | str]]:
    """Every file's bytes and every symlink's target under `root`, by relative path."""
    found: dict[str, tuple[str, bytes | str]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if name in skip:
                continue
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_file():
                found[rel] = ("file", path.read_bytes())
            else:
                found[rel] = ("dir", "")
    return found


def run_cli(args: Sequence[str]) -> Result:
    """`paperkg ARGS` in this process; unexpected exceptions surface in `result.exception`."""
    return CliRunner().invoke(cli, list(args))


def assert_user_error(result: Result, *needles: str) -> str:
    """Exit 2 with exactly one line `paperkg: error: ...` naming every needle."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.strip("\n").split("\n")
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("paperkg: error: "), line
    for needle in needles:
        assert needle in line, (needle, line)
    return line


@pytest.fixture(scope="session")
def good_graph_template(tmp_path_factory) -> Graph:
    """The good corpus built once with the real CLI; tests copy it, never change it."""
    graph = Graph(tmp_path_factory.mktemp("good-graph"))
    result = run_cli(["build", str(GOOD_CORPUS), *graph.args()])
    assert result.exit_code == 0, (result.output, result.exception)
    return graph


@pytest.fixture
def good_graph(good_graph_template: Graph, tmp_path: Path) -> Graph:
    """A private copy of the good graph (the store's symlink is relative, so it moves)."""
    graph = Graph(tmp_path / "graph")
    shutil.copytree(good_graph_template.root, graph.root, symlinks=True)
    return graph


def generated_corpus(path: Path, papers: int, *, seed: int) -> Path:
    """`papers` synthetic abstracts from bench/gen_corpus.py, as JSON Lines at `path`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_corpus", ROOT / "bench" / "gen_corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_corpus", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    module.write_jsonl(module.generate(papers, seed=seed), path)
    return path


def store_fingerprint(store: Path) -> tuple[int, int]:
    """(quads, hash of their sorted N-Quads) of a store opened read-only: proves it readable."""
    from graph.store import open_store

    target = open_store(str(store), read_only=True)
    try:
        lines = sorted(str(q) for q in target.quads())
    finally:
        target.close()
    return len(lines), hash("\n".join(lines))


def export_state(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@contextlib.contextmanager
def tmpfs(path: Path, *, size: str = "4m", read_only: bool = False):
    """A tmpfs mounted at `path` (its files copied in first); skips where mount is refused."""
    import tempfile

    path.mkdir(parents=True, exist_ok=True)
    saved = Path(tempfile.mkdtemp(prefix="tmpfs-saved-")) / path.name
    shutil.copytree(path, saved, symlinks=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(saved.parent)
        pytest.skip(f"cannot mount a tmpfs here (needs root and mount rights): "
                    f"{proc.stderr.strip()}")
    try:
        shutil.copytree(saved, path, symlinks=True, dirs_exist_ok=True)
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)
        shutil.rmtree(saved.parent, ignore_errors=True)


HOSTILE_CORPUS = DATA / "hostile.jsonl"


@pytest.fixture(scope="session")
def hostile_graph(tmp_path_factory) -> Graph:
    """Titles, venues, authors, keywords and claims with markup and script, built for real."""
    graph = Graph(tmp_path_factory.mktemp("hostile-graph"))
    result = run_cli(["build", str(HOSTILE_CORPUS), *graph.args()])
    assert result.exit_code == 0, (result.output, result.exception)
    # A file beside the export folder that no URL may reach.
    (graph.root / "secret.txt").write_text("TOP-SECRET-BESIDE-EXPORTS\n", encoding="utf-8")
    return graph


def hostile_app_config(graph: Graph, **overrides) -> dict:
    config = {"TESTING": True, "store": str(graph.store), "exports_dir": str(graph.exports),
              "rate_limit": 0, "query_workers": 1, "query_time_limit_ms": 3000,
              "row_cap": 500, "max_request_bytes": 20_000}
    config.update(overrides)
    return config


@pytest.fixture(scope="session")
def hostile_app(hostile_graph: Graph):
    from api import create_app

    app = create_app(hostile_app_config(hostile_graph))
    yield app
    app.extensions["paperkg"].close()
