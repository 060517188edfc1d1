"""A task written "X tasks" keeps its class word where X is a method's name: "supervised
learning tasks" are tasks solved by supervised learning, not the method, and not a task
"supervised learning" (graph.extractors.mentions.task_without_class_word)."""

from __future__ import annotations

import pytest

from graph.extractors import lexicon, mentions


@pytest.mark.parametrize("name, bare", [
    ("supervised learning tasks", ()),
    ("reinforcement learning problems", ()),
    ("RL tasks", ()),  # a lexicon form of the method
    ("few-shot learning problem", ()),
    ("metric learning tasks", ("metric learning",)),  # in no lexicon: the task it names
    ("machine translation tasks", ("machine translation",)),  # the tasks lexicon's own
])
def test_a_methods_name_before_the_class_word_stays_with_it(name, bare):
    assert mentions.task_without_class_word(name) == bare


def test_the_names_are_those_of_the_lexicons():
    assert lexicon.lookup("supervised learning", "method") == "supervised learning"
    assert lexicon.lookup("supervised learning", "task") is None
    assert lexicon.lookup("metric learning", "method") is None
    assert lexicon.lookup("machine translation", "task") == "machine translation"
