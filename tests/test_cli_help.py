"""Every sub-command is described and every option says what it does and its default."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from companion.cli import build_parser


def parsers(parser: argparse.ArgumentParser, name: str = "companion",
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from parsers(sub, f"{name} {sub_name}")


def has_default(action: argparse.Action) -> bool:
    return action.default not in (None, False, [], argparse.SUPPRESS) and not (
        isinstance(action, argparse._StoreConstAction) and action.default is True)


def test_every_sub_command_has_a_description():
    for name, parser in parsers(build_parser()):
        assert parser.description, name


def test_every_option_has_help_stating_its_default():
    checked = 0
    for name, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.option_strings and not has_default(action):
                continue
            what = f"{name} {action.option_strings or action.dest}"
            assert action.help, what
            if has_default(action):
                assert "default" in action.help.lower(), (what, action.default)
            checked += 1
    assert checked > 40
