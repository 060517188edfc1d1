"""Cost of entity extraction per abstract, as ratios to spaCy's parse of the same abstracts.

    python bench/bench_tagger.py                  # 200 synthetic abstracts (bench/gen_corpus.py)
    python bench/bench_tagger.py --papers 1000 --threads 1

Each stage runs over the same parsed Docs in this process, after a warm-up:
  parse      `graph.nlp.load()` nlp.pipe alone (the baseline, ratio 1.00)
  rules      the rule candidates (methods/datasets/models/tasks/metrics .v1 share them)
  tagger     the ONNX tagger alone on each abstract's text
  mentions   "mentions.v2" (tagger + rule candidates), what a default build runs
Printed: CPU milliseconds per abstract and the ratio to parse; no thresholds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_corpus import Generator  # noqa: E402

from graph import nlp as nlp_loader  # noqa: E402
from graph.extractors import candidates, mentions  # noqa: E402
from graph.nlp import tagging  # noqa: E402


def _clock(fn) -> float:
    # CPU time of this process: steadier than wall time on a shared machine, and the tagger's
    # single intra-op thread is the calling thread
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--papers", type=int, default=200)
    ap.add_argument("--threads", type=int, default=1, help="the tagger's intra-op threads")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    gen = Generator(args.seed)
    texts = [str(gen.paper(i)["abstract"]) for i in range(args.papers)]
    nlp = nlp_loader.load()
    tagger = tagging.configure(threads=args.threads)
    list(nlp.pipe(texts[:5]))
    tagger.tag(texts[0])

    docs: list = []
    parse = _clock(lambda: docs.extend(nlp.pipe(texts)))
    rules = _clock(lambda: [candidates.compute(d, candidates.scorer_mod.default()) for d in docs])
    tag = _clock(lambda: [tagger.tag(t) for t in texts])
    for d in docs:
        d.user_data.clear()
    both = _clock(lambda: [mentions.extract(d) for d in docs])
    pieces = sum(len(tagging.pieces(tagger.tokenizer, t).ids) for t in texts)
    n = len(texts)
    sys.stdout.write(
        f"{n} abstracts, {pieces / n:.0f} wordpieces each, tagger threads {args.threads}\n"
    )
    for name, secs in (("parse", parse), ("rules", rules), ("tagger", tag), ("mentions", both)):
        per = 1000 * secs / n
        sys.stdout.write(f"{name:9s} {per:8.2f} CPU ms/abstract  x{secs / parse:5.2f} of parse\n")
    sys.stdout.write(f"tagger    {pieces / tag:8.0f} wordpieces/s\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
