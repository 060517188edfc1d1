"""A task written with its class word ("machine translation tasks") is also the task without
it, which names its node (graph.extractors.mentions.task_without_class_word)."""

from __future__ import annotations

import pytest

from graph.extractors import mentions
from graph.nlp.tagging_cutoffs import Cutoffs
from tests.tagged_spans import span_of

CUTOFFS = Cutoffs(by_type={"method": 0.5, "task": 0.5}, rescue="same-span")


@pytest.mark.parametrize("name, bare", [
    ("machine translation tasks", ("machine translation",)),
    ("face detection problem", ("face detection",)),
    ("Speech Recognition Task", ("Speech Recognition",)),
    ("classification tasks", ()),  # "classification" alone is generic: no node
    ("this task", ()),  # function words name nothing
    ("tasks", ()),
    ("machine translation", ()),
    ("task planning", ()),  # the class word must end the name
])
def test_task_without_class_word(name, bare):
    assert mentions.task_without_class_word(name) == bare


def test_a_tagged_task_with_its_class_word_is_named_without_it():
    text = "On machine translation tasks and classification tasks, our Foo network wins."
    spans = [span_of(text, "machine translation tasks", "task"),
             span_of(text, "classification tasks", "task")]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [(m.text, m.label, m.aliases) for m in got] == [
        ("machine translation tasks", "machine translation", ("machine translation",)),
        ("classification tasks", None, ()),
    ]


def test_only_tasks_lose_a_task_class_word():
    text = "The scheduling problem solver runs fast."
    got = mentions.combine(text, [span_of(text, "scheduling problem", "method")], (),
                           cutoffs=CUTOFFS)
    assert [(m.label, m.aliases) for m in got] == [(None, ())]
