"""The `paperkg` command (also `python -m graph`): thin wrappers over library functions.

The commands live by job: `building` (build, build --add, remove), `reading` (query, neighbours,
viz, export, stats, serve) and `evaluation` (eval, train); `common` holds the group they join
and the user-error handling. Importing this package registers them all.
"""

from __future__ import annotations

from graph.cli import building, evaluation, reading
from graph.cli.common import UserError, cli, user_errors

__all__ = ["UserError", "building", "cli", "evaluation", "main", "reading", "user_errors"]


def main() -> None:
    cli(prog_name="paperkg")
