"""The writer that codecs write observations with, and the cells it keeps for shared view parts."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest

from hraj.core.codec import ActionTableCodec, SharedParts, Writer, by_text, seen_from


def written(fill: str) -> list[float]:
    """The cells a writer leaves in a stale array after the calls named by `fill`."""
    out = np.full(12, 9.0, dtype=np.float32)
    put = Writer(out)
    if fill == "fields":
        put.one_hot(2, 3)
        put.skip(2)
        put.counts([5, 5, 7], 3, 0.25, lowest=5)
        put.ones([0, 3], 4)
    assert put.finish() == (12 if fill == "fields" else 0)
    return out.tolist()


def test_a_writer_sets_only_its_cells_and_zeros_the_rest() -> None:
    assert written("fields") == [0, 0, 1, 0, 0, 0.5, 0, 0.25, 1, 0, 0, 1]
    assert written("nothing") == [0.0] * 12


def test_seats_are_written_and_listed_as_the_observer_sees_them() -> None:
    """The observer's seat comes first, then its left neighbour's and so on (seat 2 of
    four is three seats on from seat 3); a spectator sees seat 0 first."""
    out = np.full(8, 9.0, dtype=np.float32)
    put = Writer(out)
    put.seat(2, 3, 4)
    put.seat(None, 3, 4)
    assert put.finish() == 8
    assert out.tolist() == [0, 0, 0, 1, 0, 0, 0, 0]
    assert seen_from(["a", "b", "c", "d"], 3) == ["d", "a", "b", "c"]
    assert seen_from(["a", "b", "c", "d"], None) == ["a", "b", "c", "d"]


def test_a_one_hot_or_a_count_outside_its_field_is_refused_not_written_next_door() -> None:
    put = Writer(np.zeros(8, dtype=np.float32))
    with pytest.raises(IndexError, match="outside 0-2"):
        put.one_hot(3, 3)
    with pytest.raises(IndexError, match="outside 1-4"):
        put.counts([5], 4, lowest=1)
    with pytest.raises(IndexError, match="outside 0-1"):
        put.one_hots([0, 2], 2)


def test_shared_parts_are_worked_out_once_and_must_fill_their_size() -> None:
    calls = []

    def encode(part: tuple[int, ...], put: Writer) -> None:
        calls.append(part)
        put.values(float(number) / 10 for number in part)

    parts = SharedParts(encode, 2)
    part = (1, 2)
    assert parts(part).tolist() == pytest.approx([0.1, 0.2])
    assert parts(part) is parts(part)
    assert calls == [part]
    with pytest.raises(AssertionError, match="1 cells, not 2"):
        parts((1,))
    with pytest.raises(IndexError):  # a cell past the end is never written
        parts((1, 2, 3))


def test_two_actions_with_one_notation_make_no_table() -> None:
    assert by_text({"a": 0, 1: 1}) == {"a": (0, "a"), "1": (1, 1)}
    with pytest.raises(ValueError, match="share a notation"):
        by_text({"1": 0, 1: 1})


def test_an_action_table_is_refused_unless_its_ids_run_from_0_without_a_gap() -> None:
    class Listed(ActionTableCodec[Any, Any]):
        ids: ClassVar[dict[str, int]] = {"a": 1, "b": 0}

    assert Listed._by_text == {"a": (1, "a"), "b": (0, "b")}
    with pytest.raises(ValueError, match="run from 0 to 1, each once"):

        class Gapped(ActionTableCodec[Any, Any]):
            ids: ClassVar[dict[str, int]] = {"a": 0, "b": 2}

    with pytest.raises(ValueError, match="run from 0 to 1, each once"):

        class Twice(ActionTableCodec[Any, Any]):
            ids: ClassVar[dict[str, int]] = {"a": 1, "b": 1}
