"""The indexed attribute rules against spaCy's own: the same annotations, and how much faster.

    python bench/bench_attribute_rules.py                  # 300 generated abstracts, ~30 s
    python bench/bench_attribute_rules.py --scirex ../shared/data/scirex --papers 2000

Parses the same texts with `graph.nlp.load`'s pipeline (attribute rules matched through
`graph.nlp.attribute_rules.IndexedMatch`) and with the same pipeline given back spaCy's
Matcher-based `AttributeRuler.match`, compares every token's text, tag, part of speech,
morphology, lemma, dependency label and head, and prints the CPU time of each and their
ratio. With `--scirex`, the texts also include the SciREX train documents' bodies, cut into
passages of 400 words (up to 6,000 words a document). Exits 1 if any token differs.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _scirex_passages(folder: Path, words_per_passage: int = 400, max_words: int = 6000):
    files = sorted(glob.glob(str(folder / "train_docs" / "*.json"))) or sorted(
        glob.glob(str(folder / "*.json")))
    for name in files:
        words = json.loads(Path(name).read_text(encoding="utf-8"))["words"][:max_words]
        for i in range(0, len(words), words_per_passage):
            yield " ".join(words[i : i + words_per_passage])


def _timed_arrays(nlp, texts, columns):
    start = time.process_time()
    arrays = [doc.to_array(columns) for doc in nlp.pipe(texts, batch_size=64)]
    return arrays, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=300, help="generated abstracts")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scirex", type=Path, default=None, help="also SciREX's bodies")
    args = parser.parse_args(argv)

    from spacy.attrs import DEP, HEAD, LEMMA, MORPH, ORTH, POS, TAG

    from bench.gen_corpus import Generator
    from graph import nlp as nlp_loader

    texts = [record["abstract"] for record in Generator(args.seed).papers(args.papers)]
    if args.scirex:
        texts += list(_scirex_passages(args.scirex))
    indexed = nlp_loader.load()
    stock = nlp_loader.load_with_spacy_rules()
    columns = [ORTH, TAG, POS, MORPH, LEMMA, DEP, HEAD]
    list(indexed.pipe(texts[:20]))
    list(stock.pipe(texts[:20]))
    fast, fast_s = _timed_arrays(indexed, texts, columns)
    slow, slow_s = _timed_arrays(stock, texts, columns)
    differing = [i for i, (a, b) in enumerate(zip(fast, slow, strict=True))
                 if a.shape != b.shape or (a != b).any()]
    tokens = sum(len(a) for a in fast)
    print(f"{len(texts):,} texts, {tokens:,} tokens")
    print(f"nlp.pipe, indexed attribute rules   {fast_s:8.2f} s CPU")
    print(f"nlp.pipe, spaCy's AttributeRuler    {slow_s:8.2f} s CPU")
    print(f"speed-up {slow_s / fast_s:.2f}x; texts whose annotations differ: {len(differing)}")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
