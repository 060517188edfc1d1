"""Copy the files the W3C query tests read into tests/w3c/sparql/ (run from the repository
root): `python tests/w3c/copy_suite.py ../shared/data/w3c-sparql`. The manifests and the query
and data files they name, with the suites' licence; not the expected-result files (the test
compares the endpoint's answers with Oxigraph's server's, not with stored results), nor the
update, protocol and entailment suites."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import suite


def main(source: Path, target: Path) -> None:
    root = source / "sparql"
    wanted = {*suite.manifests(root)}
    for test in suite.tests(root):
        wanted.update(suite.path_of(root, iri) for iri in test.files)
    if target.exists():
        shutil.rmtree(target)
    for path in sorted(wanted):
        destination = target / path.relative_to(root)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)
    shutil.copyfile(source / "LICENSE.md", target / "LICENSE.md")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(__file__).parent / "sparql")
