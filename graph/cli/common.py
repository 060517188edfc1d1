"""What every `paperkg` command shares: the command group, the `--store` option and the way a
user error becomes one line on stderr and exit status 2 (anything else is a bug and keeps its
traceback)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import IO, Any

import click

from graph.errors import PaperkgError

STORE_HELP = "Store: a folder (embedded Oxigraph) or an http(s) URL of a SPARQL 1.1 server. " \
             "Default: $PAPERKG_STORE or .paperkg/store"


class UserError(click.ClickException):
    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"paperkg: error: {self.format_message()}", err=True)


def user_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PaperkgError as exc:
            raise UserError(str(exc)) from None

    return wrapper


store_option = click.option("--store", default=None, help=STORE_HELP)


def walk_options(limit: int, most: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--depth, --types and --limit of a command that walks a node's neighbourhood."""
    options = [
        click.option("--depth", default=1, show_default=True, type=click.IntRange(1, 3)),
        click.option("--types", default=None, help="Comma-separated node types to keep."),
        click.option("--limit", default=limit, show_default=True, type=click.IntRange(1, most)),
    ]

    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            fn = option(fn)
        return fn

    return apply


def parse_types(value: str | None) -> list[str] | None:
    """`--types method, dataset` as a list; None keeps every type."""
    return [t.strip() for t in value.split(",") if t.strip()] if value else None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperkg")
def cli() -> None:
    """Knowledge graphs of research literature from paper abstracts."""
