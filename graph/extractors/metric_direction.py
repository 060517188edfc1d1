"""Whether a higher number is better, read from the name of the metric a Result is in.

Errors, losses, distances, times and sizes go down; accuracies, scores, overlaps, rates of
success and speeds go up. The lower-is-better words are tried first, so "top-1 error", "FID
score" and "negative log-likelihood" read as errors, not as the accuracy, score or likelihood
their names also contain. A name that says neither gets no direction.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LOWER = re.compile(
    r"error|\berr\b|loss|perplexity|\bPPL\b|\b[WCPET]ER\b|\bFID\b|distance|\bKID\b|\bLPIPS\b"
    r"|\b(?:R?MSE|MAE|NLL|BPC|BPD|ECE|MPJPE|EPE|FPR\w*)\b|negative log|bits[- ]per|latency"
    r"|(?:inference|training|run|wall[- ]clock|computation)[- ]?time|runtime|memory|\bFLOPS?\b"
    r"|FLOPs|number of parameters|parameter count|makespan|regret|\bcost\b|miss rate",
    re.IGNORECASE,
)
_HIGHER = re.compile(
    r"accura|precision|recall|\bF1\b|F-?(?:score|measure)|F1[- ]?(?:score|measure)|macro|micro"
    r"|exact match|\bEM\b|BLEU|ROUGE|METEOR|CIDEr|SPICE|chrF|\bm?AP\b|IoU|intersection over"
    r"|Dice|\bDSC\b|\bAU(?:C|ROC|PRC)\b|area under|PSNR|SSIM|structural similarity"
    r"|signal-to-noise|Inception Score|\bMRR\b|reciprocal rank|N?DCG|Hits?@|hit rate|\bHR\b"
    r"|@\d|@k|log-likelihood|ELBO|lower bound|\bMOS\b|opinion score|throughput|speed"
    r"|frames per second|\bFPS\b|success|return|reward|normali[sz]ed score|\bMCC\b|correlation"
    r"|\bPCK\b|correct keypoints|rank-1|\bCMC\b|pass@|CLIP ?score|lDDT|TM-score|win rate"
    r"|\bscore\b|gain|coverage|mutual information|\bNMI\b|\bARI\b|rand index|purity",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def higher_is_better(metric: str) -> bool | None:
    """True when a higher value of `metric` is better, False when lower is, None when its
    name does not say."""
    if _LOWER.search(metric):
        return False
    if _HIGHER.search(metric):
        return True
    return None
