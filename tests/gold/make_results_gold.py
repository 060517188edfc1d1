"""Write tests/gold/results.json from the hand annotations (results-annotations.json) and the
paper lists abstracts: character spans and a SHA-256 of each abstract, no text.

Run from the repository root:  .venv/bin/python tests/gold/make_results_gold.py [--shared DIR]

Deterministic. A quantity's `text` must occur in its abstract as a whole number (not inside a
longer one); where it occurs more than once its entry says which (`nth`, 0 first).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from graph.errors import InputError  # noqa: E402
from graph.eval.gold_areas import records_by_id  # noqa: E402
from graph.eval.gold_results import text_hash  # noqa: E402

SOURCE = (
    "Numbers in result sentences of paper lists abstracts (papercopilot/paperlists @ 33f9884e; "
    "ACL, NAACL, CVPR, ICML, NeurIPS), annotated by hand for this project; the abstracts are "
    "read from the paper lists file when scored. See tests/gold/README.md."
)
FIELDS = ("value", "unit", "metric", "metric_aliases", "dataset", "baseline")


def locate(abstract: str, text: str, nth: int | None, where: str) -> tuple[int, int]:
    pattern = re.compile(r"(?<![\w.])" + re.escape(text) + r"(?![\d])")
    starts = [m.start() for m in pattern.finditer(abstract)]
    if not starts:
        raise InputError(f"{where}: {text!r} not found")
    if nth is None and len(starts) > 1:
        raise InputError(f"{where}: {text!r} occurs {len(starts)} times; say which (nth)")
    index = nth or 0
    if index >= len(starts):
        raise InputError(f"{where}: {text!r} has no occurrence {index}")
    return starts[index], starts[index] + len(text)


def build(annotations: dict, shared: Path | None) -> dict:
    records = records_by_id(annotations["papers"], shared)
    papers = []
    for pid in sorted(annotations["papers"]):
        record = records[pid]
        quantities = []
        for n, q in enumerate(annotations["papers"][pid]):
            start, end = locate(record["abstract"], q["text"], q.get("nth"), f"{pid}[{n}]")
            item = {"start": start, "end": end, "text": q["text"], "result": bool(q["result"])}
            if q["result"]:
                item.update({k: q.get(k) for k in FIELDS if k != "metric_aliases"})
                if q.get("metric_aliases"):
                    item["metric_aliases"] = q["metric_aliases"]
            quantities.append(item)
        quantities.sort(key=lambda item: item["start"])
        papers.append({"id": pid, "venue": record["venue"], "year": record["year"],
                       "sha256": text_hash(record["abstract"]), "quantities": quantities})
    return {"version": 1, "source": SOURCE, "papers": papers}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=HERE / "results.json")
    args = parser.parse_args(argv)
    annotations = json.loads((HERE / "results-annotations.json").read_text(encoding="utf-8"))
    try:
        gold = build(annotations, args.shared)
    except InputError as exc:
        print(f"make_results_gold: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(gold, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = sum(len(p["quantities"]) for p in gold["papers"])
    print(f"wrote {args.out}: {len(gold['papers'])} papers, {n} quantities")
    return 0


if __name__ == "__main__":
    sys.exit(main())
