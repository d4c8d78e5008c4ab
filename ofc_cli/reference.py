"""The ``ofc`` command's reference page, ``docs/cli.md``, generated from the commands' own
argparse definitions (:func:`ofc_cli.cli.build_parser`), so it cannot drift from them.

Regenerate it after changing a command or an option (``tests/test_site.py`` fails until then)::

    python -m ofc_cli.reference > docs/cli.md

>>> page = reference_markdown()
>>> page.startswith("# The ofc command") and "## ofc import" in page
True
"""

from __future__ import annotations

import argparse
import sys

from ofc_cli.cli import COMMANDS, build_parser

INTRO = (
    "Generated from the commands' own definitions by `python -m ofc_cli.reference > "
    "docs/cli.md` (a test fails when it is stale). `ofc COMMAND --help` prints the same on a "
    "terminal. Every command that opens the database takes `--db PATH` (default: `$OFC_DB`, "
    "else `data/ofc.duckdb`)."
)


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _names(action: argparse.Action) -> str:
    """How the argument is written: ``--hands N``, ``-h, --help``, ``PATH ...``."""
    metavar = action.metavar if isinstance(action.metavar, str) else None
    if not action.option_strings:
        name = metavar or action.dest.upper()
        return f"`{name} ...`" if action.nargs in ("+", "*") else f"`{name}`"
    if action.nargs == 0:
        return ", ".join(f"`{o}`" for o in action.option_strings)
    value = metavar or action.dest.upper()
    value += " ..." if action.nargs in ("+", "*") else ""
    return ", ".join(f"`{o} {value}`" for o in action.option_strings)


def _help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    """The action's help with ``%(default)s`` and the like filled in, plus its choices."""
    formatter = parser._get_formatter()
    text = formatter._expand_help(action) if action.help else ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        listed = ", ".join(f"`{c}`" for c in action.choices)
        if listed not in text:
            text = f"{text} (one of {listed})" if text else f"one of {listed}"
    if getattr(action, "required", False) and action.option_strings:
        text += " (required)"
    return _cell(text)


def _command_markdown(name: str, parser: argparse.ArgumentParser) -> list[str]:
    lines = [f"## {name}", "", _cell(parser.description or ""), "",
             "| argument | what it does |", "|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        lines.append(f"| {_names(action)} | {_help(action, parser)} |")
    if parser.epilog:
        lines += ["", _cell(parser.epilog)]
    return lines + [""]


def reference_markdown() -> str:
    """The whole page: the commands in ``COMMANDS``' order, each with every argument."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    lines = ["# The ofc command", "", INTRO, "", "| command | what it does |", "|---|---|"]
    lines += [f"| [`ofc {name}`](#ofc-{name}) | {_cell(text)} |" for name, text in COMMANDS.items()]
    lines.append("")
    for name in COMMANDS:
        lines += _command_markdown(f"ofc {name}", sub.choices[name])
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(reference_markdown())
