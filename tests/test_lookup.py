"""graph.lookup: a paper or node by key, original id, DOI/arXiv/OpenAlex id, label or IRI; one
lookup behind `paperkg remove`, `neighbours` and `viz`; "did you mean" for unknown names."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from graph import lookup
from graph.cli import cli
from graph.store import open_store
from graph.vocab import DEFAULT_BASE

PAPER = DEFAULT_BASE + "paper/"
RECORDS = [
    {"id": "B1tC-LT6W", "title": "Self-Play Agents",
     "abstract": "We train negotiation agents by self-play with proximal policy optimization."},
    {"id": "b1tc-lt6w", "title": "Tabular Foundation Models",
     "abstract": "A transformer pretrained on synthetic tables classifies unseen tables."},
    {"id": "2401.04321", "arxiv": "arXiv:2401.04321", "doi": "10.5555/ABC.123",
     "openalex": "https://openalex.org/W4391234567", "title": "Low-Rank Adapters",
     "abstract": "We fine-tune speech recognisers with low-rank adapters on LibriSpeech."},
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from graph.build import build

    work = tmp_path_factory.mktemp("lookup")
    corpus = work / "papers.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    build([corpus], out_dir=None, store=str(work / "store"))
    return work / "store"


@pytest.fixture()
def store(built):
    target = open_store(str(built), read_only=True)
    yield target
    target.close()


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("B1tC-LT6W", "b1tc-lt6w-cf988b52"),
        ("b1tc-lt6w", "b1tc-lt6w"),
        ("b1tc-lt6w-cf988b52", "b1tc-lt6w-cf988b52"),
        ("paper/b1tc-lt6w", "b1tc-lt6w"),
        (PAPER + "b1tc-lt6w", "b1tc-lt6w"),
        ("10.5555/abc.123", "2401.04321"),
        ("https://doi.org/10.5555/ABC.123", "2401.04321"),
        ("arXiv:2401.04321", "2401.04321"),
        ("W4391234567", "2401.04321"),
        ("https://openalex.org/W4391234567", "2401.04321"),
        ("tabular  foundation-models", "b1tc-lt6w"),
    ],
)
def test_paper_by_any_of_its_names(store, name: str, key: str) -> None:
    assert lookup.paper(store, name, DEFAULT_BASE) == PAPER + key


def test_original_ids_match_only_in_their_own_case(store) -> None:
    with pytest.raises(lookup.UnknownName) as info:
        lookup.paper(store, "B1TC-LT6W", DEFAULT_BASE)
    assert info.value.suggestions == ["B1tC-LT6W", "b1tc-lt6w"]
    assert str(info.value) == ("no paper named 'B1TC-LT6W'; did you mean 'B1tC-LT6W', "
                               "'b1tc-lt6w'?")


def test_an_entity_by_its_label(store) -> None:
    found = lookup.resolve(store, "LibriSpeech", DEFAULT_BASE)
    assert found == DEFAULT_BASE + "dataset/librispeech"


def test_an_unknown_entity_suggests_close_node_ids(store) -> None:
    with pytest.raises(lookup.UnknownName) as info:
        lookup.resolve(store, "dataset/librispeach", DEFAULT_BASE)
    assert info.value.suggestions[0] == "dataset/librispeech"


def test_nothing_close_suggests_nothing(store) -> None:
    with pytest.raises(lookup.UnknownName, match=r"^no paper or node named 'zzzz'$"):
        lookup.resolve(store, "zzzz", DEFAULT_BASE)


def test_cli_neighbours_and_viz_take_the_original_id(built, tmp_path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["neighbours", "B1tC-LT6W", "--store", str(built)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        f"paper    Self-Play Agents  <{PAPER}b1tc-lt6w-cf988b52>")
    out = tmp_path / "v.html"
    result = runner.invoke(cli, ["viz", "W4391234567", "--store", str(built), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Low-Rank Adapters" in out.read_text()


def test_cli_unknown_name_is_one_line_with_suggestions_and_exit_2(built) -> None:
    result = CliRunner().invoke(cli, ["neighbours", "B1tC-LT6X", "--store", str(built)])
    assert result.exit_code == 2
    assert result.output == ("paperkg: error: no paper or node named 'B1tC-LT6X'; "
                             "did you mean 'B1tC-LT6W', 'b1tc-lt6w'?\n")


def test_cli_remove_by_original_id_removes_only_that_paper(built, tmp_path) -> None:
    copy = tmp_path / "store"
    shutil.copytree(built, copy)
    runner = CliRunner()
    result = runner.invoke(cli, ["remove", "B1tC-LT6W", "--store", str(copy)])
    assert (result.exit_code, result.output) == (0, "removed paper B1tC-LT6W\n")
    again = runner.invoke(cli, ["remove", "B1tC-LT6W", "--store", str(copy)])
    assert again.exit_code == 2
    target = open_store(str(copy), read_only=True)
    try:
        keys = sorted(r[0].value for r in target.query(
            "SELECT ?p WHERE { ?p a <https://w3id.org/paperkg/ns#Paper> }"))
    finally:
        target.close()
    assert keys == [PAPER + "2401.04321", PAPER + "b1tc-lt6w"]


# --- HTTP: the same lookup behind /api/papers/…, /paper/… and /api/neighbourhood?node= -----


@pytest.fixture(scope="module")
def client(built, tmp_path_factory):
    from api import create_app

    exports = tmp_path_factory.mktemp("lookup-exports")
    app = create_app({"TESTING": True, "store": str(built), "exports_dir": str(exports),
                      "rate_limit": 0, "query_workers": 1})
    yield app.test_client()
    app.extensions["paperkg"].close()


@pytest.mark.parametrize("name", ["B1tC-LT6W", "b1tc-lt6w-cf988b52"])
def test_api_paper_by_original_id_or_key(client, name: str) -> None:
    response = client.get(f"/api/papers/{name}")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["key"], body["identifier"], body["title"]) == (
        "b1tc-lt6w-cf988b52", "B1tC-LT6W", "Self-Play Agents")


def test_api_paper_by_doi_with_its_slash(client) -> None:
    response = client.get("/api/papers/10.5555/ABC.123")
    assert (response.status_code, response.get_json()["key"]) == (200, "2401.04321")


def test_api_unknown_paper_is_404_with_suggestions(client) -> None:
    response = client.get("/api/papers/B1tC-LT6X")
    assert response.status_code == 404
    assert response.get_json()["error"]["message"] == (
        "no paper named 'B1tC-LT6X'; did you mean 'B1tC-LT6W', 'b1tc-lt6w'?")


def test_api_neighbourhood_of_an_original_id(client) -> None:
    response = client.get("/api/neighbourhood?node=B1tC-LT6W")
    assert response.status_code == 200
    assert response.get_json()["centre"] == "paper/b1tc-lt6w-cf988b52"
    missing = client.get("/api/neighbourhood?node=dataset/librispeach")
    assert missing.status_code == 404
    assert "did you mean 'dataset/librispeech'" in missing.get_json()["error"]["message"]


def test_paper_page_by_original_id(client) -> None:
    response = client.get("/paper/B1tC-LT6W")
    assert response.status_code == 200
    assert "Self-Play Agents" in response.get_data(as_text=True)
    assert client.get("/paper/B1tC-LT6X").status_code == 404
