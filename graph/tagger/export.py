"""Export a trained tagger run to ONNX and shrink it for shipping (torch + onnx: `train` extra).

    python -m graph.tagger.export RUN_DIR [--out data/models]

Writes RUN_DIR/tagger.fp32.onnx, then the shipped tagger.onnx: per-channel int8 weights for the
MatMuls (under a point of F1) and int8 for the word-embedding table (the 47 MB that dominates the
size), and tagger.tokenizer.json (the base model's wordpiece tokenizer, unchanged).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch

from graph.nlp.tagging import LABELS, load_tokenizer
from graph.paths import DATA_DIR
from graph.tagger.encoder import Tagger


class _Inference(torch.nn.Module):
    """The tagger without padding mask: windows run one at a time at build time."""

    def __init__(self, model: Tagger):
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids)


def to_onnx(run: Path) -> Path:
    tokenizer = load_tokenizer(run / "base" / "tokenizer.json")
    model = Tagger(tokenizer.get_vocab_size(), len(LABELS))
    model.load_state_dict(torch.load(run / "weights.pt", weights_only=True))
    model.eval()
    path = run / "tagger.fp32.onnx"
    ids = torch.tensor([[101, 7099, 2003, 1037, 3231, 102]], dtype=torch.long)
    torch.onnx.export(
        _Inference(model), (ids,), str(path), input_names=["input_ids"], output_names=["logits"],
        dynamic_axes={"input_ids": {1: "n"}, "logits": {1: "n"}}, opset_version=17, dynamo=False,
    )
    return path


def quantise(fp32: Path, out: Path) -> Path:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        str(fp32), str(out), op_types_to_quantize=["MatMul", "Gather"], per_channel=True,
        weight_type=QuantType.QInt8,
    )
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--out", type=Path, default=DATA_DIR / "models")
    args = ap.parse_args(argv)
    fp32 = to_onnx(args.run)
    args.out.mkdir(parents=True, exist_ok=True)
    quantise(fp32, args.out / "tagger.onnx")
    shutil.copyfile(args.run / "base" / "tokenizer.json", args.out / "tagger.tokenizer.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
