"""Venue tracks as research areas of the taxonomy: facts about venues, read by the area gold
(graph.eval) and by the generic-name rules (a track's name is a field, not a task)."""

from __future__ import annotations

#: AAAI 2022 track -> taxonomy slugs (data/taxonomy.ttl). A track spanning several areas has
#: each; tracks of classic AI with no narrower concept (planning, search, constraints, knowledge
#: representation) have `artificial-intelligence`. "Domain(s) Of Application" spans every field
#: (health, law, education, climate, ...): no area is its gold, so its papers are left out.
TRACK_AREAS: dict[str, tuple[str, ...]] = {
    "Cognitive Modeling & Cognitive Systems": ("artificial-intelligence", "neuroscience"),
    "Computer Vision I": ("computer-vision",),
    "Computer Vision II": ("computer-vision",),
    "Computer Vision III": ("computer-vision",),
    "Constraint Satisfaction and Optimization": ("artificial-intelligence", "optimization"),
    "Data Mining and Knowledge Management": ("data-mining", "knowledge-graphs"),
    "Domain(s) Of Application": (),
    "Game Theory and Economic Paradigms": ("multi-agent-systems", "theory-of-computation"),
    "Humans and AI": ("hci",),
    "Intelligent Robotics": ("robotics",),
    "Knowledge Representation and Reasoning": ("artificial-intelligence", "knowledge-graphs"),
    "Machine Learning I": ("machine-learning",),
    "Machine Learning II": ("machine-learning",),
    "Machine Learning III": ("machine-learning",),
    "Multiagent Systems": ("multi-agent-systems",),
    "Philosophy and Ethics of AI": ("fairness-and-ethics",),
    "Planning, Routing, and Scheduling": ("artificial-intelligence",),
    "Reasoning under Uncertainty": ("probabilistic-methods", "artificial-intelligence"),
    "Search and Optimization": ("artificial-intelligence", "optimization"),
    "Speech and Natural Language Processing": ("natural-language-processing", "speech-and-audio"),
}
