"""Tables rendered from views: clickable exactly where an action is legal, nothing hidden shown."""

from __future__ import annotations

import random
import re
from typing import Any

import hraj
from hraj.core.game import State
from hraj.core.record import HIDDEN
from hraj.games.abluxxen.rules import AbluxxenState
from hraj.games.backgammon import web as backgammon_web
from hraj.games.backgammon.rules import Backgammon, BackgammonState
from hraj.games.qwixx.rules import QwixxState
from hraj.games.trefa import web as trefa_web
from hraj.games.trefa.rules import Trefa
from hraj.games.trefa.view import TrefaView
from hraj.web import tables
from hraj.web.render import render_table

SEATS = [
    {"seat": 0, "kind": "person", "name": "Ema", "bot": None, "claimed": True, "connected": True},
    {"seat": 1, "kind": "bot", "name": None, "bot": "greedy", "claimed": False, "connected": False},
    {"seat": 2, "kind": "person", "name": "Ota", "bot": None, "claimed": True, "connected": True},
]


def actions_in(html: str) -> set[str]:
    return set(re.findall(r'data-action="([^"]+)"', html))


def qwixx_after(roll: str, players: int = 2) -> State[Any, Any]:
    state = hraj.game("qwixx", players=players, first=0).new_state()
    state.apply_chance(roll)
    return state


def test_qwixx_cells_offer_exactly_the_legal_crosses() -> None:
    state = qwixx_after("w4 w1 r3 y2 g6 b6")
    assert isinstance(state, QwixxState)
    view = state.view(0)
    html = render_table("qwixx", view, SEATS[:2], state.events(), "cs", room_id="r", version=1)
    cells = set(re.findall(r'class="cell can" data-action="([^"]+)"', html))
    assert cells == {a for a in view["legal"] if a != "pass"}
    assert actions_in(html) == set(view["legal"])
    assert "Součet bílých kostek 5" in html


def test_a_spectator_table_offers_no_action() -> None:
    state = qwixx_after("w4 w1 r3 y2 g6 b6")
    html = render_table("qwixx", state.view(None), SEATS[:2], state.events(), "en", room_id="r", version=1)
    assert actions_in(html) == set()
    assert 'data-my-turn="0"' in html


def test_qwixx_white_sum_answers_stay_secret_until_all_have_answered() -> None:
    state = qwixx_after("w4 w1 r3 y2 g6 b6")
    state.apply(1, "pass")
    assert 1 not in state.to_act
    theirs = state.events_for(0)
    own = state.events_for(1)
    assert theirs[-1] == ("move", 1, HIDDEN)
    assert own[-1] == ("move", 1, "pass")


def test_abluxxen_log_and_spectator_table_show_no_card_from_the_hidden_pile() -> None:
    game = hraj.game("abluxxen", players=3, first=0)
    state = game.new_state()
    assert isinstance(state, AbluxxenState)
    rng = random.Random(3)
    while state.is_chance:
        state.apply_chance(state.sample_chance(rng))
    spectator = state.view(None)
    shown = state.events_for(None)
    readable = [text for kind, _, text in shown if kind == "chance" and text != HIDDEN]
    assert len(readable) == 6  # the display, no card of a hand
    assert len([text for kind, _, text in state.events_for(0) if kind == "chance" and text != HIDDEN]) == 13 + 6
    html = render_table("abluxxen", spectator, SEATS, shown, "cs", room_id="r", version=1)
    assert "Moje ruka" not in html
    mine = render_table("abluxxen", state.view(0), SEATS, state.events_for(0), "cs", room_id="r", version=1)
    hand = state.view(0)["hand"]
    assert hand is not None
    assert "Moje ruka" in mine
    assert len(re.findall(r"data-pick=", mine)) == len(hand)


def test_trefa_dice_can_be_picked_only_when_writable() -> None:
    state = Trefa(players=2, first=0).new_state()
    state.apply_chance("k1 w2 r3 y4 g5 b6")
    view = state.view(0)
    parts = trefa_web.build(view, ["A", "B"], "en", {})
    picked = {die["colour"] for die in parts["dice"] if die["pick"]}
    assert picked == set(view["writable"])
    assert set(parts["bar"]) == {a for a in view["legal"] if not a.startswith("write ")}


def backgammon_to_move() -> BackgammonState:
    state = Backgammon(first=0).new_state()
    state.apply_chance("31")
    return state


def test_backgammon_board_builds_a_play_step_by_step() -> None:
    state = backgammon_to_move()
    view = state.view(0)
    plays = [a for a in view["legal"] if "/" in a]
    target = "8/5 6/5"
    assert target in plays
    first = backgammon_web.build(view, ["A", "B"], "en", {"steps": "", "sel": "8"})
    targets = [p["point"] for p in first["top"] + first["bottom"] if p["role"] == "target"]
    assert 5 in targets
    assert first["complete"] is None
    half = backgammon_web.build(view, ["A", "B"], "en", {"steps": "8/5"})
    assert half["chosen"] == ["8/5"]
    assert half["undo"] == "steps="
    done = backgammon_web.build(view, ["A", "B"], "en", {"steps": "8/5,6/5"})
    assert done["complete"] == target
    # The board shows the steps: point 5 holds two of my checkers, 8 one less.
    points = {p["point"]: p for p in done["top"] + done["bottom"]}
    assert points[5]["mine"] == 2
    assert points[8]["mine"] == 2


def test_backgammon_steps_that_no_legal_play_contains_are_dropped() -> None:
    state = backgammon_to_move()
    parts = backgammon_web.build(state.view(0), ["A", "B"], "en", {"steps": "24/2"})
    assert parts["chosen"] == []


def test_describe_gives_words_for_every_game() -> None:
    assert tables.describe("qwixx", "r5", "cs") == "▲ červená 5"
    assert tables.describe("trefa", "write k,y", "en") == "write black, yellow"
    assert tables.describe("backgammon", "resign 2", "en") == "resign (gammon)"
    assert tables.describe("abluxxen", "draw slot 3", "cs") == "vzít ze zásoby, místo 3"


def test_backgammon_resignations_are_offered_apart_from_the_roll() -> None:
    state = Backgammon(first=0).new_state()
    state.apply_chance("31")
    view = state.view(0)
    parts = backgammon_web.build(view, ["A", "B"], "en", {})
    resigns = [action for action, _ in parts["resigns"]]
    assert resigns == [a for a in view["legal"] if a.startswith("resign ")]
    assert not any(a.startswith("resign ") for a in parts["bar"])


def test_backgammon_offers_no_empty_point_as_a_start() -> None:
    # 6-4 from the opening: the plays "24/18 18/14" and "13/7 7/3" contain steps from
    # points 18 and 7, which are empty until the first step lands there.
    state = Backgammon(first=0).new_state()
    state.apply_chance("64")
    view = state.view(0)
    parts = backgammon_web.build(view, ["A", "B"], "en", {})
    points = {p["point"]: p for p in parts["top"] + parts["bottom"]}
    origins = {n for n, p in points.items() if p["role"] == "origin"}
    assert origins == {24, 13, 8, 6}
    assert all(points[n]["mine"] > 0 for n in origins)
    # Point 18 chosen anyway (a typed address): no step is recorded and no checker moves.
    picked = backgammon_web.build(view, ["A", "B"], "en", {"sel": "18"})
    assert picked["selected"] is None
    assert not any(p["role"] == "target" for p in picked["top"] + picked["bottom"])
    typed = backgammon_web.build(view, ["A", "B"], "en", {"steps": "18/14"})
    assert typed["chosen"] == []
    assert {p["point"]: p["mine"] for p in typed["top"] + typed["bottom"]}[14] == 0
    # After 24/18, the checker on 18 may go on to 14.
    half = backgammon_web.build(view, ["A", "B"], "en", {"steps": "24/18"})
    assert "18" in {str(p["point"]) for p in half["top"] + half["bottom"] if p["role"] == "origin"}
    done = backgammon_web.build(view, ["A", "B"], "en", {"steps": "24/18,18/14"})
    assert done["complete"] == "24/18 18/14"
    assert {p["point"]: p["mine"] for p in done["top"] + done["bottom"]}[14] == 1


def qwixx_passing_costs_a_misthrow() -> State[Any, Any]:
    """Seat 0 active: it passes on the white sum, the other seat too; the colour step is left."""
    state = qwixx_after("w4 w1 r3 y2 g6 b6")
    state.apply(0, "pass")
    state.apply(1, "pass")
    return state


def test_a_pass_that_records_a_misthrow_asks_first_in_every_language() -> None:
    state = qwixx_passing_costs_a_misthrow()
    view = state.view(0)
    assert view["phase"] == "colour"
    assert view["pass_is_misthrow"] is True
    texts = {
        "cs": "zapíše se vám chybný hod, −5 bodů",
        "sk": "zapíše sa vám chybný hod, −5 bodov",
        "en": "records a misthrow, −5 points",
    }
    for lang, text in texts.items():
        html = render_table("qwixx", view, SEATS[:2], state.events(), lang, room_id="r", version=1)
        button = re.search(r'<button[^>]*data-action="pass"[^>]*>', html)
        assert button is not None
        assert text in button.group(0)
    # A pass on the white sum while coloured dice still fit asks nothing.
    first = qwixx_after("w4 w1 r3 y2 g6 b6").view(0)
    assert first.get("pass_is_misthrow") is False
    plain = render_table("qwixx", first, SEATS[:2], [], "cs", room_id="r", version=1)
    assert "data-confirm" not in plain
    # The other seat's pass never costs it anything.
    assert "pass_is_misthrow" not in qwixx_after("w4 w1 r3 y2 g6 b6").view(1)


def test_a_crossed_white_sum_makes_the_colour_pass_free() -> None:
    state = qwixx_after("w4 w1 r3 y2 g6 b6")
    state.apply(0, "r5")
    state.apply(1, "pass")
    view = state.view(0)
    if view["phase"] == "colour":
        assert view["pass_is_misthrow"] is False


def test_the_trefa_prompt_offers_stop_only_when_stop_is_legal() -> None:
    state = Trefa(players=2, first=0).new_state()
    while state.is_chance:
        state.apply_chance(state.sample_chance(random.Random(3)))
    view = state.view(0)
    said = trefa_web.status(view, "Eva", "cs")
    assert said is not None
    if "stop" in view["legal"]:
        assert said.endswith("nebo skončete a vyškrtněte pole")
    else:
        assert "stop" not in said
    stop_allowed: TrefaView = {**view, "writable": []}
    writing: TrefaView = {**view, "writable": ["k"]}
    assert trefa_web.status(stop_allowed, "Eva", "cs") == "Eva: přehoďte, nebo skončete a vyškrtněte pole"
    assert trefa_web.status(writing, "Eva", "cs") == "Eva: zapište kostky, nebo přehoďte"
    assert trefa_web.status(writing, "Eva", "sk") == "Eva: zapíšte kocky, alebo prehoďte"


def test_no_badge_says_whose_turn_it_is_after_the_end() -> None:
    rng = random.Random(5)
    for game_id, players in (("qwixx", 2), ("abluxxen", 2), ("trefa", 2)):
        state = hraj.game(game_id, players=players).new_state()
        while state.outcome is None:
            if state.is_chance:
                state.apply_chance(state.sample_chance(rng))
            else:
                seat = state.to_act[0]
                state.apply(seat, str(rng.choice(state.legal_actions(seat))))
        html = render_table(game_id, state.view(0), SEATS[:2], state.events(), "cs", room_id="r", version=1)
        assert "badge" not in html, game_id
        assert "turn-mark" not in html, game_id
        assert 'class="to-act' not in html, game_id


def test_every_changeable_part_of_a_table_carries_a_mark_and_its_state() -> None:
    state = backgammon_to_move()
    html = render_table("backgammon", state.view(0), SEATS[:2], state.events(), "cs", room_id="r", version=1)
    marks = re.findall(r'data-mark="([^"]+)" data-sig="([^"]*)"', html)
    keys = {key for key, _ in marks}
    assert {f"pt-{n}" for n in range(1, 25)} | {"bar", "off", "dice"} <= keys
    assert ("pt-24", "2/0") in marks
    assert ("dice", "3,1") in marks
    # The log's lines are marked by their number, the newest highest.
    assert re.search(r'data-mark="log-\d+"', html)


def test_a_bot_is_offered_only_for_the_seat_of_a_player_who_is_away() -> None:
    """The host may leave an away player's seat to a bot; a connected friend's seat is
    theirs, so no button offers it (the server refuses it too)."""
    seats = [
        {"seat": 0, "kind": "person", "name": "Ema", "bot": None, "claimed": True, "connected": True},
        {"seat": 1, "kind": "person", "name": "Jan", "bot": None, "claimed": True, "connected": True},
        {"seat": 2, "kind": "person", "name": "Ota", "bot": None, "claimed": True, "connected": False},
    ]
    state = qwixx_after("w1 w2 r3 y4 g5 b6", players=3)
    html = render_table("qwixx", state.view(0), seats, state.events(), "cs", room_id="r", version=1)
    assert re.findall(r'data-seat-bot="(\d)"', html) == ["2"]


def test_the_victim_of_a_capture_reads_you_and_the_others_read_the_name() -> None:
    from hraj.games.abluxxen.rules import Abluxxen, AbluxxenState

    state = AbluxxenState.from_position(
        Abluxxen(players=4),
        "0: 7,7,7,3,3,1 [] / 13,2 [9,9] / 5,8 [4,4,4 3,3,J] / 4,4 [2,2,2] ; display 1 2 3 4 5 J ; discard 6",
    )
    state.apply(0, "play 7 7 7")  # captures seat 2's 3 3 J
    names = [{**SEATS[0], "seat": number, "name": name} for number, name in enumerate("ABCD")]
    victim = render_table("abluxxen", state.view(2), names, state.events_for(2), "cs", room_id="r", version=1)
    other = render_table("abluxxen", state.view(1), names, state.events_for(1), "cs", room_id="r", version=1)
    assert "Přicházíte o tyto karty:" in victim and "C přichází" not in victim
    assert "C přichází o tyto karty:" in other
