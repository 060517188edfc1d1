"""Evaluation and training: gold sets, matching, scoring, reports, the gold's own consistency,
and the training of the shipped models (see tests/gold/README.md and docs/evaluation.md).

- a gold file and its report (`paperkg eval --gold FILE`): `gold` reads it, `matching` and
  `area_match` decide what counts as found, `scoring` adds the counts of `scores` up to an
  `EvalReport`, `gold_report` prints it, `gold_run` runs the extractors and ties these together;
- the annotated corpora (`paperkg eval --corpus NAME`, `--all`): `corpora` (where each gold lies),
  the converters `gold_scierc`, `gold_csabstruct`, `gold_areas`, `gold_results`, the scorers
  `claims_score` and `gold_results`, `run` (rows per corpus), `table` (the one table), and
  `targets` (every measure's target);
- `consistency` (`paperkg eval --gold FILE --consistency`): how consistently a gold annotates
  its own names;
- training (`paperkg train`): `splits` (the fixed train/dev splits), `scirex_passages`,
  `train_scorer`, `train_claims`, `train_areas`.

The names of a gold file's evaluation are importable from here.
"""

from graph.eval.area_match import TAXONOMY, Broader, domain_correct, taxonomy_broader
from graph.eval.gold import GoldClaim, GoldPaper, GoldSentence, gold_papers, load_gold
from graph.eval.gold_report import format_sweep, format_table
from graph.eval.gold_run import (
    DEFAULT_EXTRACTORS,
    available_extractors,
    evaluate,
    extract_gold,
    run_eval,
    sweep,
)
from graph.eval.matching import (
    EntityMatch,
    group_names,
    match_entities,
    match_key,
    max_matching,
    name_keys,
    normalise,
    spans_match,
)
from graph.eval.scores import (
    Check,
    ClaimScore,
    DomainScore,
    EvalReport,
    PaperDiff,
    ProposedScore,
    Score,
    checks,
)
from graph.eval.scoring import (
    filter_confidence,
    neutral_keys,
    predicted_entities,
    score,
    score_proposed,
)
from graph.eval.targets import TARGETS

__all__ = [
    "DEFAULT_EXTRACTORS", "TARGETS", "TAXONOMY", "Broader", "Check", "ClaimScore", "DomainScore",
    "EntityMatch", "EvalReport", "GoldClaim", "GoldPaper", "GoldSentence", "PaperDiff",
    "ProposedScore", "Score", "available_extractors", "checks", "domain_correct", "evaluate",
    "extract_gold", "filter_confidence", "format_sweep", "format_table", "gold_papers",
    "group_names", "load_gold", "match_entities", "match_key", "max_matching", "name_keys",
    "neutral_keys", "normalise", "predicted_entities", "run_eval", "score", "score_proposed",
    "spans_match", "sweep", "taxonomy_broader",
]
