"""Gold converters on small made-up records: exact offsets, the SciERC type rules, neutral spans,
CSAbstruct sentences, the AAAI areas and the fixed splits."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from graph import eval as ev
from graph.errors import InputError
from graph.eval import gold_areas, gold_csabstruct, gold_scierc
from graph.eval.scirex_passages import train_split
from graph.eval.splits import AAAI_DEV_SHARE, SCIREX_DEV_SHARE, is_dev
from graph.model import Mention, Paper, PaperExtraction

GOLD_DIR = Path(__file__).parent / "gold"

SCIERC_RECORD = {
    "doc_key": "X99-1001",
    "sentences": [
        ["We", "train", "conditional", "random", "fields", "-LRB-", "CRFs", "-RRB-", "on",
         "the", "Penn", "Treebank", "and", "raw", "images", "."],
        ["``", "It", "''", "improves", "F1", "on", "parsing", "'s", "errors", "."],
    ],
    "ner": [
        [[2, 4, "Method"], [6, 6, "Method"], [10, 11, "Material"], [13, 14, "Material"]],
        [[17, 17, "Generic"], [20, 20, "Metric"], [22, 22, "Task"],
         [24, 24, "OtherScientificTerm"]],
    ],
}


def test_scierc_text_maps_ptb_tokens_back_with_exact_offsets():
    paper = gold_scierc.convert(SCIERC_RECORD)
    text = paper["abstract"]
    assert text == (
        'We train conditional random fields (CRFs) on the Penn Treebank and raw images. '
        '"It" improves F1 on parsing\'s errors.'
    )
    for item in paper["mentions"] + paper["neutral"]:
        assert text[item["start"]:item["end"]] == item["text"]
    assert [(m["type"], m["text"]) for m in paper["mentions"]] == [
        ("method", "conditional random fields"), ("method", "CRFs"),
        ("dataset", "Penn Treebank"), ("metric", "F1"), ("task", "parsing"),
    ]


def test_scierc_material_is_a_dataset_only_with_a_capital_or_digit():
    paper = gold_scierc.convert(SCIERC_RECORD)
    assert paper["entities"]["dataset"] == [{"name": "Penn Treebank", "aliases": []}]
    assert [(n["text"], n["label"]) for n in paper["neutral"]] == [
        ("raw images", "Material"), ("It", "Generic"), ("errors", "OtherScientificTerm"),
    ]
    assert gold_scierc.is_name("TREC-8") and gold_scierc.is_name("WSJ")
    assert not gold_scierc.is_name("speech data")
    assert not gold_scierc.is_name("Image sets", starts_sentence=True)
    assert gold_scierc.is_name("ImageCLEF", starts_sentence=True)


def test_scierc_long_form_and_acronym_are_one_entity():
    paper = gold_scierc.convert(SCIERC_RECORD)
    assert paper["entities"]["method"] == [
        {"name": "conditional random fields", "aliases": ["CRFs"]}
    ]
    assert paper["id"] == "scierc:X99-1001"


def test_a_span_with_its_acronym_in_brackets_also_names_both_parts():
    assert gold_scierc.inner_forms("natural language processing (NLP)") == [
        "natural language processing", "NLP"]
    assert gold_scierc.inner_forms("lexical conceptual structure (LCS) representations") == [
        "lexical conceptual structure representations"]
    assert gold_scierc.inner_forms("(a) list") == [] and gold_scierc.inner_forms("HMM") == []
    record = {"doc_key": "Y", "sentences": [["We", "use", "hidden", "Markov", "models", "-LRB-",
                                             "HMMs", "-RRB-", "."]],
              "ner": [[[2, 7, "Method"]]]}
    entity = gold_scierc.convert(record)["entities"]["method"][0]
    assert entity == {"name": "hidden Markov models (HMMs)",
                      "aliases": ["HMMs", "hidden Markov models"]}


def _neutral_gold(tmp_path: Path) -> list[ev.GoldPaper]:
    paper = gold_scierc.convert(SCIERC_RECORD)
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"papers": [paper]}), encoding="utf-8")
    return ev.load_gold(path)


def _mention(type_: str, text: str, abstract: str, **kw) -> Mention:
    start = abstract.index(text)
    return Mention(type=type_, text=text, start=start, end=start + len(text), extractor="t",
                   confidence=1.0, **kw)


def test_a_prediction_on_a_neutral_span_counts_neither_way(tmp_path: Path):
    gold = _neutral_gold(tmp_path)
    text = gold[0].abstract
    assert gold[0].neutral[0] == (text.index("raw images"), text.index("raw images") + 10,
                                  "raw images")
    mentions = [
        _mention("method", "conditional random fields", text),  # gold: right
        _mention("dataset", "raw images", text),  # neutral span: neither
        _mention("task", "errors", text),  # neutral span: neither
        _mention("method", "train", text),  # nothing: wrong
    ]
    ext = PaperExtraction(paper=Paper(key=gold[0].id, abstract=text), mentions=mentions)
    report = ev.score(gold, [ext], use_resolver=False)
    assert (report.entities["method"].tp, report.entities["method"].fp) == (1, 1)
    assert (report.entities["dataset"].tp, report.entities["dataset"].fp,
            report.entities["dataset"].fn) == (0, 0, 1)
    assert (report.entities["task"].tp, report.entities["task"].fp) == (0, 0)
    assert report.neutral == {"method": 0, "dataset": 1, "task": 1, "metric": 0}
    # without the neutral spans the same predictions are wrong
    plain = [ev.GoldPaper(**{**gold[0].__dict__, "neutral": ()})]
    again = ev.score(plain, [ext], use_resolver=False)
    assert again.entities["dataset"].fp == 1 and again.entities["task"].fp == 1


def test_csabstruct_sentences_joined_with_offsets():
    record = {"abstract_id": 0,
              "sentences": ["Deep nets are big.", " We prune them. ", "It works."],
              "labels": ["background", "method", "result"], "confs": [1.0, 0.6667, 0.5]}
    paper = gold_csabstruct.convert(record, "dev", 7)
    assert paper["id"] == "csabstruct:dev:7"
    assert paper["abstract"] == "Deep nets are big. We prune them. It works."
    assert [(paper["abstract"][s["start"]:s["end"]], s["label"], s["conf"])
            for s in paper["sentences"]] == [
        ("Deep nets are big.", "background", 1.0), ("We prune them.", "method", 0.6667),
        ("It works.", "result", 0.5)]


def test_csabstruct_bad_record_names_the_line(tmp_path: Path):
    path = tmp_path / "dev.jsonl"
    good = {"abstract_id": 0, "sentences": ["A."], "labels": ["result"], "confs": [1.0]}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "labels": ["nonsense"]}) + "\n")
    with pytest.raises(InputError, match=r"dev\.jsonl:2: bad CSAbstruct record"):
        gold_csabstruct.build(path, "dev")


def _paperlists(folder: Path, records: list[dict]) -> Path:
    path = folder / "paperlists" / "abstracts.jsonl.gz"
    path.parent.mkdir(parents=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for r in records:
            handle.write(json.dumps(r) + "\n")
    return path


def test_areas_gold_keeps_ids_tracks_and_slugs_not_texts(tmp_path: Path):
    records = [
        {"id": f"aaai-{n}", "venue": "AAAI", "year": 2022, "title": "T", "abstract": "secret text",
         "primary_area": track}
        for n, track in enumerate(["Computer Vision II", "Domain(s) Of Application",
                                   "Speech and Natural Language Processing"])
    ] + [{"id": "cvpr-1", "venue": "CVPR", "year": 2019, "title": "T", "abstract": "x"}]
    gold = gold_areas.build(_paperlists(tmp_path, records))
    assert "secret" not in json.dumps(gold)
    assert [(p["id"], p["domains"]) for p in gold["papers"]] == [
        ("aaai-0", ["computer-vision"]),
        ("aaai-2", ["natural-language-processing", "speech-and-audio"]),
    ]
    assert all(p["split"] == ("dev" if is_dev(p["id"], AAAI_DEV_SHARE) else "train")
               for p in gold["papers"])


def test_every_mapped_area_is_a_taxonomy_concept():
    broader = ev.taxonomy_broader()
    ttl = ev.TAXONOMY.read_text(encoding="utf-8")
    assert broader is not None
    for slugs in gold_areas.TRACK_AREAS.values():
        for slug in slugs:
            assert f"dom:{slug} a skos:Concept" in ttl


def test_missing_paperlists_is_one_clear_error(tmp_path: Path):
    with pytest.raises(InputError, match="paper lists file not found.*--shared DIR"):
        gold_areas.paperlists_path(tmp_path)


def test_committed_splits_follow_graph_splits():
    full = json.loads((GOLD_DIR / "dev.json").read_text(encoding="utf-8"))["papers"]
    train = json.loads((GOLD_DIR / "scirex-train.json").read_text(encoding="utf-8"))["papers"]
    dev = json.loads((GOLD_DIR / "scirex-dev.json").read_text(encoding="utf-8"))["papers"]
    assert sorted(p["id"] for p in train + dev) == sorted(p["id"] for p in full)
    assert all(is_dev(p["id"], SCIREX_DEV_SHARE) for p in dev)
    assert not any(is_dev(p["id"], SCIREX_DEV_SHARE) for p in train)
    areas = json.loads((GOLD_DIR / "aaai-areas.json").read_text(encoding="utf-8"))["papers"]
    assert all((p["split"] == "dev") == is_dev(p["id"], AAAI_DEV_SHARE) for p in areas)
    assert all("abstract" not in p and "title" not in p for p in areas)


def test_the_scorer_trains_on_the_scirex_train_split_only():
    docs = [{"doc_id": f"doc-{n}"} for n in range(200)]
    kept = train_split(docs)
    assert kept and len(kept) < len(docs)
    assert not any(is_dev(d["doc_id"], SCIREX_DEV_SHARE) for d in kept)
    assert len(kept) + sum(is_dev(d["doc_id"], SCIREX_DEV_SHARE) for d in docs) == len(docs)


@pytest.mark.parametrize("name", ["scierc-train", "scierc-dev", "csabstruct-dev"])
def test_committed_gold_spans_sit_at_their_offsets(name):
    papers = json.loads((GOLD_DIR / f"{name}.json").read_text(encoding="utf-8"))["papers"]
    assert len({p["id"] for p in papers}) == len(papers)
    for p in papers:
        text = p["abstract"]
        for item in p.get("mentions", []) + p.get("neutral", []):
            assert text[item["start"]:item["end"]] == item["text"], (p["id"], item)
        sentences = p.get("sentences", [])
        assert all(0 <= s["start"] < s["end"] <= len(text) for s in sentences)
        assert all(a["end"] < b["start"] for a, b in zip(sentences, sentences[1:], strict=False))
