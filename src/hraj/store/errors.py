"""What the store raises: a write that conflicts with what is stored, or a database it cannot use.

They live apart from the store itself so that the server and the people's store can
name them without importing the database code.
"""

from __future__ import annotations

from hraj.core.errors import HrajError


class StoreError(HrajError):
    """The store cannot be opened or a write conflicts with what is stored (a translatable template)."""


class StaleVersion(StoreError):
    """A room's stored version is not the one a batch starts from (nothing was written)."""


class NotOwner(StaleVersion):
    """The room is owned by another server process now (nothing was written)."""


class SeekTaken(HrajError):
    """A seek that a new room would seat was paired meanwhile (the room was not created);
    not a store failure: the pairing simply tries again."""


class CommitInDoubt(StoreError):
    """The database went away while it was committing: the batches may be stored or not.
    Only a read of the store tells (`Store.holds`); every other failure of `append`
    means that nothing was written."""
