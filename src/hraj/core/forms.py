"""The option widgets a game's web module offers on the start page (`OPTION_FORMS`): part
of the contract between a game's folder and the web, which draws them."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class OptionForm(TypedDict):
    """One option's widget: the option's name in the registry's spec, its label (an
    English message id), and how it is asked. A number's range comes from the option's
    own check, not from here."""

    name: str
    label: str
    kind: Literal["select", "number", "check"]
    choices: NotRequired[list[tuple[str, str]]]
    """A select's choices: (the option's value, its label as a message id)."""
