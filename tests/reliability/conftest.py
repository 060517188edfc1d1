"""Fixtures of the reliability suite: a good graph built once, copied per test, and
byte-level snapshots of a store and an export folder."""

from __future__ import annotations

import os
import shutil
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
        return snapshot(self.root, skip=("writer.lock",))


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
