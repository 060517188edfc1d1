"""Make data/generic.tsv: how common and how field-neutral each phrase of the abstracts is.

Reads the unlabelled abstracts (JSON Lines, gzip: `id`, `venue`, `abstract`, as in
../shared/data/paperlists) and counts, for every phrase of one to three words that neither
starts nor ends with a stop word: in how many abstracts of each venue group it occurs, and in
how many of those a number stands within a few words of it (metrics are reported with
numbers; "efficiency" and "convergence" mostly are not), and in how many it ends a noun phrase
at least once (the next word is a stop word or the sentence ends): a word that never does only
modifies ("Gaussian" of "Gaussian process", "pretrained" of "pretrained models"). Only counts
are written, never text.
The output is sorted and has no timestamps, so the same input gives the same bytes.

    python -m graph.generic_stats ../shared/data/paperlists/abstracts.jsonl.gz data/generic.tsv

`--gold FILE` instead counts the gold names of a train split the criterion would drop.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from spacy.lang.en.stop_words import STOP_WORDS

from graph.errors import InputError
from graph.eval.gold_areas import read_paperlists
from graph.eval.splits import AAAI_DEV_SHARE, is_dev
from graph.generic import GROUPS, MIN_DOCS, group_of, phrase_tokens, singular_key

MAX_WORDS = 3
#: words either side of a phrase in which a number counts as its context
NUMBER_WINDOW = 4
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _phrases(tokens: list[str]) -> dict[str, tuple[bool, bool]]:
    """phrase key -> (whether a number stands near one of its occurrences, whether one of its
    occurrences ends a noun phrase: the sentence ends or a stop word follows)."""
    numbers = [i for i, t in enumerate(tokens) if _NUMBER.match(t)]
    found: dict[str, tuple[bool, bool]] = {}
    for n in range(1, MAX_WORDS + 1):
        for i in range(len(tokens) - n + 1):
            words = tokens[i : i + n]
            if words[0] in STOP_WORDS or words[-1] in STOP_WORDS:
                continue
            if any(_NUMBER.match(w) for w in words):
                continue
            key = singular_key(words)
            near = any(i - NUMBER_WINDOW <= j < i + n + NUMBER_WINDOW for j in numbers)
            head = i + n == len(tokens) or tokens[i + n] in STOP_WORDS
            was_near, was_head = found.get(key, (False, False))
            found[key] = (was_near or near, was_head or head)
    return found


def count(path: Path) -> tuple[dict[str, int], dict[str, Counter[str]], Counter[str],
                              Counter[str]]:
    """(abstracts per group, per phrase: abstracts per group, per phrase: abstracts with a
    number near it, per phrase: abstracts where it ends a noun phrase)."""
    docs: Counter[str] = Counter()
    per_group: dict[str, Counter[str]] = {}
    numeric: Counter[str] = Counter()
    heads: Counter[str] = Counter()
    for number, record in enumerate(read_paperlists(path), 1):
        try:
            venue, abstract = record["venue"], record["abstract"]
        except (KeyError, TypeError) as exc:
            raise InputError(f"{path}: record {number}: not a paper record: {exc}") from exc
        group = group_of(venue)
        if group == "aaai" and is_dev(str(record.get("id", "")), AAAI_DEV_SHARE):
            continue  # the areas dev split stays unseen, even unlabelled
        if group is None or not abstract:
            continue
        docs[group] += 1
        found: dict[str, tuple[bool, bool]] = {}
        for sentence in _SENTENCE.split(abstract):
            for key, (near, head) in _phrases(phrase_tokens(sentence)).items():
                was_near, was_head = found.get(key, (False, False))
                found[key] = (was_near or near, was_head or head)
        for key, (near, head) in found.items():
            per_group.setdefault(key, Counter())[group] += 1
            numeric[key] += near
            heads[key] += head
    return dict(docs), per_group, numeric, heads


def write_table(path: Path, out: Path) -> int:
    docs, per_group, numeric, heads = count(path)
    rows = []
    for key, groups in per_group.items():
        total = sum(groups.values())
        if total < MIN_DOCS:
            continue
        rows.append("\t".join([key, str(total), *(str(groups[g]) for g in GROUPS),
                               str(numeric[key]), str(heads[key])]))
    header = "\t".join(["#phrase", "docs", *GROUPS, "near_number", "head"])
    totals = "\t".join(["#all", str(sum(docs.values())), *(str(docs.get(g, 0)) for g in GROUPS),
                        "0", "0"])
    out.write_text("\n".join([header, totals, *sorted(rows)]) + "\n", encoding="utf-8")
    return len(rows)


def gold_cost(path: Path) -> tuple[int, int, list[str]]:
    """(gold entity names, those judged generic, the generic ones as "type: name") of a gold
    file of `paperkg eval` (tests/gold/*-train.json): what the criterion costs in recall."""
    from graph.generic import is_generic

    try:
        papers = json.loads(path.read_text(encoding="utf-8"))["papers"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a gold file: {exc}") from exc
    total, generic = 0, []
    for paper in papers:
        for entity_type, entities in sorted(paper.get("entities", {}).items()):
            for entity in entities:
                total += 1
                if is_generic(entity["name"], entity_type):
                    generic.append(f"{entity_type}: {entity['name']}")
    return total, len(generic), generic


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--gold":
        try:
            total, generic, names = gold_cost(Path(argv[1]))
        except InputError as exc:
            sys.stderr.write(f"paperkg: error: {exc}\n")
            return 2
        common = Counter(names).most_common(10)
        share = generic / max(1, total)
        sys.stdout.write(f"{generic} of {total} gold names generic ({share:.1%}); "
                         f"most often: {', '.join(f'{n} ({c})' for n, c in common)}\n")
        return 0
    if len(argv) != 2:
        sys.stderr.write("usage: python -m graph.generic_stats ABSTRACTS.jsonl.gz OUT.tsv\n")
        return 2
    try:
        rows = write_table(Path(argv[0]), Path(argv[1]))
    except InputError as exc:
        sys.stderr.write(f"paperkg: error: {exc}\n")
        return 2
    sys.stdout.write(f"wrote {rows} phrases to {argv[1]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
