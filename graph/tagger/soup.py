"""Average the weights of tagger runs fine-tuned from one starting point (torch; `train` extra).

    python -m graph.tagger.soup RUN_A RUN_B [...] --out RUN_DIR

Runs that differ only in their seed (the order of the batches, the SciREX body windows drawn)
after the same first stage land close enough together that their mean weights are a model of
their own, often better than either ("model soups", Wortsman et al., 2022). Unlike an ensemble
it costs nothing at build time: one network is exported and run. RUN_DIR gets weights.pt,
the first run's base/ (the tokenizer the export reads) and soup.json (what was averaged).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def mean_state(states: Sequence[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """The element-wise mean of state dicts (torch tensors or numpy arrays) of one network;
    `names` name the states in errors. Integer entries (position ids) must be equal and are
    taken as they are."""
    if len(states) < 2:
        raise ValueError("a soup needs at least two runs")
    keys = list(states[0])
    for name, state in zip(names[1:], states[1:], strict=True):
        if list(state) != keys or any(tuple(state[k].shape) != tuple(states[0][k].shape)
                                      for k in keys):
            raise ValueError(f"{name} is not the same network as {names[0]}")
    mean = {}
    for k in keys:
        first = states[0][k]
        if "float" in str(first.dtype):
            mean[k] = sum(s[k] for s in states) / len(states)
        elif all((s[k] == first).all() for s in states[1:]):
            mean[k] = first
        else:
            raise ValueError(f"{k} differs between {names[0]} and the other runs")
    return mean


def average(runs: list[Path], out: Path) -> Path:
    """The element-wise mean of the runs' weights.pt into out/weights.pt; returns `out`, a run
    directory the export reads (ValueError for a run without weights or of another network)."""
    import torch  # deferred: the `train` extra

    names = [str(run / "weights.pt") for run in runs]
    missing = [n for n in names if not Path(n).is_file()]
    if missing:
        raise ValueError(f"{missing[0]}: no such file")
    mean = mean_state([torch.load(n, weights_only=True) for n in names], names)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(mean, out / "weights.pt")
    if (runs[0] / "base").is_dir() and not (out / "base").exists():
        shutil.copytree(runs[0] / "base", out / "base")
    (out / "soup.json").write_text(json.dumps({"runs": [str(r) for r in runs]}, indent=2) + "\n")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args(argv)
    try:
        average(args.runs, args.out)
    except ValueError as exc:
        print(f"soup: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
