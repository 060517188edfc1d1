"""Labels for training and judging research areas: AAAI 2022 tracks and venues, as taxonomy slugs.

Each AAAI 2022 primary area maps to the concepts of data/taxonomy.ttl that agree with it, the
first being the one a classifier learns; a predicted area agrees with a track when it is one of
them or broader or narrower than one (`Taxonomy.is_broader_or_narrower`). "Domain(s) Of
Application" names no field and is left out. Venues are weak labels: a whole conference stands
for its field.
"""

from __future__ import annotations

AAAI_TRACKS: dict[str, tuple[str, ...]] = {
    "Cognitive Modeling & Cognitive Systems": ("neuroscience", "artificial-intelligence"),
    "Computer Vision I": ("computer-vision",),
    "Computer Vision II": ("computer-vision",),
    "Computer Vision III": ("computer-vision",),
    "Constraint Satisfaction and Optimization": (
        "artificial-intelligence", "theory-of-computation", "optimization"),
    "Data Mining and Knowledge Management": ("data-mining", "information-retrieval"),
    "Game Theory and Economic Paradigms": ("multi-agent-systems", "theory-of-computation"),
    "Humans and AI": ("hci", "fairness-and-ethics"),
    "Intelligent Robotics": ("robotics",),
    "Knowledge Representation and Reasoning": ("artificial-intelligence",),
    "Machine Learning I": ("machine-learning",),
    "Machine Learning II": ("machine-learning",),
    "Machine Learning III": ("machine-learning",),
    "Multiagent Systems": ("multi-agent-systems",),
    "Philosophy and Ethics of AI": ("fairness-and-ethics",),
    "Planning, Routing, and Scheduling": ("artificial-intelligence", "optimization"),
    "Reasoning under Uncertainty": ("probabilistic-methods", "artificial-intelligence"),
    "Search and Optimization": ("artificial-intelligence", "optimization"),
    "Speech and Natural Language Processing": ("natural-language-processing", "speech-and-audio"),
}

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
    return AAAI_TRACKS.get((track or "").strip(), ())
