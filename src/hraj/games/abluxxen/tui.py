"""Abluxxen (Kořist) for the terminal, drawn from a seat's view only.

The view never holds another seat's hidden cards, so neither can the screen: other
seats show their hand size and the cards everyone saw go into that hand. Each seat's
laid-out layers read oldest first; the top layer, the one that can be captured, is
bold. Display slots carry the numbers people type (`draw slot 3`).

The seats' table must not wrap at 80 columns however long a game runs (a two-player
game can lay out 25 layers), so its card lists are compact (`3×7 J`), a seat's known
cards break onto more lines of their own at a fixed width, and its layers keep one
line: the newest that fit, the older ones counted. So five seats fit an 80×24 terminal
with the choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hraj.games.abluxxen.view import AbluxxenView
from hraj.i18n import t, tn

NOTATION_HELP = (
    "Play one card or several of one value, jokers allowed: play 4 4 J (J is a joker). "
    "After a capture the capturer types take (cards into hand) or leave; "
    "if left, the victim types back (into hand) or discard (and draw as many). "
    "Draw card by card with draw deck or draw slot 1 to 6. "
    "Without a capture you may draw one card, or type pass. "
    "With two players, shadow 5 captures the 5s of the shadow offer."
)

DRAWS_MORE, DRAWS_MORE_PLURAL = "{drawer} draws {count} more card", "{drawer} draws {count} more cards"
PHASES = {
    "first": "choosing the first player",
    "deal": "dealing",
    "play": "{name} plays a set",
    "shadow": "{name} chooses a group of the shadow offer",
    "choose": "{name} captured from {victim}: take into hand or leave?",
    "victim": "{victim}: take the captured cards back, or discard and draw?",
    "draw_card": "{drawer} draws from the pile",
    "refill": "refilling the display",
    "shadow_fill": "refilling the shadow offer",
    "optional_draw": "{name} captured nothing: draw one card or pass",
    "over": "game over",
}


def card(value: int) -> str:
    return "J" if value == 14 else str(value)


def cards(values: Sequence[int]) -> str:
    return " ".join(map(card, values)) if values else "—"


#: Widest line of a seat's known cards and of its layers, and the most a name takes:
#: with the other columns and the gaps between them the table stays within 80 columns.
KNOWN_WIDTH = 20
LAYERS_WIDTH = 26
NAME_WIDTH = 14
LAYER_GAP = " | "


def compact(values: Iterable[int]) -> str:
    """Cards as value groups, lowest first, a repeated value counted: `3×7 2×J`."""
    counts = sorted(Counter(values).items())
    return " ".join(f"{count}×{card(value)}" if count > 1 else card(value) for value, count in counts) or "—"


def broken(words: Sequence[str], width: int, gap: str = " ") -> list[list[str]]:
    """`words` in lines of at most `width` characters (a single longer word keeps a line)."""
    lines: list[list[str]] = [[]]
    used = 0
    for word in words:
        extra = len(word) + (len(gap) if lines[-1] else 0)
        if lines[-1] and used + extra > width:
            lines.append([])
            used, extra = 0, len(word)
        lines[-1].append(word)
        used += extra
    return lines


def describe(action: str, lang: str) -> str:
    """An action's notation in words of the player's language."""
    words = action.split()
    if words[0] == "play":
        return t("play {cards}", lang, cards=" ".join(words[1:]))
    if action == "draw deck":
        return t("draw from the pile", lang)
    if words[0] == "draw":
        return t("draw from display slot {slot}", lang, slot=words[-1])
    if words[0] == "shadow":
        return t("capture the {value}s of the shadow offer", lang, value=words[1])
    plain = {
        "take": "take the captured cards into hand",
        "leave": "leave the captured cards",
        "back": "take the cards back into hand",
        "discard": "discard the cards and draw as many",
        "pass": "draw nothing",
    }
    return t(plain[action], lang) if action in plain else action


def render(view: AbluxxenView, lang: str, names: Sequence[str]) -> RenderableType:
    parts: list[RenderableType] = [Text(_status(view, lang, names), style="bold")]
    if view["seat"] is not None and view["hand"] is not None:
        parts.append(Text(t("Your hand: {cards}", lang, cards=cards(view["hand"])), style="bold cyan"))
    parts.append(_seats(view, lang, names))
    parts.append(_table(view, lang))
    outcome = view["outcome"]
    if outcome is not None:
        winners = ", ".join(names[seat] for seat in outcome["winners"])
        parts.append(Text(t("Winner: {names}", lang, names=winners), style="bold green"))
    return Group(*parts)


def _status(view: AbluxxenView, lang: str, names: Sequence[str]) -> str:
    capture = view["capture"]
    draw = view["draw"]
    fields = {
        "name": names[view["active"]] if view["active"] is not None else "",
        "victim": names[capture["victim"]] if capture else "",
        "drawer": names[draw["seat"]] if draw else "",
    }
    if view["phase"] == "draw":  # how many cards are still owed, in the plural form they take
        owed = draw["owed"] if draw else 0
        status = tn(DRAWS_MORE, DRAWS_MORE_PLURAL, owed, lang, drawer=fields["drawer"])
    else:
        status = t(PHASES[view["phase"]], lang, **fields)
    if capture:
        status += " — " + t("captured: {cards}", lang, cards=cards(capture["cards"]))
    return status


def _seats(view: AbluxxenView, lang: str, names: Sequence[str]) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column(t("player", lang), no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
    for header in ("hand", "known in hand", "laid out (top last)", "points"):
        table.add_column(t(header, lang))
    for seat, public in enumerate(view["seats"]):
        name = names[seat] + (" ◀" if seat == view["active"] and view["phase"] != "over" else "")
        shown = public["known"] if public.get("revealed") is None else public["revealed"]
        known = "\n".join(" ".join(line) for line in broken(compact(shown).split(), KNOWN_WIDTH)) if shown else ""
        table.add_row(
            Text(name, style="bold" if seat == view["seat"] else ""),
            str(public["hand_size"]),
            known,
            _layers(public["layers"]),
            f"{public['score']:+d}",
        )
    return table


def _layers(layers: Sequence[Sequence[int]]) -> Text:
    """A seat's newest layers on one line of at most LAYERS_WIDTH, the top one bold;
    older ones are counted (`+5 …`), as only the top one can be captured and the points
    column counts them all."""
    texts = [compact(layer) for layer in layers]
    shown: list[str] = []
    for text in reversed(texts):
        older = len(texts) - len(shown) - 1
        prefix = len(f"+{older} …{LAYER_GAP}") if older else 0
        if shown and len(LAYER_GAP.join([text, *shown])) + prefix > LAYERS_WIDTH:
            break
        shown.insert(0, text)
    drawn = Text()
    older = len(texts) - len(shown)
    if older:
        drawn.append(f"+{older} …{LAYER_GAP}", style="dim")
    for place, text in enumerate(shown):
        drawn.append(LAYER_GAP if place else "", style="dim")
        drawn.append(text, style="bold" if place == len(shown) - 1 else "dim")
    return drawn


def _table(view: AbluxxenView, lang: str) -> Group:
    slots = Text(t("Display", lang) + ":")
    for number, slot in enumerate(view["display"], start=1):
        slots.append(f"  {number}:", style="dim")
        slots.append("+".join(map(card, slot)) if slot else "·", style="bold yellow" if slot else "dim")
    lines: list[RenderableType] = [slots]
    pile = tn("Draw pile: {count} card", "Draw pile: {count} cards", view["pile"], lang)
    discard = tn("discard pile: {count} card", "discard pile: {count} cards", len(view["discard"]), lang)
    lines.append(Text(f"{pile}   {discard}"))
    if view["shadow"] is not None:
        groups = "  ".join(cards(group) for group in view["shadow"]) or "—"
        lines.append(Text(t("Shadow offer", lang) + ": " + groups, style="magenta"))
    return Group(*lines)
