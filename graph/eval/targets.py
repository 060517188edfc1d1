"""The targets each measure is held to (the entity, claims, results and areas issues' figures):
one table for the corpus rows of `paperkg eval --corpus/--all`, and the same bounds as plain
minimums for the report of `paperkg eval --gold FILE`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """A figure's bound: `value >= bound` (at_least) or `value <= bound`."""

    bound: float
    at_least: bool = True

    def met(self, value: float) -> bool:
        return value >= self.bound if self.at_least else value <= self.bound

    def __str__(self) -> str:
        return f"{'>=' if self.at_least else '<='} {self.bound:.2f}"


#: entity rows: measure -> target (the entities issue)
ENTITY_TARGETS: dict[str, dict[str, Target]] = {
    "method": {"f1": Target(0.70), "precision": Target(0.75)},
    "dataset": {"f1": Target(0.80)},
    "task": {"f1": Target(0.60)},
    "metric": {"f1": Target(0.60)},
}
#: the other rows (the claims, results and areas issue)
MEASURE_TARGETS: dict[str, Target] = {
    "result recall": Target(0.90),
    "background taken": Target(0.10, at_least=False),
    "claim precision": Target(0.85),
    "agreeing area": Target(0.95),
    "area precision": Target(0.80),
    "with unit": Target(0.90),
    "with metric": Target(0.60),
}

#: The `--gold FILE` report's targets: row -> measure -> minimum. Its claims are scored as gold
#: claim spans (not sentence roles), and its model row only where the gold has models.
TARGETS: dict[str, dict[str, float]] = {
    "method": {m: t.bound for m, t in ENTITY_TARGETS["method"].items()},
    "dataset": {m: t.bound for m, t in ENTITY_TARGETS["dataset"].items()},
    "model": {"f1": 0.60},
    "task": {m: t.bound for m, t in ENTITY_TARGETS["task"].items()},
    "metric": {m: t.bound for m, t in ENTITY_TARGETS["metric"].items()},
    "domains": {
        "papers_hit": MEASURE_TARGETS["agreeing area"].bound,
        "precision": MEASURE_TARGETS["area precision"].bound,
    },
    "claims": {"recall": 0.90, "precision": 0.80, "numbers": 0.90},
}
