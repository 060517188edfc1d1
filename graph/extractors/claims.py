"""Claims: sentences in which a paper states a result, a proof or a contribution of its own.

A sentence is a claim when it speaks of the paper's own work (an anchor: "we", "our", "this
paper", "the proposed", the name the paper gives its contribution, or a pronoun continuing a
claim) and makes a claim with it (a cue: "we propose", "outperforms", "we prove that ...").
Sentences that only describe how the method works ("We then aggregate ...") and background
("Existing methods fail ...") are not claims. The kind follows the strongest cue: proof
vocabulary makes it theoretical, reported results empirical, the rest are contributions.
Numbers of empirical and contribution claims come back as Results (graph.extractors.results).
"""

from __future__ import annotations

import re

from spacy.tokens import Doc

from graph.extractors import claim_model
from graph.extractors.candidates import candidates
from graph.extractors.quantities import find_quantities
from graph.extractors.results import results_in
from graph.extractors.tokens import table
from graph.model import Mention

NAME = "claims.v1"

_I = re.IGNORECASE
_WE = re.compile(r"\b(?:we|our|us|ours)\b", _I)
_PAPER = re.compile(
    r"\b(?:this|the present|our)\s+(?:paper|work|article|note|study|project|thesis|submission)\b"
    r"|\bhere,?\s+we\b|\bthe\s+(?:proposed|resulting|presented|introduced)\b",
    _I,
)
_SYSTEM_NOUN = (
    r"(?:method|model|approach|network|framework|system|algorithm|architecture|technique|scheme"
    r"|pipeline|procedure|estimator|strategy|module|layer|loss|objective|design|formulation|agent"
    r"|learner|policy|solver|dataset|benchmark|corpus|variant|models|methods|networks)"
)
_DEFINITE_SYSTEM = re.compile(
    r"^(?:\W*\w+,\s+)?(?:the|this|these|such an?)\s+(?:\w+\s+){0,2}" + _SYSTEM_NOUN + r"\b", _I
)
_OUR_SYSTEM = re.compile(r"\bour\s+(?:\w+\s+){0,2}" + _SYSTEM_NOUN, _I)
_PRONOUN_START = re.compile(
    r"^(?:\W*(?:moreover|furthermore|also|in addition|additionally|finally),?\s+)?"
    r"(?:it|they|this|these)\b",
    _I,
)
_BACKGROUND = re.compile(
    r"\b(?:have|has)\s+been\b|\b(?:existing|previous|prior|current|conventional|traditional|recent"
    r"|recently|most)\s+(?:\w+\s+)?(?:methods?|approaches|works?|models?|systems?|techniques|studies"
    r"|research)\b",
    _I,
)

_THEORY_VERB = re.compile(
    r"\b(?:prove[sd]?|proving|proofs?|theorems?|lemmas?|derives?|derived|deriving|guarantees?"
    r"|guaranteed|provabl[ey]|theoretical(?:ly)?)\b",
    _I,
)
# "analyze" is as often an experiment as a proof: only with theory words it is the latter
_ANALYSE = re.compile(r"\b(?:analy[sz]e[sd]?|analy[sz]ing|analysis|characteri[sz]e[sd]?)\b", _I)
_THEORY_WORD = re.compile(
    r"\b(?:bounds?|bounded|converge[sd]?|convergence|complexity|optimal(?:ity)?|regret|minimax"
    r"|consistency|asymptotic(?:ally)?|polynomial|NP-hard|convergence\s+rates?|lipschitz|theorem"
    r"|tight)\b",
    _I,
)
_SHOW = re.compile(
    r"\b(?:show|shows|showed|shown|establish|establishes|establishing|demonstrate)\b", _I
)

_EMPIRICAL_STRONG = re.compile(
    r"\b(?:outperform\w*|surpass\w*|exceed\w*|beat\w*|state[- ]of[- ](?:the[- ])?art|sota"
    r"|experiments?|experimental(?:ly)?|empirical(?:ly)?|evaluat\w+|results?\s+(?:show|demonstrate"
    r"|indicate|suggest|confirm|reveal)\w*|(?:better|improved|superior|competitive|strong|promising"
    r"|comparable|significant|substantial|new|compelling|good|reasonable|excellent)\s+(?:\w+\s+)?"
    r"(?:results?|performances?|accuracy|gains?)|achiev\w+|attain\w*|obtain\w*|improv\w+|reduc\w+"
    r"|gains?|boost\w*|speed\w*\s+up|speedups?|won|wins?|winning|ranks?\s+first|places?\s+first"
    r"|reach(?:es|ed)?|yield\w*|show(?:s|ed|n)?\s+that|demonstrat\w+|find\s+that|found\s+that"
    r"|finds\s+that|observe[sd]?|reveal\w*|confirm\w*|verif\w+|validat\w+|suggests?\s+that"
    r"|discover\w*|successfully|on\s+par|comparabl[ey]|superiority|efficacy|effectiveness"
    r"|(?:more|less|much|significantly|far)\s+\w+\s+than|(?:better|faster|smaller|fewer|higher"
    r"|lower|larger|stronger|cheaper)\s+than|orders?\s+of\s+magnitude)\b",
    _I,
)
_EMPIRICAL_WEAK = re.compile(
    r"\b(?:efficient|effective|fast|faster|robust|accurate|scal(?:es|able)|generali[sz]es"
    r"|competitive|superior|outstanding|highly|reliabl[ey])\b",
    _I,
)
_CONTRIBUTION = re.compile(
    r"\b(?:(?<!the\s)(?<!our\s)propos\w+|(?<!the\s)introduc\w+|present(?:s|ed|ing)?|describ\w+|develop\w*|devis\w+|design(?:s|ed)?"
    r"|formulat\w+|investigat\w+|explor\w+|stud(?:y|ies|ied)|generali[sz]e[sd]?|contributions?"
    r"|provid\w+|releas\w+|establish\w*|conjectur\w+|extend(?:s|ed)?|make\s+the\s+following"
    r"|(?:we|which\s+we)\s+(?:call|term|name|dub)|dubbed|called|named|coined|refer\s+to\s+as"
    r"|(?:is|are)\s+proposed|novel|first\s+to|the\s+first|new\s+(?:\w+\s+)?(?:method|model|approach"
    r"|framework|algorithm|architecture|dataset|benchmark|task|loss|metric))\b",
    _I,
)
_CAPABILITY = re.compile(
    r"\b(?:can|could|is\s+able\s+to|are\s+able\s+to|be\s+able\s+to|enables?|allows?|does\s+not"
    r"\s+require|do\s+not\s+require|without\s+(?:requiring|the\s+need)|works?\s+with|capable\s+of)\b",
    _I,
)
_NAME_TOKEN = re.compile(r"\b(?:[A-Z][a-z]*[A-Z][\w\-]*|[A-Z]{2,}[\w\-]*|[a-z]+[A-Z]\w*)\b")
_COMMON_ACRONYMS = {
    "CNN",
    "CNNs",
    "RNN",
    "RNNs",
    "LSTM",
    "LSTMs",
    "GAN",
    "GANs",
    "MLP",
    "NLP",
    "SGD",
    "GPU",
    "GPUs",
    "CPU",
    "RL",
    "MDP",
    "SOTA",
    "AI",
    "ML",
    "QA",
    "API",
    "RGB",
    "HOG",
    "SVM",
    "CRF",
    "EM",
    "VAE",
    "VAEs",
    "MIL",
    "SR",
    "LR",
    "HR",
    "NMT",
    "MT",
    "ASR",
    "VQA",
    "FCN",
    "FCNs",
}
_NUMERIC_UNITS = {"%", "points", "×", "x", "dB", "fps", "ms", "s", "min", "h", "d", "place"}


def sentence_spans(doc: Doc) -> list[tuple[int, int]]:
    """Sentence character spans, with fragments the parser split off merged back."""
    tokens = table(doc)
    text = tokens.doc_text
    if tokens.has_sents:
        spans = [(tokens.idx[a], tokens.end_char(b - 1)) for a, b in tokens.sents]
    else:
        spans = [
            (m.start(), m.end()) for m in re.finditer(r"\S.*?(?:[.!?](?=\s|$)|$)", text, re.S)
        ]
    merged: list[list[int]] = []
    for start, end in spans:
        piece = text[start:end].strip()
        if not piece:
            continue
        # A piece that starts in lower case or with closing punctuation continues a sentence.
        if merged and (piece[0].islower() or piece[0] in ",;:)]%" or len(piece) < 4):
            merged[-1][1] = end
        else:
            merged.append([start, end])
    out = []
    for start, end in merged:
        chunk = text[start:end]
        lead = len(chunk) - len(chunk.lstrip())
        out.append((start + lead, start + len(chunk.rstrip())))
    return out


def _names_from(sentence: str) -> set[str]:
    return {t for t in _NAME_TOKEN.findall(sentence) if t not in _COMMON_ACRONYMS and len(t) > 1}


def _outside_word(c: str) -> bool:
    """Whether character `c` may border a name: not a word character and not a hyphen."""
    return not (c.isalnum() or c in "_-")


def mentions_name(sentence: str, name: str) -> bool:
    """Whether `sentence` names `name` as a word of its own, or its plural or possessive
    ("ReasoNets", "BERT's"). Read with `str.find`: the names are the paper's own, so a
    compiled pattern per name would be compiled once per paper."""
    start = 0
    size = len(name)
    while (i := sentence.find(name, start)) >= 0:
        start = i + 1
        if i and not _outside_word(sentence[i - 1]):
            continue
        end = i + size
        for suffix in ("s", "'s", "’s", ""):
            if sentence.startswith(suffix, end):
                after = end + len(suffix)
                if after == len(sentence) or _outside_word(sentence[after]):
                    return True
    return False


def _classify(
    sentence: str, *, names: set[str], after_contribution: bool, previous_claim: bool
) -> tuple[str | None, float]:
    """(kind or None, confidence) of one sentence."""
    we_word = bool(_WE.search(sentence))
    paper = bool(_PAPER.search(sentence))
    we = we_word or paper
    # the name as given, or its plural/possessive ("ReasoNets", "BERT's")
    named = any(mentions_name(sentence, n) for n in names)
    system = (
        named
        or paper
        or (after_contribution and bool(_DEFINITE_SYSTEM.search(sentence)))
        or bool(_OUR_SYSTEM.search(sentence))
    )
    pronoun = previous_claim and bool(_PRONOUN_START.search(sentence))
    anchored = we or system or pronoun
    if not anchored:
        if re.match(
            r"\W*(?:experiments?|experimental|empirical|extensive|results?|evaluations?)\b",
            sentence,
            _I,
        ):
            anchored = True
        else:
            return None, 0.0
    if _BACKGROUND.search(sentence) and not (we_word or named):
        return None, 0.0

    quantities = [q for q in find_quantities(sentence) if q.unit in _NUMERIC_UNITS]
    # each cue is searched for only when the decision below gets to it
    if not quantities and _theory(sentence):
        return "theoretical", 0.8 if _THEORY_WORD.search(sentence) else 0.65
    strong = bool(quantities) or bool(_EMPIRICAL_STRONG.search(sentence))
    contribution = bool(_CONTRIBUTION.search(sentence))
    if strong:
        # "We propose X, which outperforms Y" reports a result; "we propose a new loss that
        # improves ..." without evidence words stays a contribution.
        if contribution and not (
            quantities
            or re.search(
                r"outperform|state[- ]of[- ]|experiment|results?\b|surpass|achiev", sentence, _I
            )
        ):
            return "contribution", 0.7
        return "empirical", 0.85 if (quantities or we) else 0.7
    if contribution:
        return "contribution", 0.8 if we else 0.6
    if (system or pronoun) and _CAPABILITY.search(sentence):
        return "contribution", 0.55
    if (system or pronoun or we) and _EMPIRICAL_WEAK.search(sentence):
        return "empirical", 0.5
    return None, 0.0


def _theory(sentence: str) -> bool:
    """Proof vocabulary, or showing/analysing with theory words outside an experiment."""
    if _THEORY_VERB.search(sentence):
        return True
    if re.search(r"\b(?:experiment\w*|empirical\w*|results?)\b", sentence, _I):
        return False
    if _SHOW.search(sentence) and _THEORY_WORD.search(sentence):
        return True
    return bool(_ANALYSE.search(sentence)) and bool(
        re.search(r"\balgorithms?\b", sentence, _I) or _THEORY_WORD.search(sentence)
    )


# "We propose X", "In this paper we present X": the one opening a claim cannot do without
_PROPOSE_OPENING = re.compile(
    r"^(?:\W*(?:here|in this (?:paper|work|article|study|\w+)),?\s+)?"
    r"(?:we|this (?:paper|work|article))\s+(?:propose|introduce|present)s?\b",
    _I,
)


def opens_with_proposal(sentence: str) -> bool:
    return bool(_PROPOSE_OPENING.search(sentence))


def rule_kinds(sentences: list[str]) -> list[str | None]:
    """The rules' kind for each sentence of an abstract, without the names the parser finds:
    what training reads CSAbstruct's sentences with."""
    kinds: list[str | None] = []
    names: set[str] = set()
    after_contribution = previous_claim = False
    for sentence in sentences:
        kind, _ = _classify(sentence, names=names, after_contribution=after_contribution,
                            previous_claim=previous_claim)
        previous_claim = kind is not None
        if kind == "contribution":
            after_contribution = True
            names |= _names_from(sentence)
        kinds.append(kind)
    return kinds


def _learned_kind(
    sentence: str, roles: dict[str, float], rule_kind: str | None, model: claim_model.ClaimModel
) -> tuple[str | None, float]:
    """The classifier decides whether the sentence is a claim (with a lower bar where the rules
    take it); its kind is the rules' where they name one (they read proofs and "we propose X,
    which outperforms Y" well), else the role's: a result is empirical, an objective or method
    a contribution."""
    score = claim_model.claim_score(roles)
    bar = model.threshold if rule_kind is None else min(model.threshold, model.rule_threshold)
    if score < bar and not (model.proposals and opens_with_proposal(sentence)):
        return None, 0.0
    if rule_kind is not None:
        return rule_kind, round(score, 4)
    if _theory(sentence) and not find_quantities(sentence):
        return "theoretical", round(score, 4)
    empirical = roles["result"] >= max(roles["objective"], roles["method"])
    return ("empirical" if empirical else "contribution"), round(score, 4)


def extract(doc: Doc) -> list[Mention]:
    """One claim mention per claiming sentence, with its Results."""
    text = table(doc).doc_text
    mentions: list[Mention] = []
    names: set[str] = set()
    # the names the paper gives its own contributions, whatever their shape ("Veritas" as
    # well as "ReasoNet"), so later sentences about them are anchored to the paper
    found = candidates(doc)
    coined = [(c.start, c.text) for c in found if c.proposed]
    # a number inside a name is part of the name, not a result: "Llama 2 13B", "WMT 2014"
    named = [(c.start, c.end) for c in found if c.type in ("model", "dataset", "method")]
    after_contribution = False
    previous_claim = False
    spans = sentence_spans(doc)
    model = claim_model.shipped()
    roles = model.classify([text[a:b] for a, b in spans]) if model is not None else None
    for i, (start, end) in enumerate(spans):
        sentence = text[start:end]
        kind, confidence = _classify(
            sentence,
            names=names,
            after_contribution=after_contribution,
            previous_claim=previous_claim,
        )
        # the rules read on with their own decisions, as they did when the thresholds were set
        previous_claim = kind is not None
        if kind == "contribution":
            after_contribution = True
            names |= _names_from(sentence)
            names.update(name for at, name in coined if start <= at < end)
        if roles is not None and model is not None:
            kind, confidence = _learned_kind(sentence, roles[i], kind, model)
        if kind is None:
            continue
        results = () if kind == "theoretical" else tuple(
            r for r in results_in(sentence, start)
            if not any(a <= r.start and r.end <= b for a, b in named)
        )
        mentions.append(
            Mention(
                type="claim",
                text=sentence,
                start=start,
                end=end,
                extractor=NAME,
                confidence=confidence,
                claim_kind=kind,
                results=results,
            )
        )
    return mentions
