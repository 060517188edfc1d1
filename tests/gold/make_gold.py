"""Build tests/gold/dev.json from the SciREX train documents plus hand annotations.

Run from the repository root:  .venv/bin/python tests/gold/make_gold.py [--scirex DIR] [--out FILE]

Besides FILE (every paper) it writes scirex-train.json and scirex-dev.json next to it: the same
papers divided by the fixed split of graph.eval.splits (20 % dev, by a hash of the doc id).

The output is deterministic: papers sorted by doc id, entities and mentions in a fixed order,
JSON written with sorted keys where order carries no meaning.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from graph.eval.splits import SCIREX_DEV_SHARE, is_dev  # noqa: E402

DEFAULT_SCIREX = ROOT.parent / "shared" / "data" / "scirex" / "train_docs"
ANNOTATIONS = HERE / "annotations.json"
DEFAULT_OUT = HERE / "dev.json"

LABEL_TYPES = {"Method": "method", "Material": "dataset", "Task": "task", "Metric": "metric"}
ENTITY_TYPES = ("method", "dataset", "model", "task", "metric")
SOURCE = (
    "SciREX train split (github.com/allenai/SciREX, "
    "commit 7daad660fe94f504433590b7a781cfabe1e179c6, "
    "Apache-2.0; Jain et al., ACL 2020): title + abstract of each document, with its Method/"
    "Material/Task/Metric mentions (Material scored as dataset); domains and claims hand-annotated "
    "for a subset (tests/gold/annotations.json)."
)

# A real abstract rarely passes ~300 tokens; documents whose first section runs on into the
# paper body (no section break after the abstract) are cut at the last sentence under this.
MAX_ABSTRACT_TOKENS = 300
# Section 0 shorter than this, with no "document :" prefix, is the title alone.
TITLE_ONLY_TOKENS = 40
# Fewer tokens than this is a broken conversion, not an abstract: the document is skipped.
MIN_ABSTRACT_TOKENS = 20

# Documents whose first sentence glues the title to the abstract's first sentence, with no
# break in the tokens: doc id prefix -> number of title tokens, counted by hand.
_TITLE_PREFIXES: dict[str, int] = {
    "0523e142": 10,  # Factoring Variations in Natural Images with Deep Gaussian Mixture Models
    "06150e6e": 6,  # Local Decorrelation For Improved Pedestrian Detection
    "0e37c8f1": 6,  # Spectral Representations for Convolutional Neural Networks
    "1bb5520b": 9,  # Deep Networks with Internal Selective Attention through Feedback Connections
}

NO_SPACE_BEFORE = {
    ",",
    ".",
    ";",
    ":",
    ")",
    "]",
    "}",
    "%",
    "?",
    "!",
    "”",
    "’",
    "'s",
    "’s",
    "n't",
    "'",
    "...",
}
NO_SPACE_AFTER = {"(", "[", "{", "“", "‘", "$"}
JOINERS = {"-", "/", "–"}


def detokenise(tokens: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """Readable text from SciREX tokens, and each token's (start, end) char span in it."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev: str | None = None
    for tok in tokens:
        space = prev is not None
        if prev is not None:
            if (
                tok in NO_SPACE_BEFORE
                or tok in JOINERS
                or prev in NO_SPACE_AFTER
                or prev in JOINERS
            ):
                space = False
            # "document : V - Net : Fully" -> the colon after a word keeps its trailing space
        if space:
            parts.append(" ")
            pos += 1
        spans.append((pos, pos + len(tok)))
        parts.append(tok)
        pos += len(tok)
        prev = tok
    return "".join(parts), spans


def _is_header(tokens: list[str]) -> bool:
    return (
        len(tokens) >= 2
        and tokens[1] == ":"
        and tokens[0]
        in {
            "section",
            "subsection",
            "subsubsection",
            "paragraph",
            "document",
            "bibliography",
        }
    )


def locate(doc: dict) -> tuple[list[str], list[tuple[int, int]]]:
    """(title tokens, abstract sentence spans) of a SciREX document."""
    words: list[str] = doc["words"]
    sections: list[list[int]] = doc["sections"]
    sentences: list[list[int]] = doc["sentences"]
    s0 = sections[0]
    doc_id: str = doc["doc_id"]

    def sents_in(sec: list[int]) -> list[tuple[int, int]]:
        return [(a, b) for a, b in sentences if a >= sec[0] and b <= sec[1]]

    title: list[str] = []
    body: list[tuple[int, int]]
    if words[0:2] == ["document", ":"]:
        sents = sents_in(s0)
        title = words[sents[0][0] + 2 : sents[0][1]]
        body = sents[1:]
    elif s0[1] - s0[0] < TITLE_ONLY_TOKENS and len(sections) > 1:
        title = [w for a, b in sents_in(s0) for w in words[a:b] if w != "\uf020"]
        body = sents_in(sections[1])
    else:
        body = sents_in(s0)
        for prefix, n in _TITLE_PREFIXES.items():
            if doc_id.startswith(prefix):
                a, b = body[0]
                title = words[a : a + n]
                body = [(a + n, b)] + body[1:]
                break
        else:
            # A first sentence without closing punctuation is the title on its own.
            a, b = body[0]
            if words[b - 1] not in {".", "?", "!"} and len(body) > 1:
                title = words[a:b]
                body = body[1:]
    # The section's own header ("section : Abstract", or a bare "section :") is a sentence of
    # its own; one that glued onto the first sentence is cut off token by token.
    while body and _is_header(words[body[0][0] : body[0][1]]):
        a, b = body[0]
        cut = a + 2
        if cut < b and words[cut].lower() == "abstract":
            cut += 1
        body = ([(cut, b)] if b - cut > 3 else []) + body[1:]
    kept: list[tuple[int, int]] = []
    total = 0
    for a, b in body:
        toks = words[a:b]
        # Macro residue ("VAEname = VAE , description = ...") marks where the abstract ended.
        if toks.count("=") >= 2 or _is_header(toks):
            break
        if total + (b - a) > MAX_ABSTRACT_TOKENS and kept:
            break
        kept.append((a, b))
        total += b - a
    return title, kept


def trim(words: list[str], lo: int, hi: int) -> tuple[int, int]:
    """Cut a leading "Abstract -" and anything after the last full stop (LaTeX residue,
    keywords, affiliations, "1 Introduction" glued on by the PDF conversion)."""
    if hi - lo > 2 and words[lo].lower() in {"abstract", "abstract-"}:
        lo += 2 if words[lo + 1] in {"-", ".", ":", "—", "–"} else 1
    end = hi
    while end > lo and words[end - 1] not in {".", "?", "!"}:
        end -= 1
    return lo, (end if end - lo >= MIN_ABSTRACT_TOKENS else hi)


def normalise(name: str) -> str:
    """Same rule as graph.eval.matching.match_key (kept separate so this script has no imports)."""
    s = name.lower().replace("_", " ")
    s = re.sub(r"[-‐‑–—/]", " ", s)
    s = re.sub(r"[^\w\s.+#]", " ", s)
    s = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", s)
    words = []
    for w in s.split():
        if len(w) > 3 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        words.append(w)
    # compared without spaces, as graph.eval.matching.match_key does ("DailyMail" == "Daily Mail")
    return "".join(words)


def _looks_like_acronym(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return 1 < len(text) <= 12 and " " not in text and sum(c.isupper() for c in letters) >= 2


def key_name(key: str) -> str:
    return key.replace("_", " ").strip()


class _Groups:
    """Union-find over mention groups."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def convert(doc: dict) -> dict | None:
    words: list[str] = doc["words"]
    title_toks, sents = locate(doc)
    if not sents:
        return None
    lo, hi = trim(words, sents[0][0], sents[-1][1])
    if hi - lo < MIN_ABSTRACT_TOKENS:
        return None
    kept = set()
    for a, b in sents:
        kept.update(range(a, b))
    abstract, spans = detokenise(words[lo:hi])
    title = detokenise(title_toks)[0] if title_toks else None

    # cluster of each token span: salient clusters carry a name; composite keys ("A___B") skipped
    cluster_of: dict[tuple[int, int], str] = {}
    for key, mspans in sorted(doc["coref"].items()):
        if "___" in key:
            continue
        for a, b in mspans:
            cluster_of.setdefault((a, b), "S:" + key)
    for key, mspans in sorted(
        doc.get("coref_non_salient", {}).items(),
        key=lambda kv: int(kv[0]) if kv[0].isdigit() else kv[0],
    ):
        for a, b in mspans:
            cluster_of.setdefault((a, b), "N:" + key)

    mentions = []
    for a, b, label in sorted(doc["ner"]):
        if label not in LABEL_TYPES or a < lo or b > hi or not all(i in kept for i in range(a, b)):
            continue
        start, end = spans[a - lo][0], spans[b - 1 - lo][1]
        mentions.append(
            {
                "type": LABEL_TYPES[label],
                "start": start,
                "end": end,
                "text": abstract[start:end],
                "_cluster": cluster_of.get((a, b)),
                "_tokens": (a, b),
            }
        )
    # "Long Form (LF)": SciREX often puts the two in different clusters; they are one entity.
    by_tokens = {m["_tokens"]: m for m in mentions}
    for m in mentions:
        a, b = m["_tokens"]
        if b + 2 < len(words) and words[b] == "(":
            for close in range(b + 2, min(b + 6, len(words))):
                if words[close] == ")":
                    inner = by_tokens.get((b + 1, close))
                    if (
                        inner is not None
                        and inner["type"] == m["type"]
                        and _looks_like_acronym(inner["text"])
                    ):
                        inner["_with"] = m["_tokens"]
                    break

    entities: dict[str, list[dict]] = {t: [] for t in ENTITY_TYPES}
    for etype in ENTITY_TYPES:
        ms = [m for m in mentions if m["type"] == etype]
        if not ms:
            continue
        groups = _Groups()
        by_cluster: dict[str, int] = {}
        by_norm: dict[str, int] = {}
        for i, m in enumerate(ms):
            groups.find(i)
            if "_with" in m:
                partner = next((j for j, o in enumerate(ms) if o["_tokens"] == m["_with"]), None)
                if partner is not None:
                    groups.union(i, partner)
            c = m["_cluster"]
            if c is not None:
                if c in by_cluster:
                    groups.union(i, by_cluster[c])
                else:
                    by_cluster[c] = i
            for n in {normalise(m["text"])} | (
                {normalise(key_name(c[2:]))} if c and c.startswith("S:") else set()
            ):
                if not n:
                    continue
                if n in by_norm:
                    groups.union(i, by_norm[n])
                else:
                    by_norm[n] = i
        members: dict[int, list[int]] = {}
        for i in range(len(ms)):
            members.setdefault(groups.find(i), []).append(i)
        for root in sorted(members):
            texts = [ms[i]["text"] for i in members[root]]
            counts = Counter(texts)
            keys = sorted(
                {
                    key_name(ms[i]["_cluster"][2:])
                    for i in members[root]
                    if ms[i]["_cluster"] and ms[i]["_cluster"].startswith("S:")
                }
            )
            # the name: the most frequent surface, then the longest, then the first seen
            name = sorted(counts, key=lambda t: (-counts[t], -len(t), texts.index(t)))[0]
            seen = {normalise(name)}
            aliases = []
            for t in sorted(
                set(texts) | set(keys),
                key=lambda t: (texts.index(t) if t in texts else len(texts), t),
            ):
                n = normalise(t)
                if n and n not in seen:
                    seen.add(n)
                    aliases.append(t)
            entities[etype].append({"name": name, "aliases": aliases})
    for m in mentions:
        for k in ("_cluster", "_tokens", "_with"):
            m.pop(k, None)
    paper = {
        "id": doc["doc_id"],
        "title": title,
        "abstract": abstract,
        "entities": entities,
        "mentions": mentions,
    }
    return paper


def merge_annotations(papers: list[dict], annotations: dict) -> None:
    """Attach hand-written domains/claims/proposed names; spans are checked against the abstract."""
    by_id = {p["id"]: p for p in papers}
    for doc_id, ann in sorted(annotations.get("papers", {}).items()):
        paper = by_id.get(doc_id)
        if paper is None:
            raise SystemExit(f"{ANNOTATIONS}: paper {doc_id!r} is not in the gold set")
        text = paper["abstract"]
        if "domains" in ann:
            paper["domains"] = list(ann["domains"])
        if "claims" in ann:
            claims = []
            for i, c in enumerate(ann["claims"]):
                claims.append(_locate_claim(doc_id, i, text, c))
            paper["claims"] = claims
        if "proposes" in ann:
            paper["proposes"] = [_locate_proposal(doc_id, text, e) for e in ann["proposes"]]


def _locate_proposal(doc_id: str, text: str, entry: str | dict) -> dict:
    """A proposed name (a string, or {name, aliases}); one of its forms must be in the abstract."""
    if isinstance(entry, str):
        entry = {"name": entry, "aliases": []}
    forms = [entry["name"], *entry.get("aliases", [])]
    if not any(f in text for f in forms):
        raise SystemExit(f"{ANNOTATIONS}: paper {doc_id}: proposed name not in abstract: {forms!r}")
    return {"name": entry["name"], "aliases": list(entry.get("aliases", []))}


def _locate_claim(doc_id: str, i: int, text: str, c: dict) -> dict:
    """Claims are written as their sentence text; find its span (and each quantity's) exactly."""
    sentence = c["text"]
    start = text.find(sentence)
    if start < 0:
        raise SystemExit(
            f"{ANNOTATIONS}: paper {doc_id} claim {i}: "
            f"sentence not found in abstract: {sentence[:60]!r}"
        )
    end = start + len(sentence)
    quantities = []
    cursor = start
    for q in c.get("quantities", []):
        qs = text.find(q, cursor, end)
        if qs < 0:
            qs = text.find(q, start, end)
        if qs < 0:
            raise SystemExit(
                f"{ANNOTATIONS}: paper {doc_id} claim {i}: quantity {q!r} not in its sentence"
            )
        quantities.append({"text": q, "start": qs, "end": qs + len(q)})
        cursor = qs + len(q)
    if c["kind"] not in {"empirical", "theoretical", "contribution"}:
        raise SystemExit(f"{ANNOTATIONS}: paper {doc_id} claim {i}: unknown kind {c['kind']!r}")
    return {
        "start": start,
        "end": end,
        "text": sentence,
        "kind": c["kind"],
        "quantities": quantities,
    }


def build(scirex_dir: Path, annotations_path: Path | None = ANNOTATIONS) -> dict:
    papers = []
    skipped = []
    for path in sorted(scirex_dir.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        paper = convert(doc)
        if paper is None:
            skipped.append(doc["doc_id"])
            continue
        papers.append(paper)
    if annotations_path is not None and annotations_path.exists():
        merge_annotations(papers, json.loads(annotations_path.read_text(encoding="utf-8")))
    return {"version": 1, "source": SOURCE, "skipped": skipped, "papers": papers}


def split(gold: dict) -> dict[str, dict]:
    """{"train": gold, "dev": gold}: the papers divided by the fixed SciREX split."""
    out = {}
    for name, want_dev in (("train", False), ("dev", True)):
        papers = [p for p in gold["papers"] if is_dev(p["id"], SCIREX_DEV_SHARE) == want_dev]
        out[name] = {
            **gold,
            "source": f"{gold['source']} Split: {name} (graph.splits, "
            f"{SCIREX_DEV_SHARE:.0%} dev by a hash of the doc id).",
            "skipped": [d for d in gold["skipped"] if is_dev(d, SCIREX_DEV_SHARE) == want_dev],
            "papers": papers,
        }
    return out


def _write(path: Path, gold: dict) -> None:
    path.write_text(json.dumps(gold, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scirex", type=Path, default=DEFAULT_SCIREX)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if not args.scirex.is_dir():
        print(f"make_gold: SciREX folder not found: {args.scirex}", file=sys.stderr)
        return 2
    gold = build(args.scirex)
    _write(args.out, gold)
    for name, part in split(gold).items():
        _write(args.out.parent / f"scirex-{name}.json", part)
        print(f"wrote {args.out.parent / f'scirex-{name}.json'}: {len(part['papers'])} papers")
    n_ann = sum(1 for p in gold["papers"] if "claims" in p or "domains" in p)
    print(
        f"wrote {args.out}: {len(gold['papers'])} papers ({n_ann} hand-annotated), "
        f"skipped {len(gold['skipped'])}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
