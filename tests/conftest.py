"""Fixtures shared by the whole suite: one build of the demo corpus per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO_CORPUS = ROOT / "data" / "corpus"


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory):
    """The demo corpus built into a temporary store and export folder."""
    from graph.build import build

    work = tmp_path_factory.mktemp("demo")
    result = build([DEMO_CORPUS], out_dir=work / "exports", store=str(work / "store"))
    return result, work
