"""Write the gold files of the other corpora into tests/gold (deterministic: same bytes each run).

Run from the repository root:  .venv/bin/python tests/gold/make_eval_gold.py [--shared DIR]

- scierc-train.json, scierc-dev.json    from <shared>/scierc/{train,dev}.json
- csabstruct-train.json, csabstruct-dev.json  from <shared>/csabstruct/{train,dev}.jsonl
- aaai-areas.json  (ids, tracks, split, area slugs; no texts) from <shared>/paperlists
SciREX's files come from make_gold.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from graph.errors import InputError  # noqa: E402
from graph.eval import gold_areas, gold_csabstruct, gold_scierc  # noqa: E402


def write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(data['papers'])} papers")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=None,
                        help="shared data folder (default $PAPERKG_SHARED or ../shared/data)")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args(argv)
    shared = gold_areas.shared_dir(args.shared)
    try:
        for split in ("train", "dev"):
            write(args.out / f"scierc-{split}.json",
                  gold_scierc.build(shared / "scierc" / f"{split}.json", split))
            write(args.out / f"csabstruct-{split}.json",
                  gold_csabstruct.build(shared / "csabstruct" / f"{split}.jsonl", split))
        write(args.out / "aaai-areas.json", gold_areas.build(gold_areas.paperlists_path(shared)))
    except InputError as exc:
        print(f"make_eval_gold: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
