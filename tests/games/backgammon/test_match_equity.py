"""The shipped match equity table: source, symmetry, monotony, Crawford and beyond."""

from __future__ import annotations

from pathlib import Path

import pytest

from hraj.games.backgammon import match_equity_build
from hraj.games.backgammon.match_equity import MatchScore, emg, table


def test_the_table_names_its_source_and_keeps_its_notice() -> None:
    met = table()
    assert met.length == 25
    assert "Kazaross" in met.name
    assert "Copyright (C) 2011 Neil Kazaross" in met.notice
    assert "provided the copyright notice and this notice are preserved" in met.notice


def test_equal_scores_are_even_and_the_table_is_symmetric() -> None:
    met = table()
    for a in range(1, 26):
        assert met.equity(a, a, post_crawford=False) == pytest.approx(0.5)
        for b in range(1, 26):
            assert met.equity(a, b, post_crawford=False) + met.equity(b, a, post_crawford=False) == pytest.approx(1.0)


def test_needing_fewer_points_is_never_worse() -> None:
    met = table()
    for a in range(2, 26):
        for b in range(1, 26):
            assert met.equity(a - 1, b, post_crawford=False) >= met.equity(a, b, post_crawford=False)
            assert met.equity(b, a, post_crawford=False) >= met.equity(b, a - 1, post_crawford=False)


def test_published_values() -> None:
    """Kazaross-XG2: 2-away against 1-away in the Crawford game 32.3%; post-Crawford
    the free drop makes 4-away (31.0%) almost as good as 3-away (32.3%)."""
    met = table()
    assert met.equity(2, 1, post_crawford=False) == pytest.approx(0.32264)
    assert met.equity(3, 1, post_crawford=True) == pytest.approx(0.32264)
    assert met.equity(4, 1, post_crawford=True) == pytest.approx(0.31002)
    assert met.equity(1, 4, post_crawford=True) == pytest.approx(1 - 0.31002)


def test_won_and_lost_matches() -> None:
    met = table()
    assert met.equity(0, 3, post_crawford=False) == 1.0
    assert met.equity(-2, 3, post_crawford=False) == 1.0
    assert met.equity(3, 0, post_crawford=False) == 0.0
    assert met.equity(1, 1, post_crawford=True) == 0.5


def test_longer_matches_than_the_table_follow_on_smoothly() -> None:
    met = table()
    inside = met.equity(20, 25, post_crawford=False)
    beyond = met.equity(30, 35, post_crawford=False)
    assert 0.5 < beyond < 0.75
    assert abs(met.equity(25, 25, post_crawford=False) - met.equity(26, 26, post_crawford=False)) < 1e-9
    assert inside > 0.5
    assert 0 < met.equity(40, 1, post_crawford=True) < met.equity(25, 1, post_crawford=True)


def test_score_after_a_game_uses_crawford_correctly() -> None:
    # 3-away against 5-away before Crawford: winning 2 points leaves 1-away, the Crawford game next
    before = MatchScore(3, 5)
    assert before.after(2) == pytest.approx(table().equity(1, 5, post_crawford=False))
    # in the Crawford game the trailer winning 1 leaves a post-Crawford score
    crawford = MatchScore(4, 1, crawford=True, crawford_done=True)
    assert crawford.after(1) == pytest.approx(table().equity(3, 1, post_crawford=True))
    assert crawford.flipped().flipped() == crawford


def test_emg_is_minus_one_to_one_between_losing_and_winning_a_single_game() -> None:
    score = MatchScore(5, 5)
    assert emg(score.after(1), score, 1) == pytest.approx(1.0)
    assert emg(score.after(-1), score, 1) == pytest.approx(-1.0)
    assert emg(0.5, score, 1) == pytest.approx(0.0)


def test_the_build_script_reads_gnubgs_format(tmp_path: Path) -> None:
    rows = "".join("<row>" + "<me>0.5</me>" * 2 + "</row>" for _ in range(2))
    source = tmp_path / "tiny.xml"
    source.write_text(
        "<?xml version='1.0'?>\n<!DOCTYPE met PUBLIC 'x' 'met.dtd'>\n<!-- (C) someone; keep this -->\n"
        f"<met><info><name>Tiny</name><description>d</description></info>"
        f"<pre-crawford-table>{rows}</pre-crawford-table>"
        "<post-crawford-table><row><me>0.5</me><me>0.4</me></row></post-crawford-table></met>",
        encoding="utf-8",
    )
    data = match_equity_build.convert(source)
    assert data["name"] == "Tiny" and data["length"] == 2
    assert data["notice"] == "(C) someone; keep this"
    assert data["post_crawford"] == [0.5, 0.4]
