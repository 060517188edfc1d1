"""The README's and docs/api.md's examples run as printed on the demo graph, and answer.

A shell block preceded by `<!-- readme-test: KIND -->` is run here, command by command:

- `demo`: paperkg commands in a folder where `paperkg build` has built the demo corpus;
- `own-corpus`: paperkg commands from an empty folder (with `docs/` of this repository);
- `http`: curl commands, answered by the app over the demo graph through Flask's test client.

`paperkg serve` is started for real on a free port and asked for /healthz. Each command's
output is checked for what it promises: rows for queries, nodes for neighbourhoods, a page for
`viz`, status 200 and a non-empty answer with the columns the query selects for curl.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pyoxigraph
import pytest
from click.testing import CliRunner

from graph.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = {"README.md": ROOT / "README.md", "docs/api.md": ROOT / "docs" / "api.md"}
MARK = re.compile(r"<!-- readme-test: ([\w-]+) -->\n```sh\n(.*?)```", re.S)
PAPERKG = ".venv/bin/paperkg"


def blocks(name: str) -> list[tuple[str, list[str]]]:
    """(kind, commands) of each marked block of a document, commands joined across lines."""
    found = []
    for kind, body in MARK.findall(DOCS[name].read_text(encoding="utf-8")):
        commands: list[str] = []
        pending = ""
        for line in body.splitlines():
            if not pending and (not line.strip() or line.lstrip().startswith("#")):
                continue
            pending += line + "\n"
            try:
                shlex.split(pending, comments=True)
            except ValueError:  # an open quote: the command goes on
                continue
            if pending.rstrip().endswith("\\"):
                continue
            commands.append(pending.replace("\\\n", " ").strip())
            pending = ""
        assert not pending, f"{name}: unfinished command {pending!r}"
        found.append((kind, commands))
    return found


def test_the_readme_and_api_doc_have_marked_blocks() -> None:
    kinds = [kind for kind, _ in blocks("README.md")]
    assert kinds == ["own-corpus", "demo", "http"]
    assert [kind for kind, _ in blocks("docs/api.md")] == ["http"]
    for name in DOCS:
        for _, commands in blocks(name):
            assert commands and all(c.startswith((PAPERKG, "curl ")) for c in commands)


def test_the_make_targets_the_readme_names_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    text = DOCS["README.md"].read_text(encoding="utf-8")
    for target in re.findall(r"^make (\w+)", text, re.M):
        assert re.search(rf"^{target}:", makefile, re.M), target


# -- paperkg commands -------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(args: list[str], folder: Path) -> str:
    """Start `paperkg serve ARGS` on a free port, wait for /healthz, stop it: what it said."""
    port = _free_port()
    if "--port" in args:
        args = args[: args.index("--port")] + args[args.index("--port") + 2 :]
    command = [str(Path(sys.executable).with_name("paperkg")), "serve", *args,
               "--port", str(port)]
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as answer:
                    return str(json.load(answer)["status"])
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stderr.read().decode()) from None  # type: ignore[union-attr]
                time.sleep(0.1)
        raise AssertionError("paperkg serve did not answer /healthz within 60 s")
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stderr.close()  # type: ignore[union-attr]


def _selected(query: str) -> list[str] | None:
    """The variables a SELECT projects, in order; None for SELECT *."""
    head = re.search(r"SELECT\s+(?:DISTINCT\s+)?(.*?)\s*WHERE", query, re.S | re.I)
    if not head or head.group(1).strip() == "*":
        return None
    projected = re.sub(r"\(.*?AS\s+(\?\w+)\)", r"\1", head.group(1), flags=re.S | re.I)
    return re.findall(r"\?(\w+)", projected)


def run_paperkg(command: str, folder: Path) -> str:
    """Run one README paperkg command in `folder`; check its output; return it."""
    args = shlex.split(command, comments=True)
    assert args[0] == PAPERKG, command
    args = args[1:]
    if args[0] == "serve":
        assert _serve(args[1:], folder) == "ok"
        return "ok"
    here = Path.cwd()
    os.chdir(folder)
    try:
        done = CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(here)
    assert done.exit_code == 0, f"{command}\n{done.output}"
    out = done.output
    name = args[0]
    if name == "build" and "--add" not in args:
        assert int(re.search(r"^built (\d+) papers", out, re.M).group(1)) > 0, out
    elif name == "build":
        assert re.search(r"^added [1-9]\d* papers", out, re.M), out
    elif name == "remove":
        assert out == f"removed paper {args[1]}\n"
    elif name == "stats":
        assert int(re.search(r"^papers\s+(\d+)$", out, re.M).group(1)) > 0, out
    elif name == "query":
        assert int(re.search(r"^\((\d+) rows?\)$", out, re.M).group(1)) > 0, out
        assert out.split()[: len(_selected(args[1]) or [])] == _selected(args[1]), out
    elif name == "neighbours":
        assert len(out.splitlines()) > 2, out
    elif name == "viz":
        page = (folder / args[args.index("--out") + 1]).read_text(encoding="utf-8")
        data = re.search(r'id="graph-data">(.*?)</script>', page, re.S).group(1)
        assert len(json.loads(data)["nodes"]) > 2
    elif name == "export":
        root = ET.parse(folder / args[args.index("--out") + 1]).getroot()
        assert len([e for e in root.iter() if e.tag.endswith("}node")]) > 2
    else:
        raise AssertionError(f"no check for `paperkg {name}`: add one to tests/test_readme.py")
    return out


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where `paperkg build` has built the demo corpus (as `make build` does)."""
    folder = tmp_path_factory.mktemp("demo")
    run_paperkg(f"{PAPERKG} build", folder)
    return folder


def test_readme_demo_commands(demo: Path) -> None:
    (commands,) = [c for kind, c in blocks("README.md") if kind == "demo"]
    for command in commands:
        run_paperkg(command, demo)


def test_readme_own_corpus_commands(tmp_path: Path) -> None:
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (commands,) = [c for kind, c in blocks("README.md") if kind == "own-corpus"]
    outputs = [run_paperkg(command, tmp_path) for command in commands]
    # The four example papers built, one added, one removed.
    assert re.search(r"^papers\s+4$", outputs[3], re.M), outputs[3]


# -- curl commands --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(demo: Path) -> Iterator[Any]:
    from api import create_app

    app = create_app({"store": str(demo / ".paperkg" / "store"), "TESTING": True,
                      "rate_limit": 0, "query_workers": 1,
                      "exports_dir": str(demo / "exports")})
    yield app.test_client()
    app.extensions["paperkg"].close()


def curl(command: str, client: Any) -> Any:
    """Send a curl command line (the options the docs use) through the test client."""
    args = shlex.split(command, comments=True)
    assert args[0] == "curl", command
    get, headers, form, body, url = False, {}, [], None, None
    items = iter(args[1:])
    for arg in items:
        if arg == "-G":
            get = True
        elif arg == "-H":
            name, _, value = next(items).partition(":")
            headers[name.strip()] = value.strip()
        elif arg == "--data-urlencode":
            name, _, value = next(items).partition("=")
            form.append((name, value))
        elif arg == "--data-binary":
            body = next(items).encode()
        elif arg.startswith("http"):
            url = urlsplit(arg)
        else:
            raise AssertionError(f"curl option {arg!r} is not understood by this test")
    assert url is not None and url.netloc == "127.0.0.1:5000", command
    path = url.path + (f"?{url.query}" if url.query else "")
    if get or (not form and body is None):
        if form:
            path += ("&" if url.query else "?") + urlencode(form)
        return client.get(path, headers=headers)
    if body is not None:
        return client.post(path, data=body, headers=headers)
    return client.post(path, data=dict(form), headers=headers)


def check_answer(command: str, response: Any) -> None:
    assert response.status_code == 200, (command, response.get_data(as_text=True)[:500])
    kind = response.mimetype
    text = response.get_data(as_text=True)
    query = next((v for k, v in _form_of(command) if k == "query"), None)
    columns = _selected(query) if query else None
    if kind in ("text/csv", "text/tab-separated-values"):
        rows = list(csv.reader(io.StringIO(text), delimiter="," if kind == "text/csv" else "\t"))
        header = [c.lstrip("?") for c in rows[0]]
        assert len(rows) > 1, (command, text)
        if columns:
            assert header == columns, (command, header)
    elif kind == "application/sparql-results+json":
        answer = json.loads(text)
        assert answer["results"]["bindings"], command
        if columns:
            assert answer["head"]["vars"] == columns, command
    elif kind == "application/json":
        answer = json.loads(text)
        lists = [v for v in answer.values() if isinstance(v, list)]
        assert lists and all(lists), (command, answer)
    elif kind in ("text/turtle", "application/n-triples", "application/ld+json"):
        fmt = {"text/turtle": pyoxigraph.RdfFormat.TURTLE,
               "application/n-triples": pyoxigraph.RdfFormat.N_TRIPLES,
               "application/ld+json": pyoxigraph.RdfFormat.JSON_LD}[kind]
        assert len(list(pyoxigraph.parse(text, format=fmt))) > 0, command
    else:
        raise AssertionError(f"{command}: no check for {kind}")


def _form_of(command: str) -> list[tuple[str, str]]:
    args = shlex.split(command, comments=True)
    return [tuple(args[i + 1].partition("=")[::2])  # type: ignore[misc]
            for i, a in enumerate(args) if a == "--data-urlencode"]


@pytest.mark.parametrize("name", list(DOCS))
def test_curl_examples_answer(name: str, client: Any) -> None:
    commands = [c for kind, block in blocks(name) if kind == "http" for c in block]
    assert commands
    for command in commands:
        check_answer(command, curl(command, client))


def test_the_results_curl_gives_the_metric_column(client: Any) -> None:
    (commands,) = [c for kind, c in blocks("README.md") if kind == "http"]
    results = next(c for c in commands if "pkg:result" in c)
    rows = list(csv.reader(io.StringIO(curl(results, client).get_data(as_text=True)),
                           delimiter="\t"))
    assert rows[0] == ["?value", "?unit", "?metric", "?sentence"]
    assert len(rows) == 21  # the header and twenty of the demo's 21 results
