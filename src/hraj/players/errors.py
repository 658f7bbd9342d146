"""What can go wrong with an account, each with the server's error code for it."""

from __future__ import annotations

from hraj.core.errors import HrajError


class AccountError(HrajError):
    """A request about an account that cannot be done (a translatable template)."""

    code = "bad_message"


class NameTaken(AccountError):
    code = "name_taken"


class WrongCredentials(AccountError):
    """The one answer for an unknown name and for a wrong password alike."""

    code = "unauthorized"


class TooManyAttempts(AccountError):
    code = "rate_limited"

    def __init__(self, template: str, /, retry_after: int, **params: object) -> None:
        super().__init__(template, seconds=retry_after, **params)
        self.retry_after = retry_after


class Busy(AccountError):
    """Too many passwords are being checked at once: the request waits for nothing."""

    code = "unavailable"
