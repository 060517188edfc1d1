"""Training the research-area classifier: which papers it learns from, and a tiny end-to-end run."""

from __future__ import annotations

import gzip
import json

from graph.eval import train_areas as trainer
from graph.eval.splits import AAAI_DEV_SHARE, is_dev
from graph.extractors import areas

VISION = "images pixels camera segmentation of images detection"
LANGUAGE = "sentences words translation parsing of sentences tokens"
LEARNING = "regret bounds convergence of gradient descent bandits"


def _ids(prefix: str, dev: bool, count: int) -> list[str]:
    found, n = [], 0
    while len(found) < count:
        rid = f"{prefix}{n}"
        if is_dev(rid, AAAI_DEV_SHARE) == dev:
            found.append(rid)
        n += 1
    return found


def _corpus(tmp_path):
    records = []
    for i in range(6):
        records.append({"id": f"cv{i}", "venue": "CVPR", "abstract": f"{VISION} {i}"})
        records.append({"id": f"nl{i}", "venue": "NAACL", "abstract": f"{LANGUAGE} {i}"})
        records.append({"id": f"ml{i}", "venue": "ICML", "abstract": f"{LEARNING} {i}"})
    for rid in _ids("aaai-cv", False, 5):
        records.append({"id": rid, "venue": "AAAI", "abstract": VISION,
                        "primary_area": "Computer Vision II"})
    for rid in _ids("aaai-ml", False, 5):
        records.append({"id": rid, "venue": "AAAI", "abstract": LEARNING,
                        "primary_area": "Machine Learning I"})
    dev = _ids("aaai-dev", True, 3)
    for rid in dev:
        records.append({"id": rid, "venue": "AAAI", "abstract": LANGUAGE,
                        "primary_area": "Speech and Natural Language Processing"})
    records.append({"id": _ids("aaai-app", False, 1)[0], "venue": "AAAI", "abstract": VISION,
                    "primary_area": "Domain(s) Of Application"})
    records.append({"id": "other", "venue": "Elsewhere", "abstract": VISION})
    path = tmp_path / "abstracts.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    return path, set(dev)


def test_examples_leave_out_dev_unmapped_tracks_and_other_venues(tmp_path):
    path, dev = _corpus(tmp_path)
    examples = trainer.read_examples(path)
    ids = {e.id for e in examples}
    assert not ids & dev
    assert "other" not in ids
    assert len(examples) == 18 + 10
    labels = {e.id: e.label for e in examples}
    assert labels["cv0"] == "computer-vision" and labels["nl0"] == "natural-language-processing"
    assert labels["ml0"] == "machine-learning"
    assert sum(e.track is not None for e in examples) == 10


def test_score_counts_papers_and_areas_through_the_hierarchy():
    chosen = [["semantic-segmentation"], ["machine-learning", "computer-vision"], ["robotics"]]
    tracks = ["Computer Vision I", "Machine Learning II", "Machine Learning III"]
    assert trainer.score(chosen, tracks) == (2 / 3, 2 / 4)


def test_training_writes_a_model_that_predicts_its_fields(tmp_path, monkeypatch):
    path, _ = _corpus(tmp_path)
    monkeypatch.setattr(trainer, "SETTINGS", {"ngram_range": [1, 1], "min_df": 1,
                                              "max_features": 1000})
    out = tmp_path / "model"
    message = trainer.train(str(out), source=path)
    assert message.startswith("areas model: 28 abstracts (10 AAAI train)")
    first = (out / "areas.json.gz").read_bytes()
    model = areas.parse(out / "areas.json.gz")
    assert model.classes == ("computer-vision", "machine-learning", "natural-language-processing")
    assert model.predict(VISION)[0][0] == "computer-vision"
    assert model.predict(LANGUAGE)[0][0] == "natural-language-processing"
    report = json.loads((out / "areas.report.json").read_text(encoding="utf-8"))
    assert report["aaai_train_papers"] == 10
    assert report["cross_validated"]["agree"] == 1.0
    trainer.train(str(out), source=path)
    assert (out / "areas.json.gz").read_bytes() == first
