"""Marks for the texts a player reads that are translated where they are shown.

The core and the games keep such texts (a bot level's name, a hint's reason, a help
line) as English message ids and never translate them: the catalogs are read by the
part that shows them (`hraj.i18n`). `_` and `_n` only mark the texts, so that they can
be told from other strings and checked against the catalogs (`tests/test_i18n.py`
finds them by these names).
"""

from __future__ import annotations


def _(text: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return text


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted phrase (singular, plural) for the catalogs; shown in the count's plural form."""
    return singular, plural
