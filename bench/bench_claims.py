"""What the claim classifier adds to a build: CPU seconds of claim extraction with the shipped
classifier and with the rules alone, against the spaCy parse of the same abstracts, all in this
process (ratios, so a busy machine moves both sides).

    .venv/bin/python bench/bench_claims.py --papers 1000

Reads the first N abstracts of ../shared/data/paperlists (statistics only; nothing is written).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph import nlp as nlp_loader  # noqa: E402
from graph.extractors import claim_model, claims  # noqa: E402
from graph.extractors.tokens import release  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "data" / "paperlists" / "abstracts.jsonl.gz"


def abstracts(path: Path, n: int) -> list[str]:
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            text = json.loads(line).get("abstract")
            if text:
                out.append(text)
            if len(out) >= n:
                break
    return out


def cpu(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--abstracts", type=Path, default=DEFAULT)
    args = parser.parse_args()
    texts = abstracts(args.abstracts, args.papers)
    nlp = nlp_loader.load()
    docs = []
    parse = cpu(lambda: docs.extend(nlp.pipe(texts)))
    claim_model.shipped()  # loaded once per build, not per paper

    def extract_all() -> None:
        for doc in docs:
            claims.extract(doc)
            release(doc)

    extract_all()  # warm the caches both runs share
    learned = cpu(extract_all)
    os.environ[claim_model.ENV_SWITCH] = "off"
    claim_model.shipped.cache_clear()
    rules = cpu(extract_all)
    report = {
        "papers": len(texts),
        "parse_cpu_s": round(parse, 2),
        "claims_with_classifier_cpu_s": round(learned, 2),
        "claims_rules_only_cpu_s": round(rules, 2),
        "classifier_added_over_parse": round((learned - rules) / parse, 3),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
