"""Writes fixture.trig: 15 invented papers in paperkg's RDF model (DESIGN §3), for the web tests.

The records go through graph.rdf.corpus_quads, so the file is what a build would store.

The abstracts are written for these tests. Paper `hostile01` carries markup, quotes and
ampersands in its title, abstract, entity labels and claims, so every page and tooltip must
escape them. Offsets are computed from the text so the provenance spans are exact.

Run: PYTHONPATH=. .venv/bin/python tests/web/data/make_fixture.py
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox

from graph.model import Entity, Mention, Paper, PaperExtraction, ResolvedCorpus, Result
from graph.vocab import DEFAULT_BASE, prefixes
from graph.rdf import corpus_quads
from graph.slug import slugify

BASE = DEFAULT_BASE
OUT = Path(__file__).with_name("fixture.trig")

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"

# (key, title, year, abstract, mentions, claims)
# mention: (type, surface, label, proposed); the first occurrence of `surface` is the span.
# domain mentions: ("domain", evidence surface, slug of a data/taxonomy.ttl concept, False)
# claim: (sentence surface, kind, about labels, results)
# result: (quantity text, value, unit, metric, dataset, baseline)
PAPERS: list[tuple] = [
    (
        "p01", "Sparse Routing Transformers for Long Documents", 2024,
        "We propose Sparse Routing Attention (SRA), a method for language modeling on long "
        "documents. On WikiText-103, SRA reaches a perplexity of 17.2, improving over the "
        "Transformer-XL baseline by 1.1 points.",
        [("method", "Sparse Routing Attention", "Sparse Routing Attention", True),
         ("task", "language modeling", "language modeling", False),
         ("dataset", "WikiText-103", "WikiText-103", False),
         ("metric", "perplexity", "perplexity", False),
         ("model", "Transformer-XL", "Transformer-XL", False),
         ("domain", "language modeling", "natural-language-processing", False)],
        [("On WikiText-103, SRA reaches a perplexity of 17.2, improving over the "
          "Transformer-XL baseline by 1.1 points.", "empirical",
          ["Sparse Routing Attention", "WikiText-103"],
          [("17.2", "17.2", None, "perplexity", "WikiText-103", "Transformer-XL")])],
    ),
    (
        "p02", "Contrastive Pretraining Helps Image Classification", 2023,
        "Contrastive pretraining of a ResNet-50 on ImageNet improves image classification. "
        "Our model reaches 78.4% top-1 accuracy on ImageNet.",
        [("method", "Contrastive pretraining", "contrastive pretraining", False),
         ("model", "ResNet-50", "ResNet-50", False),
         ("dataset", "ImageNet", "ImageNet", False),
         ("task", "image classification", "image classification", False),
         ("metric", "accuracy", "accuracy", False),
         ("domain", "image classification", "computer-vision", False)],
        [("Our model reaches 78.4% top-1 accuracy on ImageNet.", "empirical",
          ["ImageNet", "accuracy"],
          [("78.4%", "78.4", "%", "accuracy", "ImageNet", None)])],
    ),
    (
        "p03", "Low-Rank Adaptation for Question Answering", 2024,
        "We study low-rank adaptation (LoRA) of BERT for question answering. On SQuAD, "
        "LoRA matches full fine-tuning with an F1 of 88.5 while training 0.5% of the weights.",
        [("method", "low-rank adaptation", "low-rank adaptation", False),
         ("model", "BERT", "BERT", False),
         ("task", "question answering", "question answering", False),
         ("dataset", "SQuAD", "SQuAD", False),
         ("metric", "F1", "F1", False),
         ("method", "full fine-tuning", "full fine-tuning", False),
         ("domain", "question answering", "question-answering", False)],
        [("On SQuAD, LoRA matches full fine-tuning with an F1 of 88.5 while training 0.5% of "
          "the weights.", "empirical", ["low-rank adaptation", "SQuAD"],
          [("88.5", "88.5", None, "F1", "SQuAD", "full fine-tuning")])],
    ),
    (
        "p04", "Graph Attention Networks at Scale", 2022,
        "Graph attention is applied to node classification on the Cora citation graph. "
        "A graph attention network reaches 83.1% accuracy on Cora.",
        [("method", "Graph attention", "graph attention", False),
         ("task", "node classification", "node classification", False),
         ("dataset", "Cora", "Cora", False),
         ("metric", "accuracy", "accuracy", False),
         ("domain", "node classification", "graph-learning", False)],
        [("A graph attention network reaches 83.1% accuracy on Cora.", "empirical",
          ["graph attention", "Cora"],
          [("83.1%", "83.1", "%", "accuracy", "Cora", None)])],
    ),
    (
        "p05", "Diffusion Sampling with Fewer Steps", 2024,
        "We introduce Consistency Step Distillation (CSD), a method that speeds up diffusion "
        "sampling. On CIFAR-10, CSD reaches an FID of 3.9 with four steps.",
        [("method", "Consistency Step Distillation", "Consistency Step Distillation", True),
         ("method", "diffusion sampling", "diffusion sampling", False),
         ("dataset", "CIFAR-10", "CIFAR-10", False),
         ("metric", "FID", "FID", False),
         ("domain", "diffusion sampling", "image-generation", False)],
        [("On CIFAR-10, CSD reaches an FID of 3.9 with four steps.", "empirical",
          ["Consistency Step Distillation", "CIFAR-10"],
          [("3.9", "3.9", None, "FID", "CIFAR-10", None)])],
    ),
    (
        "p06", "Vision Transformers Need Data", 2023,
        "We train ViT-B/16 for image classification on CIFAR-10 and ImageNet. ViT-B/16 "
        "trails ResNet-50 on CIFAR-10 by 2.3 points of accuracy.",
        [("model", "ViT-B/16", "ViT-B/16", False),
         ("task", "image classification", "image classification", False),
         ("dataset", "CIFAR-10", "CIFAR-10", False),
         ("dataset", "ImageNet", "ImageNet", False),
         ("model", "ResNet-50", "ResNet-50", False),
         ("metric", "accuracy", "accuracy", False),
         ("domain", "image classification", "computer-vision", False)],
        [("ViT-B/16 trails ResNet-50 on CIFAR-10 by 2.3 points of accuracy.", "empirical",
          ["ViT-B/16", "ResNet-50"],
          [("2.3 points", "2.3", "points", "accuracy", "CIFAR-10", "ResNet-50")])],
    ),
    (
        "p07", "Gradient Clipping Stabilises Language Model Training", 2022,
        "Gradient clipping keeps GPT-2 training stable for language modeling. We prove that "
        "clipped updates converge at a rate of one over the square root of the step count.",
        [("method", "Gradient clipping", "gradient clipping", False),
         ("model", "GPT-2", "GPT-2", False),
         ("task", "language modeling", "language modeling", False),
         ("domain", "language modeling", "natural-language-processing", False)],
        [("We prove that clipped updates converge at a rate of one over the square root of "
          "the step count.", "theoretical", ["gradient clipping"], [])],
    ),
    (
        "p08", "Question Answering over Long Contexts", 2024,
        "Sparse Routing Attention lets BERT read long contexts for question answering. On "
        "SQuAD the F1 rises to 90.1.",
        [("method", "Sparse Routing Attention", "Sparse Routing Attention", False),
         ("model", "BERT", "BERT", False),
         ("task", "question answering", "question answering", False),
         ("dataset", "SQuAD", "SQuAD", False),
         ("metric", "F1", "F1", False),
         ("domain", "question answering", "question-answering", False)],
        [("On SQuAD the F1 rises to 90.1.", "empirical", ["SQuAD", "F1"],
          [("90.1", "90.1", None, "F1", "SQuAD", None)])],
    ),
    (
        "p09", "Self-Supervised Graph Pretraining", 2023,
        "Contrastive pretraining on graphs improves node classification. On Cora, accuracy "
        "improves by 1.8 points over graph attention without pretraining.",
        [("method", "Contrastive pretraining", "contrastive pretraining", False),
         ("task", "node classification", "node classification", False),
         ("dataset", "Cora", "Cora", False),
         ("metric", "accuracy", "accuracy", False),
         ("method", "graph attention", "graph attention", False),
         ("domain", "node classification", "graph-learning", False)],
        [("On Cora, accuracy improves by 1.8 points over graph attention without "
          "pretraining.", "empirical", ["Cora", "graph attention"],
          [("1.8 points", "1.8", "points", "accuracy", "Cora", "graph attention")])],
    ),
    (
        "p10", "Machine Translation with Low-Rank Adaptation", 2024,
        "Low-rank adaptation of GPT-2 for machine translation reaches 27.5 BLEU on "
        "WMT14 English-German.",
        [("method", "Low-rank adaptation", "low-rank adaptation", False),
         ("model", "GPT-2", "GPT-2", False),
         ("task", "machine translation", "machine translation", False),
         ("metric", "BLEU", "BLEU", False),
         ("dataset", "WMT14 English-German", "WMT14 English-German", False),
         ("domain", "machine translation", "machine-translation", False)],
        [("Low-rank adaptation of GPT-2 for machine translation reaches 27.5 BLEU on "
          "WMT14 English-German.", "empirical", ["low-rank adaptation", "GPT-2"],
          [("27.5", "27.5", None, "BLEU", "WMT14 English-German", None)])],
    ),
    (
        "p11", "Benchmarking Image Classifiers under Shift", 2022,
        "We release ShiftBench, a dataset for image classification under distribution shift. "
        "ResNet-50 loses 14.2% accuracy on ShiftBench.",
        [("dataset", "ShiftBench", "ShiftBench", True),
         ("task", "image classification", "image classification", False),
         ("model", "ResNet-50", "ResNet-50", False),
         ("metric", "accuracy", "accuracy", False),
         ("domain", "image classification", "computer-vision", False)],
        [("We release ShiftBench, a dataset for image classification under distribution "
          "shift.", "contribution", ["ShiftBench"], []),
         ("ResNet-50 loses 14.2% accuracy on ShiftBench.", "empirical",
          ["ResNet-50", "ShiftBench"],
          [("14.2%", "14.2", "%", "accuracy", "ShiftBench", None)])],
    ),
    (
        "p12", "Diffusion Models for Image Synthesis", 2023,
        "Diffusion sampling with a learned schedule generates CIFAR-10 images with an FID of "
        "2.8.",
        [("method", "Diffusion sampling", "diffusion sampling", False),
         ("dataset", "CIFAR-10", "CIFAR-10", False),
         ("metric", "FID", "FID", False),
         ("domain", "Diffusion sampling", "image-generation", False)],
        [("Diffusion sampling with a learned schedule generates CIFAR-10 images with an FID "
          "of 2.8.", "empirical", ["diffusion sampling", "CIFAR-10"],
          [("2.8", "2.8", None, "FID", "CIFAR-10", None)])],
    ),
    (
        "p13", "Gradient Clipping for Vision Transformers", 2024,
        "Gradient clipping lets ViT-B/16 train without warmup on ImageNet for image "
        "classification.",
        [("method", "Gradient clipping", "gradient clipping", False),
         ("model", "ViT-B/16", "ViT-B/16", False),
         ("dataset", "ImageNet", "ImageNet", False),
         ("task", "image classification", "image classification", False),
         ("domain", "image classification", "computer-vision", False)],
        [],
    ),
    (
        "p14", "Language Modeling with Sparse Routing", 2025,
        "Sparse Routing Attention scales GPT-2 language modeling to 64k tokens. Perplexity on "
        "WikiText-103 drops to 16.4.",
        [("method", "Sparse Routing Attention", "Sparse Routing Attention", False),
         ("model", "GPT-2", "GPT-2", False),
         ("task", "language modeling", "language modeling", False),
         ("metric", "Perplexity", "perplexity", False),
         ("dataset", "WikiText-103", "WikiText-103", False),
         ("domain", "language modeling", "natural-language-processing", False)],
        [("Perplexity on WikiText-103 drops to 16.4.", "empirical",
          ["perplexity", "WikiText-103"],
          [("16.4", "16.4", None, "perplexity", "WikiText-103", None)])],
    ),
    (
        "hostile01", f'"Quoted" & <b>bold</b> {SCRIPT} title',
        2025,
        f"We propose {SCRIPT} Net, a method that is \"fast\" & 'safe'. It is evaluated on the "
        f"{IMG} set for image classification & reaches 91.0% accuracy on the {IMG} set.",
        [("method", f"{SCRIPT} Net", f"{SCRIPT} Net", True),
         ("dataset", f"{IMG} set", f"{IMG} set", False),
         ("task", "image classification", "image classification", False),
         ("metric", "accuracy", "accuracy", False),
         ("domain", "image classification", "computer-vision", False)],
        [(f"We propose {SCRIPT} Net, a method that is \"fast\" & 'safe'.", "contribution",
          [f"{SCRIPT} Net"], []),
         (f"It is evaluated on the {IMG} set for image classification & reaches 91.0% "
          f"accuracy on the {IMG} set.", "empirical", [f"{SCRIPT} Net", f"{IMG} set"],
          [("91.0%", "91.0", "%", "accuracy", f"{IMG} set", f"{SCRIPT} baseline & co")])],
    ),
]

ALIASES = {
    "Sparse Routing Attention": ["SRA"],
    "low-rank adaptation": ["LoRA"],
    "Consistency Step Distillation": ["CSD"],
    f"{SCRIPT} Net": [f"{IMG}&amp;"],
}


def build() -> list[ox.Quad]:
    """The fixture as model records, turned into quads by graph.rdf exactly as a build would."""
    extractions: dict[str, PaperExtraction] = {}
    links: dict[str, list[str | None]] = {}
    entities: dict[str, Entity] = {}
    types: dict[str, str] = {}
    for key, title, year, abstract, mentions, claims in PAPERS:
        paper = Paper(key=key, abstract=abstract, title=title, id=key, year=year,
                      venue="Fixture Proceedings & Co", source=f"fixture:{key}")
        found: list[Mention] = []
        refs: list[str | None] = []
        for type_, surface, label, proposed in mentions:
            start = abstract.index(surface)
            if type_ == "domain":
                found.append(Mention(type="domain", text=surface, start=start,
                                     end=start + len(surface), extractor="domains.v1",
                                     confidence=0.6, label=label))
                refs.append(None)
                continue
            slug = slugify(label)
            ref = f"{type_}/{slug}"
            types[label] = type_
            entity = entities.setdefault(ref, Entity(type=type_, slug=slug, label=label))
            entity.papers.add(key)
            entity.aliases.update(ALIASES.get(label, ()))
            found.append(Mention(type=type_, text=surface, start=start, end=start + len(surface),
                                 extractor=f"{type_}s.v1", confidence=0.9 if proposed else 0.75,
                                 label=label, proposed=proposed))
            refs.append(ref)
        for sentence, kind, _about, results in claims:
            start = abstract.index(sentence)
            records = []
            for text, value, unit, metric, dataset, baseline in results:
                at = abstract.index(text, start)
                records.append(Result(value=Decimal(value), text=text, start=at,
                                      end=at + len(text), unit=unit, metric=metric,
                                      dataset=dataset, baseline=baseline))
            found.append(Mention(type="claim", text=sentence, start=start,
                                 end=start + len(sentence), extractor="claims.v1",
                                 confidence=0.6, claim_kind=kind, results=tuple(records)))
            refs.append(None)
        extractions[key] = PaperExtraction(paper=paper, mentions=found)
        links[key] = refs
    resolved = ResolvedCorpus(extractions=extractions, entities=entities, links=links)
    return corpus_quads(resolved, base=BASE)


def main() -> None:
    quads = build()
    OUT.write_bytes(ox.serialize(quads, format=ox.RdfFormat.TRIG, prefixes=prefixes(BASE)))
    print(f"wrote {len(quads)} quads to {OUT}")


if __name__ == "__main__":
    main()
