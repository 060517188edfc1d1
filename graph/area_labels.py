"""Labels for training research areas: AAAI 2022 tracks and venues, as taxonomy slugs.

AAAI tracks map to slugs as the evaluation reads them (graph.eval.gold_areas.TRACK_AREAS); the
first slug of a track is the one the classifier learns, and a track with none ("Domain(s) Of
Application") is left out. Venues are weak labels: a whole conference stands for its field.
"""

from __future__ import annotations

from graph.eval.gold_areas import TRACK_AREAS

#: venue -> the field the whole venue stands for (weak labels)
VENUE_AREAS: dict[str, str] = {
    "CVPR": "computer-vision",
    "ACL": "natural-language-processing",
    "NAACL": "natural-language-processing",
    "NeurIPS": "machine-learning",
    "ICML": "machine-learning",
}


def track_areas(track: str | None) -> tuple[str, ...]:
    """The slugs that agree with an AAAI 2022 primary area; () for none or an unknown one."""
    return TRACK_AREAS.get((track or "").strip(), ())
