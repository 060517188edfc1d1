"""Seeded generator of synthetic but realistic paper abstracts, for benchmarks at any size.

    python bench/gen_corpus.py --papers 2000 --seed 7 --out /tmp/corpus.jsonl

Each abstract is 5-9 sentences in the usual order of the genre: background, gap, contribution
("We propose X, a ..."), method, experiments ("on D1 and D2"), results with numbers ("improves
M by 3.2%") and an optional conclusion. Every sentence comes from hand-written templates with
several phrasings per role, so spaCy sees varied syntax, not one frame repeated.

Names are synthetic and built combinatorially (no list of real names is copied): methods from
modifier + mechanism + architecture words ("Sparse Gated Transformer", optionally with its
acronym "SGT"), datasets from stems + suffixes ("HoloBench-7", "CityScan-3D"), models from
invented stems + sizes ("Veltra-7B"), tasks from object + activity ("protein structure
prediction"). Metrics are the generic measures any field reports (accuracy, F1 ...). Each pool
is drawn with Zipf-distributed ranks (exponent `--zipf`), so a few names recur across many
papers and most are rare — the long tail a real literature has, which is what stresses
cross-corpus linking and the store.

The output is JSON Lines with `id`, `title`, `abstract`, `authors`, `year`, `venue`: the input
format graph.corpus reads. The same seed and size always give the same file.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

# --- word material for names (invented combinations of ordinary words) -------------------

_METHOD_MODIFIERS = (
    "Sparse", "Gated", "Hierarchical", "Adaptive", "Contrastive", "Recurrent", "Latent",
    "Equivariant", "Stochastic", "Bayesian", "Residual", "Dynamic", "Federated", "Implicit",
    "Masked", "Curriculum", "Spectral", "Causal", "Modular", "Continual", "Robust", "Quantized",
    "Distilled", "Multiscale", "Temporal", "Geometric", "Variational", "Self-Supervised",
    "Low-Rank", "Kernelized", "Progressive", "Symmetric", "Local", "Global", "Deformable",
)
_METHOD_MECHANISMS = (
    "Attention", "Diffusion", "Message Passing", "Routing", "Memory", "Pooling", "Mixing",
    "Alignment", "Calibration", "Retrieval", "Tokenization", "Sampling", "Propagation",
    "Distillation", "Augmentation", "Pruning", "Regularization", "Refinement", "Fusion",
    "Normalization", "Matching", "Prompting", "Planning", "Search", "Reweighting",
)
_METHOD_HEADS = (
    "Transformer", "Network", "Autoencoder", "Encoder", "Policy Optimization", "Flow",
    "Estimator", "Framework", "Learner", "Solver", "Decoder", "Operator", "Embedding",
    "Graph Network", "Mixture of Experts", "Sampler", "Tuning", "Objective", "Ensemble",
)
_DATASET_STEMS = (
    "Holo", "City", "Med", "Astro", "Geo", "Bio", "Aqua", "Terra", "Lingo", "Chem", "Vox",
    "Robo", "Agri", "Neuro", "Fin", "Retail", "Traffic", "Climate", "Code", "Math", "Legal",
    "Ortho", "Derma", "Sky", "Ocean", "Urban", "Pheno", "Cell", "Quant", "Story",
)
_DATASET_SUFFIXES = (
    "Bench", "Scan", "Set", "QA", "Net", "Corpus", "Track", "Vision", "Sense", "Pairs",
    "Graph", "Text", "Sound", "World", "Instruct", "Dial",
)
_DATASET_TAILS = ("", "", "", "-7", "-3D", "-10K", "-Long", "-Hard", "-v2", "-XL", "-Mini", "-21")
_MODEL_STEMS = (
    "Veltra", "Osmir", "Cendra", "Lumo", "Pavik", "Quorra", "Tessin", "Marlo", "Zefir", "Ardun",
    "Kelvo", "Sirra", "Noven", "Brisa", "Talon", "Yarrow", "Ferra", "Ombra", "Halden", "Ivra",
)
_MODEL_SIZES = ("-1B", "-3B", "-7B", "-13B", "-70B", "-Base", "-Large", "-Small", "-Mini", "-XL")
_TASK_OBJECTS = (
    "protein structure", "image", "speech", "time series", "molecular property", "traffic flow",
    "code", "question", "document", "point cloud", "video", "weather", "crop yield", "gene",
    "medical image", "user preference", "scene graph", "legal text", "financial risk",
    "dialogue state", "anomaly", "road scene", "satellite image", "sentence", "material property",
)
_TASK_ACTIVITIES = (
    "prediction", "classification", "segmentation", "generation", "forecasting", "retrieval",
    "summarization", "detection", "estimation", "answering", "tracking", "reconstruction",
    "captioning", "parsing", "recommendation", "completion",
)
#: Generic measures; these are the words fields use, not names of anything.
_METRICS = (
    ("accuracy", "%"), ("F1 score", "%"), ("mean average precision", "%"), ("BLEU", ""),
    ("top-1 accuracy", "%"), ("mean IoU", "%"), ("AUROC", "%"), ("recall", "%"),
    ("perplexity", ""), ("mean absolute error", ""), ("ROUGE-L", ""), ("word error rate", "%"),
    ("precision", "%"), ("success rate", "%"), ("Spearman correlation", ""),
)
_FIELDS = (
    "computer vision", "natural language processing", "reinforcement learning",
    "computational biology", "speech recognition", "robotics", "medical imaging",
    "recommender systems", "time-series analysis", "graph learning", "remote sensing",
    "scientific machine learning",
)
_SURNAMES = (
    "Okafor", "Lindqvist", "Haddad", "Moreau", "Tanaka", "Novak", "Ferreira", "Kowalski",
    "Iyer", "Schmidt", "Zhou", "Adeyemi", "Rossi", "Nakamura", "Petrov", "Larsen", "Mendes",
    "Cohen", "Park", "Olsen", "Vargas", "Chen", "Dubois", "Kaur", "Yilmaz", "Silva",
)
_INITIALS = "ABCDEFGHJKLMNPRSTVWY"
_VENUES = ("SynthConf", "Workshop on Synthetic Learning", "Journal of Generated Results")

# --- sentence templates per role ---------------------------------------------------------
# Slots: {task} {field} {method} {method_def} {base} {base2} {d1} {d2} {model} {metric}
# {metric2} {num} {num2} {pct} {mech}

_BACKGROUND = (
    "{Task} is a central problem in {field}.",
    "Recent progress in {field} has made {task} practical at scale.",
    "{Task} underpins many applications in {field}, from screening to deployment.",
    "Large pretrained models such as {model} have changed how {task} is approached.",
    "Methods based on {base} dominate current work on {task}.",
    "Despite steady progress, {task} remains difficult when labelled data are scarce.",
    "In {field}, {task} is usually cast as a supervised learning problem.",
)
_GAP = (
    "However, existing approaches based on {base} scale poorly with input length.",
    "Yet current methods ignore the structure shared across related inputs.",
    "Most prior work relies on {base}, which is brittle under distribution shift.",
    "These methods are expensive to train and hard to calibrate.",
    "Unfortunately, {base} and {base2} both require large amounts of annotated data.",
    "A key limitation is that errors accumulate over long horizons.",
)
_CONTRIBUTION = (
    "We propose {method_def}, a {adj} approach to {task} that {does}.",
    "In this paper, we introduce {method_def}, which {does}.",
    "This work presents {method_def}, a framework for {task}.",
    "To address this, we develop {method_def} that {does}.",
    "We present {method_def}, a simple method that {does}.",
    "Our main contribution is {method_def}, designed for {task} in {field}.",
)
_DOES = (
    "combines {mech} with {base}",
    "learns a compact representation of each input",
    "replaces {base} with a cheaper {mech} step",
    "adapts its computation to the difficulty of each example",
    "enforces consistency between views of the same sample",
    "scales linearly with the number of tokens",
)
_ADJ = ("simple", "scalable", "principled", "lightweight", "general", "data-efficient")
_METHOD = (
    "{Method} builds on {base} and adds a {mech_l} module trained end to end.",
    "Our approach uses {base} as a backbone and a {mech_l} objective during training.",
    "The method first encodes each input with {base2} and then applies {mech_l}.",
    "We train {method} with a contrastive loss and standard data augmentation.",
    "We prove that {method} converges under mild assumptions on the loss.",
    "A theoretical analysis shows that the estimator is unbiased and consistent.",
    "Unlike {base}, {method} needs no task-specific tuning.",
)
_EXPERIMENTS = (
    "We evaluate {method} on {d1} and {d2}.",
    "Experiments on {d1}, {d2} and {d3} show consistent gains over strong baselines.",
    "We conduct extensive experiments on the {d1} benchmark.",
    "We fine-tune {model} with {method} and test it on {d1}.",
    "Evaluation covers {num_int} tasks drawn from {d1} and {d2}.",
)
_RESULTS = (
    "{Method} improves {metric} by {pct}% over {base} on {d1}.",
    "On {d1}, our method reaches {num} {metric}, compared with {num2} for {base}.",
    "It achieves a {metric} of {num} on {d2}, a new state of the art.",
    "{Method} reduces {metric} by {pct}% while using {fewer}x fewer parameters.",
    "Our model outperforms {base} by {pct} points of {metric} on {d1} and {d2}.",
    "With {model} as the backbone, {metric} rises from {num2} to {num} on {d1}.",
    "Results show a {pct}% gain in {metric2} at half the training cost.",
)
_CONCLUSION = (
    "Code and data are publicly available.",
    "These results suggest that {mech_l} is a promising direction for {field}.",
    "Our findings open new avenues for {task} under limited supervision.",
    "We release our implementation to support future research.",
)


@dataclass(frozen=True)
class Pools:
    methods: list[tuple[str, str | None]]  # (name, acronym or None)
    datasets: list[str]
    models: list[str]
    tasks: list[str]


def _acronym(name: str) -> str:
    return "".join(word[0] for word in name.replace("-", " ").split() if word[0].isupper())


def build_pools(rng: random.Random, size: int) -> Pools:
    """Name pools of about `size` names each, in a seeded random order (rank = popularity)."""
    method_names = [
        " ".join(parts)
        for parts in itertools.product(_METHOD_MODIFIERS, _METHOD_MECHANISMS, _METHOD_HEADS)
    ]
    rng.shuffle(method_names)
    methods = []
    for name in method_names[:size]:
        acronym = _acronym(name)
        methods.append((name, acronym if len(acronym) >= 3 and rng.random() < 0.5 else None))
    datasets = [s + f + t for s, f, t in itertools.product(
        _DATASET_STEMS, _DATASET_SUFFIXES, _DATASET_TAILS)]
    datasets = sorted(set(datasets))
    rng.shuffle(datasets)
    models = [s + z for s, z in itertools.product(_MODEL_STEMS, _MODEL_SIZES)]
    rng.shuffle(models)
    tasks = [f"{o} {a}" for o, a in itertools.product(_TASK_OBJECTS, _TASK_ACTIVITIES)]
    rng.shuffle(tasks)
    return Pools(methods=methods, datasets=datasets[:size], models=models, tasks=tasks)


class Zipf:
    """Draw ranks 0..n-1 with P(rank) proportional to 1 / (rank + 1) ** exponent."""

    def __init__(self, n: int, exponent: float) -> None:
        weights = [1.0 / (rank + 1) ** exponent for rank in range(n)]
        self.cumulative = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random) -> int:
        return bisect.bisect_left(self.cumulative, rng.random() * self.cumulative[-1])


def _distinct(rng: random.Random, pool: Sequence[str], zipf: Zipf, n: int) -> list[str]:
    chosen: list[str] = []
    while len(chosen) < n:
        name = pool[zipf.draw(rng)]
        if name not in chosen:
            chosen.append(name)
    return chosen


def _number(rng: random.Random, unit: str) -> str:
    if unit == "%":
        return f"{rng.uniform(40, 98):.1f}"
    return f"{rng.uniform(0.1, 60):.2f}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Generator:
    def __init__(self, seed: int, *, pool_size: int = 4000, zipf: float = 1.1) -> None:
        self.rng = random.Random(seed)
        self.pools = build_pools(self.rng, pool_size)
        self.method_z = Zipf(len(self.pools.methods), zipf)
        self.dataset_z = Zipf(len(self.pools.datasets), zipf)
        self.model_z = Zipf(len(self.pools.models), zipf)
        self.task_z = Zipf(len(self.pools.tasks), zipf)
        self.metric_z = Zipf(len(_METRICS), 0.8)

    def paper(self, index: int) -> dict[str, object]:
        rng = self.rng
        pools = self.pools
        # The paper's own method is drawn from the tail, as new contributions are; baselines
        # from the head, as popular methods are.
        own, own_acronym = pools.methods[rng.randrange(len(pools.methods))]
        bases = _distinct(rng, [name for name, _ in pools.methods], self.method_z, 2)
        d1, d2, d3 = _distinct(rng, pools.datasets, self.dataset_z, 3)
        metric, unit = _METRICS[self.metric_z.draw(rng)]
        metric2, _ = _METRICS[self.metric_z.draw(rng)]
        task = pools.tasks[self.task_z.draw(rng)]
        mech = rng.choice(_METHOD_MECHANISMS)
        slots = {
            "task": task, "Task": _cap(task), "field": rng.choice(_FIELDS),
            "method": own_acronym or own, "Method": own_acronym or own,
            "method_def": f"{own} ({own_acronym})" if own_acronym else own,
            "base": bases[0], "base2": bases[1], "d1": d1, "d2": d2, "d3": d3,
            "model": pools.models[self.model_z.draw(rng)], "metric": metric,
            "metric2": metric2, "num": _number(rng, unit), "num2": _number(rng, unit),
            "pct": f"{rng.uniform(0.3, 12):.1f}", "fewer": str(rng.choice((2, 3, 4, 8, 10))),
            "num_int": str(rng.randint(3, 24)), "mech": mech, "mech_l": mech.lower(),
            "adj": rng.choice(_ADJ),
        }
        slots["does"] = rng.choice(_DOES).format(**slots)

        sentences = [rng.choice(_BACKGROUND)]
        if rng.random() < 0.7:
            sentences.append(rng.choice(_GAP))
        sentences.append(rng.choice(_CONTRIBUTION))
        sentences.extend(rng.sample(_METHOD, rng.randint(1, 2)))
        sentences.append(rng.choice(_EXPERIMENTS))
        sentences.extend(rng.sample(_RESULTS, rng.randint(1, 2)))
        if rng.random() < 0.5:
            sentences.append(rng.choice(_CONCLUSION))
        texts = []
        for template in sentences:
            # Fresh numbers per sentence: two result sentences never repeat one figure.
            slots.update(num=_number(rng, unit), num2=_number(rng, unit),
                         pct=f"{rng.uniform(0.3, 12):.1f}")
            texts.append(_cap(template.format(**slots)))
        abstract = " ".join(texts)

        title_forms = (
            f"{own}: {_cap(slots['adj'])} {task}",
            f"{_cap(task)} with {own}",
            f"Towards {slots['adj']} {task} via {mech.lower()}",
        )
        authors = [
            f"{rng.choice(_INITIALS)}. {rng.choice(_SURNAMES)}" for _ in range(rng.randint(1, 5))
        ]
        return {
            "id": f"synth-{index:07d}",
            "title": rng.choice(title_forms),
            "abstract": abstract,
            "authors": authors,
            "year": 2018 + rng.randrange(9),
            "venue": rng.choice(_VENUES),
        }

    def papers(self, n: int, *, start: int = 0) -> Iterator[dict[str, object]]:
        for index in range(start, start + n):
            yield self.paper(index)


def generate(n: int, *, seed: int = 7, pool_size: int = 4000, zipf: float = 1.1,
             start: int = 0) -> list[dict[str, object]]:
    """`n` records; `start` offsets the ids (a second batch of the same corpus)."""
    generator = Generator(seed, pool_size=pool_size, zipf=zipf)
    # Skip the records before `start` so ids and content match one longer run.
    for _ in generator.papers(start):
        pass
    return list(generator.papers(n, start=start))


def write_jsonl(records: Sequence[dict[str, object]] | Iterator[dict[str, object]],
                path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False))
            out.write("\n")
            count += 1
    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=2000, help="number of abstracts")
    parser.add_argument("--seed", type=int, default=7, help="random seed (same seed, same file)")
    parser.add_argument("--pool-size", type=int, default=4000,
                        help="names per entity pool (methods, datasets)")
    parser.add_argument("--zipf", type=float, default=1.1, help="Zipf exponent of name ranks")
    parser.add_argument("--out", type=Path, required=True, help="output .jsonl file")
    args = parser.parse_args(argv)
    if args.papers < 0:
        parser.error("--papers must be >= 0")
    generator = Generator(args.seed, pool_size=args.pool_size, zipf=args.zipf)
    count = write_jsonl(generator.papers(args.papers), args.out)
    print(f"wrote {count:,} abstracts to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
