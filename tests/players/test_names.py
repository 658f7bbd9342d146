"""Account names: Czech and Slovak letters, 3–20 characters, one key without case or diacritics."""

from __future__ import annotations

import pytest

from hraj.players.errors import AccountError
from hraj.players.names import check_name, check_password, name_key


@pytest.mark.parametrize("name", ["Eva", "Ďuro", "Šťastný_Kůň", "ľubo.k", "Pavel-2", "a" * 20, "Ňňň"])
def test_czech_and_slovak_names_are_accepted(name: str) -> None:
    assert check_name(f"  {name} ") == name


@pytest.mark.parametrize(
    "name",
    ["Ev", "a" * 21, "2eva", "eva nová", "eva__x", "eva-", "_eva", "ева", "Eva\u200b", "Ewa😀", "zoë!"],
)
def test_other_names_are_refused_with_a_reason(name: str) -> None:
    with pytest.raises(AccountError) as caught:
        check_name(name)
    assert caught.value.key.startswith("A name")


def test_a_decomposed_name_is_stored_composed() -> None:
    assert check_name("E\u0301va") == "Éva"


@pytest.mark.parametrize(("one", "other"), [("Eva", "éva"), ("Šárka", "sarka"), ("ĽUBO", "lubo"), ("Kůň", "KUN")])
def test_names_that_differ_in_case_or_diacritics_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_different_names_have_different_keys() -> None:
    assert name_key("Eva") != name_key("Eve")


def test_passwords_have_ten_to_256_characters() -> None:
    assert check_password("0123456789") == "0123456789"
    for wrong in ("012345678", "x" * 257):
        with pytest.raises(AccountError):
            check_password(wrong)
