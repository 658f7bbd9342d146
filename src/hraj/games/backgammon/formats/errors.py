"""The error that every backgammon format raises for text it cannot read."""

from __future__ import annotations

from hraj.core.errors import HrajError


class FormatError(HrajError):
    """A Position ID, Match ID, XGID or `.mat` text that is malformed or impossible."""
