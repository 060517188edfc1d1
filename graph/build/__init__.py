"""Building the graph: the stages of a build driven over an executor, and changes to a built one.

    driver.py       `build()`: corpus -> extractors -> resolve -> rdf -> store -> exports
    executors.py    the executor interface (extract papers, write their linked facts) and the
                    serial executor
    processes.py    ProcessExecutor: extraction on local worker processes
    cluster.py      DaskExecutor: both stages on a Dask cluster
    incremental.py  `add_papers`, `remove_paper`, `add_files` (`paperkg build --add`, `remove`)
    update.py       the one SPARQL Update of a paper's facts (what a paper owns, support counts)
"""

from graph.build.driver import BuildResult, build, executor_for, extract, graph_files
from graph.build.executors import Executor, SerialExecutor
from graph.build.incremental import (
    AddResult,
    add_files,
    add_papers,
    known_entities,
    remove_paper,
    store_base,
)
from graph.build.update import replace_paper

__all__ = [
    "AddResult",
    "BuildResult",
    "Executor",
    "SerialExecutor",
    "add_files",
    "add_papers",
    "build",
    "executor_for",
    "extract",
    "graph_files",
    "known_entities",
    "remove_paper",
    "replace_paper",
    "store_base",
]
