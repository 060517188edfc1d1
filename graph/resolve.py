"""Cross-corpus linking: one entity per real thing.

Mentions are grouped by name. Two names are the same thing when their keys match after
case/separator folding and singularising the head word ("Graph Neural Networks" = "graph
neural network"), or when a paper defines one as the acronym of the other ("Free
decompression (FD)"). An acronym links papers together only when the whole corpus gives it
one long form; otherwise it stays local to the papers that define it, because short acronyms
collide across fields ("SDP", "MCTS" are safe, "PS" is not). The decisions depend only on the
set of mentions, never on their order, so shards built apart resolve the same way.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

from graph.model import ENTITY_TYPES, Entity, Mention, PaperExtraction, ResolvedCorpus
from graph.name_forms import bare_name, form_tokens, is_qualifier, network_stem, singular
from graph.slug import label_key, slugify

_ACRONYM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-+./]{0,11}$")
_TYPE_RANK = {t: i for i, t in enumerate(ENTITY_TYPES)}


#: Names repeat across a corpus (a few thousand distinct ones per 10,000 papers): each key is
#: computed once, not once per mention and pass.
_KEY_CACHE = 1 << 17


@functools.lru_cache(maxsize=_KEY_CACHE)
def alias_key(name: str) -> str:
    """label_key with a singular head word: plural variants are not worth an alias."""
    head, _, last = label_key(name).rpartition(" ")
    return f"{head} {singular(last)}" if head else singular(last)


@functools.lru_cache(maxsize=_KEY_CACHE)
def merge_key(name: str) -> str:
    # Spaces go too: "CIFAR-10" = "CIFAR10" = "cifar 10"; "GraphSAGE" = "Graph SAGE"; and the
    # forms of graph.name_forms: "recurrent models" = "recurrent neural networks",
    # "ILSVRC-12" = "ILSVRC 2012", "WMT'14 En-De" = "WMT 2014 English-German"; a name with a
    # class word after it is the name: "BERT model" = "BERT", "COCO dataset" = "COCO".
    return "".join(network_stem(form_tokens(alias_key(bare_name(name) or name))))


def _lexicon_pairs() -> list[tuple[str, str]]:
    """(alias, preferred name) of every entry of data/lexicons: the aliases of a known name are
    that name wherever they appear."""
    from graph.extractors import lexicon  # deferred: spaCy, which resolving needs nowhere else

    pairs: list[tuple[str, str]] = []
    for entity_type in sorted(lexicon.FILES):
        for name, aliases in lexicon.entries(entity_type):
            pairs.extend((alias, name) for alias in aliases)
    return pairs


def families(entities: Mapping[str, Entity]) -> dict[str, str]:
    """ref -> ref of its family, for dataset names qualified by a year, a language pair or a
    version ("IWSLT 2016 English-German" -> IWSLT, "WMT 2016" -> WMT): the longest start of
    the name, with only qualifiers after it, that is itself a dataset of `entities`."""
    by_key: dict[str, str] = {}
    for ref in sorted(entities):
        entity = entities[ref]
        if entity.type == "dataset":
            for name in sorted({entity.label, *entity.aliases}):
                by_key.setdefault(merge_key(name), ref)
    broader: dict[str, str] = {}
    for ref in sorted(entities):
        entity = entities[ref]
        if entity.type != "dataset":
            continue
        tokens = form_tokens(label_key(entity.label))
        for cut in range(len(tokens) - 1, 0, -1):
            if not all(is_qualifier(t) for t in tokens[cut:]):
                break
            family = by_key.get(merge_key(" ".join(tokens[:cut])))
            if family is not None and family != ref:
                broader[ref] = family
                break
    return broader


@functools.lru_cache(maxsize=_KEY_CACHE)
def is_acronym(name: str) -> bool:
    stripped = name.strip()
    if " " in stripped or not _ACRONYM.match(stripped):
        return False
    capitals = sum(ch.isupper() for ch in stripped)
    return capitals >= 2 and capitals >= len(stripped.rstrip("s")) / 2


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        self.parent.setdefault(item, item)
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The smaller key wins, so the result does not depend on the order of unions.
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra


def _names(mention: Mention) -> tuple[str, list[str]]:
    """(preferred surface, other surfaces) of an entity mention."""
    preferred = mention.label or mention.text
    others = [mention.text, *mention.aliases]
    return preferred, [name for name in others if name != preferred]


#: an acronym that this many times more papers use than use its long form keeps its common
#: meaning outside the papers that define it so: one abstract's "Contrastive Context Sharing
#: (COCO)" does not rename COCO in the 160 others that use it
OUTVOTED = 10


def _acronym_long_forms(
    extractions: Iterable[PaperExtraction], known: Mapping[str, Entity] | None = None,
) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """(acronym key -> merge keys of the long forms the corpus defines for it, outvoted
    acronym key -> the papers that define it, and every acronym key -> those papers). An
    acronym is outvoted when OUTVOTED times more papers use it than its long forms: it means a
    long form only in the papers that define it so. `known` entities (already in a graph)
    count with their papers."""
    long_forms: dict[str, set[str]] = defaultdict(set)
    definers: dict[str, set[str]] = defaultdict(set)
    users: dict[str, set[str]] = defaultdict(set)
    # the known entities' paper sets by merge key, read only for the acronyms and their long
    # forms: an add to a large graph copies none of them
    known_papers: dict[str, list[set[str]]] = defaultdict(list)
    for entity in (known or {}).values():
        known_papers[merge_key(entity.label)].append(entity.papers)
        if not is_acronym(entity.label):
            for alias in entity.aliases:
                if is_acronym(alias):
                    long_forms[merge_key(alias)].add(merge_key(entity.label))
    for extraction in extractions:
        paper = extraction.paper.key
        for mention in extraction.mentions:
            if mention.type not in ENTITY_TYPES:
                continue
            preferred, others = _names(mention)
            users[merge_key(preferred)].add(paper)
            if is_acronym(preferred):
                continue
            for name in others:
                if is_acronym(name):
                    long_forms[merge_key(name)].add(merge_key(preferred))
                    definers[merge_key(name)].add(paper)

    def papers_of(keys: Iterable[str]) -> set[str]:
        return set().union(*(users.get(k, ()) for k in keys),
                           *(p for k in keys for p in known_papers.get(k, ())))

    outvoted: dict[str, set[str]] = {}
    for key in list(long_forms):
        long_users = papers_of(long_forms[key])
        if len(papers_of([key]) - long_users) >= OUTVOTED * max(len(long_users), 1):
            outvoted[key] = definers.get(key, set())
            del long_forms[key]
    return long_forms, outvoted, definers


def _node(paper_key: str, name: str, long_forms: Mapping[str, set[str]],
          outvoted: Mapping[str, set[str]] | None = None,
          definers: Mapping[str, set[str]] | None = None) -> str:
    """The union-find node of a name as used in one paper. `definers`: acronym key -> the
    papers that define it."""
    key = merge_key(name)
    acronym = is_acronym(name)
    if not acronym and (bare := bare_name(name)) is not None and is_acronym(bare):
        # "QA model" in a paper that defines QA is that paper's QA with its class word
        acronym = paper_key in (definers or {}).get(key, ())
    if acronym and (len(long_forms.get(key, ())) > 1
                    or paper_key in (outvoted or {}).get(key, ())):
        # Ambiguous across the corpus, or a rare meaning of a common acronym: only the
        # paper's own definition may claim it.
        return f"{paper_key}\x00{key}"
    return key


def resolve(
    extractions: Sequence[PaperExtraction],
    *,
    known: Mapping[str, Entity] | None = None,
) -> ResolvedCorpus:
    """Group entity mentions into entities; `known` entities (already in a graph) keep their
    IRIs."""
    long_forms, outvoted, definers = _acronym_long_forms(extractions, known)

    groups = _UnionFind()
    for alias, name in _lexicon_pairs():
        groups.union(merge_key(name), _node("", alias, long_forms))
    for entity in (known or {}).values():
        anchor = merge_key(entity.label)
        for alias in entity.aliases:
            if is_acronym(alias) and not is_acronym(entity.label) and \
                    merge_key(alias) in outvoted:
                continue  # a rare meaning of a common acronym: not a way into this entity
            groups.union(anchor, _node("", alias, long_forms))

    local_acronyms: dict[tuple[str, str], str] = {}
    local_anchor: dict[str, str] = {}  # a paper's own acronym node -> the name it stands for
    for extraction in extractions:
        key = extraction.paper.key
        for mention in extraction.mentions:
            if mention.type not in ENTITY_TYPES:
                continue
            preferred, others = _names(mention)
            anchor = _node(key, preferred, long_forms, outvoted, definers)
            for name in others:
                node = _node(key, name, long_forms, outvoted, definers)
                if "\x00" in node and local_anchor.setdefault(node, anchor) != anchor:
                    # the paper's acronym already stands for another of its names ("visual
                    # question answering (QA)", then "QA" read as "question answering"): one
                    # paper's acronym does not join two names of the graph
                    continue
                groups.union(anchor, node)
                if is_acronym(name) and not is_acronym(preferred):
                    local_acronyms[(key, merge_key(name))] = anchor

    def node_of(paper_key: str, name: str) -> str:
        node = _node(paper_key, name, long_forms, outvoted, definers)
        if "\x00" in node:
            return local_acronyms.get((paper_key, merge_key(name)), node)
        return node

    # Collect, per group, the evidence that decides its type, label and aliases.
    type_votes: dict[str, Counter[str]] = defaultdict(Counter)
    label_votes: dict[str, Counter[str]] = defaultdict(Counter)
    surfaces: dict[str, set[str]] = defaultdict(set)
    papers: dict[str, set[str]] = defaultdict(set)
    mention_roots: dict[str, list[str | None]] = {}
    for extraction in extractions:
        key = extraction.paper.key
        roots: list[str | None] = []
        for mention in extraction.mentions:
            if mention.type not in ENTITY_TYPES:
                roots.append(None)
                continue
            preferred, others = _names(mention)
            root = groups.find(node_of(key, preferred))
            type_votes[root][mention.type] += round(mention.confidence * 1000) + 1
            weight = 2 if any(is_acronym(o) for o in others) and not is_acronym(preferred) else 1
            label_votes[root][preferred] += weight
            surfaces[root].update([preferred, *others])
            papers[root].add(key)
            roots.append(root)
        mention_roots[key] = roots

    known_by_root: dict[str, Entity] = {}
    for entity in (known or {}).values():
        known_by_root.setdefault(groups.find(merge_key(entity.label)), entity)

    entities: dict[str, Entity] = {}
    root_ref: dict[str, str] = {}
    for root in sorted(set(label_votes) | set(known_by_root)):
        previous = known_by_root.get(root)
        if previous is not None:
            entity = Entity(
                type=previous.type,
                slug=previous.slug,
                label=previous.label,
                aliases=set(previous.aliases),
                papers=set(previous.papers),
            )
        else:
            entity_type = min(type_votes[root].items(),
                              key=lambda kv: (-kv[1], _TYPE_RANK[kv[0]]))[0]
            label = _lexicon_label(_choose_label(label_votes[root]), label_votes[root],
                                   entity_type)
            entity = Entity(type=entity_type, slug=slugify(label), label=label)
        seen = {alias_key(a) for a in entity.aliases} | {alias_key(entity.label)}
        for name in sorted(surfaces.get(root, ())):
            name_k = alias_key(name)
            if name_k not in seen:
                entity.aliases.add(name)
                seen.add(name_k)
        entity.papers |= papers.get(root, set())
        twin = entities.get(entity.ref)
        if twin is not None:
            # Undefined uses of an ambiguous acronym in several papers: one node for the name.
            twin.aliases |= entity.aliases
            twin.papers |= entity.papers
        else:
            entities[entity.ref] = entity
        root_ref[root] = entity.ref

    for ref, family in families(entities).items():
        entities[ref].broader = family
    links = {
        key: [root_ref[root] if root is not None else None for root in roots]
        for key, roots in mention_roots.items()
    }
    return ResolvedCorpus(
        extractions={e.paper.key: e for e in extractions},
        entities=entities,
        links=links,
    )


def _lexicon_label(label: str, surfaces: Mapping[str, int], entity_type: str) -> str:
    """The lexicon's own name for `label` where `label` is another form of that entry and the
    papers write the lexicon's name too: "GLUE", not its long form "general language
    understanding evaluation", which `_choose_label` takes over an acronym."""
    from graph.extractors import lexicon  # deferred, as in `_lexicon_pairs`

    if entity_type not in lexicon.FILES:
        return label
    name = lexicon.lookup(label, entity_type)
    return name if name is not None and name in surfaces else label


def _choose_label(votes: Counter[str]) -> str:
    """Most used surface that is neither a name with its class word ("BERT model" where
    "BERT" is there) nor an acronym with a long form among the surfaces ("CNN" beside
    "convolutional neural network"; "KITTI" beside "Kitti", "COCO" beside "MS COCO" and
    "CIFAR-10" beside "CIFAR 10" are no such pairs: a long form does not hold the acronym's
    words); ties go to a singular, the longer, then the smaller string."""
    long_names = [label_key(name).split() for name in votes
                  if not is_acronym(name) and bare_name(name) is None]

    def rank(item: tuple[str, int]) -> tuple[bool, bool, int, bool, int, str]:
        name, count = item
        plural = alias_key(name) != label_key(name)
        # the acronym's words all in a long form: the same name ("CIFAR-10", "CIFAR 10")
        shortened = is_acronym(name) and any(
            not set(label_key(name).split()) <= set(words) for words in long_names)
        return (bare_name(name) is not None, shortened, -count, plural, -len(name), name)

    return min(votes.items(), key=rank)[0]
