"""The command line's frame: the command list, user errors as one line and exit 2, and the
`python -m graph` entry point."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from graph import extractors
from graph.cli import cli, main
from graph.cli.common import user_errors
from graph.errors import PaperkgError, UnknownExtractorError

COMMANDS = ["build", "eval", "export", "neighbours", "query", "remove", "serve", "stats", "train",
            "viz"]


def test_the_commands_of_the_contract():
    assert sorted(cli.commands) == COMMANDS


def test_an_unknown_extractor_is_a_user_error_and_a_key_error():
    with pytest.raises(UnknownExtractorError) as caught:
        extractors.get("nope.v1")
    assert isinstance(caught.value, PaperkgError)
    assert isinstance(caught.value, KeyError)
    assert str(caught.value).startswith("unknown extractor 'nope.v1'; known extractors: ")


def test_user_errors_print_one_line_and_exit_2():
    @click.command()
    @user_errors
    def pick() -> None:
        extractors.get("nope.v1")

    result = CliRunner().invoke(pick, [])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("paperkg: error: unknown extractor 'nope.v1'; known extractors: ")


def test_other_errors_keep_their_traceback():
    @click.command()
    @user_errors
    def broken() -> None:
        raise KeyError("a bug")

    result = CliRunner().invoke(broken, [])
    assert result.exit_code == 1
    assert isinstance(result.exception, KeyError)


def test_python_dash_m_graph_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "graph", "--version"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0
    assert done.stdout == "paperkg, version 0.1.0\n"


def test_main_names_the_program_paperkg(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["anything", "--help"])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith("Usage: paperkg [OPTIONS] COMMAND [ARGS]...")
