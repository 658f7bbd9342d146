"""Account names: what may be one, and the key that makes "Eva" and "éva" the same name."""

from __future__ import annotations

import re
import unicodedata

from hraj.players.errors import AccountError

NAME_MIN = 3
NAME_MAX = 20
PASSWORD_MIN = 10
#: Longer passwords are refused rather than hashed: the work of a hash must stay bounded.
PASSWORD_MAX = 256
#: Czech and Slovak letters beyond ASCII, both cases.
LETTERS = "áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ"
#: A letter first, then letters, digits and single `.`, `-` or `_` between them (names are addresses: /hrac/NAME).
_NAME = re.compile(rf"[A-Za-z{LETTERS}](?:[A-Za-z0-9{LETTERS}]|[._-](?=[A-Za-z0-9{LETTERS}]))*")


def check_name(name: str) -> str:
    """The name as it will be shown (Unicode NFC), or AccountError saying why not."""
    name = unicodedata.normalize("NFC", name.strip())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("A name has {low} to {high} characters.", low=NAME_MIN, high=NAME_MAX)
    if not _NAME.fullmatch(name):
        raise AccountError(
            "A name starts with a letter and has only letters (Czech and Slovak ones too), digits, "
            "and single dots, hyphens or underscores between them."
        )
    return name


def name_key(name: str) -> str:
    """The name without case and diacritics: two names with one key cannot both exist."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def check_password(password: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError("A password has at least {count} characters.", count=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise AccountError("A password has at most {count} characters.", count=PASSWORD_MAX)
    return password
