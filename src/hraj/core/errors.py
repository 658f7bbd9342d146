"""The one family of errors that every layer of hraj raises and shows to people.

Every error carries an English message template (which doubles as its translation
key) and the parameters to fill it with, so a UI can show the reason in the
player's language without parsing English text.
"""

from __future__ import annotations

import errno


class HrajError(Exception):
    """Base of every error hraj reports to a user: bad input, never a bug."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.key = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

    @property
    def reason(self) -> str:
        """The English reason, with its parameters filled in."""
        return str(self)


class InvalidAction(HrajError):
    """Text that is not an action (or chance outcome) of this game at all."""


class IllegalAction(HrajError):
    """A well-formed action that the rules do not allow now."""


class InvalidOption(HrajError):
    """A game option that is unknown or out of its range."""


class InvalidRecord(HrajError):
    """A record that is malformed or does not replay."""


def _(text: str) -> str:
    """Marks a phrase for the catalogs; it is translated where it is shown."""
    return text


#: Why a file could not be used, by error number, as phrases the catalogs translate: an
#: error's parameter that is such a phrase is shown in the user's language.
FILE_REASONS = {
    errno.ENOENT: _("no such file or folder"),
    errno.EACCES: _("permission denied"),
    errno.EPERM: _("permission denied"),
    errno.EISDIR: _("it is a folder"),
    errno.ENOTDIR: _("a part of the path is not a folder"),
    errno.EROFS: _("the disk is read-only"),
    errno.ENOSPC: _("the disk is full"),
}


def file_reason(error: OSError) -> str:
    """Why a file could not be used: a phrase of FILE_REASONS, else the system's words."""
    return FILE_REASONS.get(error.errno or 0) or error.strerror or str(error)
