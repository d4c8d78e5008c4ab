"""Human-readable descriptions of the rule data, for docs and the dashboard's labels.

Everything here is derived from the ruleset values in :mod:`ofc_core.rules`, so the docs and the
scorer cannot disagree. ``docs/rules.md`` is :func:`rules_markdown` verbatim (a test checks).

>>> describe_royalty_class("full_house")
'Full house'
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_core.board import Board
from ofc_core.cards import Rank
from ofc_core.evaluate import Category, Strength, hand_name, low_ranks
from ofc_core.jokers import resolve_board
from ofc_core.rules import (
    PRESETS,
    ROYALTY_TABLES,
    RULE_KEYS,
    FlStay,
    JokerRule,
    MiddleKind,
    RoyaltyTable,
    Ruleset,
    ScoringSystem,
    StayRule,
    Street,
    resolve,
)
from ofc_core.settlement import RULE_TEXT as SETTLEMENT_RULE


def describe_royalty_class(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _strength_name(s: Strength) -> str:
    category = Category(s >> 20)
    words = {Category.TRIPS: "Trips", Category.FULL_HOUSE: "Full house",
             Category.QUADS: "Quads", Category.PAIR: "A pair"}
    return words.get(category, hand_name(s))


def describe_stay_rule(rule: StayRule) -> str:
    """``describe_stay_rule(FlStay.PINEAPPLE.rule)`` -> 'trips or better on top, or quads or
    better on the bottom'."""
    parts = []
    for row, minimum in (("on top", rule.top), ("in the middle", rule.middle),
                         ("on the bottom", rule.bottom)):
        if minimum is not None:
            parts.append(f"{_strength_name(minimum).lower()} or better {row}")
    if rule.row_royalty is not None:
        parts.append(f"{rule.row_royalty} or more royalty points in any one row")
    return ", or ".join(parts)


def describe_scoring(system: ScoringSystem) -> str:
    spec = system.spec
    if system.is_race:
        return (f"each player banks {spec.row_point} per row won, {spec.scoop_bonus} more for a "
                "scoop, plus own royalties; a fouled player banks 0, the opponent the scoop value "
                "plus royalties")
    return (f"{spec.row_point} per row won or lost, {spec.majority_bonus} for winning more rows, "
            f"{spec.scoop_bonus} more for a scoop: 2-1 is worth {system.points(2, 1)}, a scoop "
            f"{system.scoop_value}")


def _royalty_table_markdown(table: RoyaltyTable) -> list[str]:
    lines = [f"### `{table.name}`", "", "| row | royalty |", "|---|---|"]
    for row, mapping in (("bottom", table.bottom), ("middle", table.middle)):
        if not mapping:
            continue
        items = ", ".join(f"{describe_royalty_class(k.value)} {v}" for k, v in mapping.items())
        lines.append(f"| {row} | {items} |")
    if table.middle_lows:
        lows = ", ".join(f"{'-'.join(map(str, ranks))}{'-high' * (len(ranks) == 1)} {v}"
                         for ranks, v in table.middle_lows)
        lines.append(f"| middle (2-7 low) | {lows} |")
    pairs = ", ".join(f"{r.char}{r.char} {v}" for r, v in table.top_pairs.items())
    trips = ", ".join(f"{r.char * 3} {v}" for r, v in table.top_trips.items())
    lines += [f"| top | {pairs}; {trips} |", ""]
    return lines


def rules_markdown() -> str:
    """The rules as implemented, as Markdown (``docs/rules.md``)."""
    lines = [
        "# Rules as implemented",
        "",
        "Generated from the ruleset data in `ofc_core/rules.py` by "
        "`python -m ofc_core.describe > docs/rules.md` (a test fails when it is stale). "
        "The rules the project must support, and their variations, are in `docs/variations.md`.",
        "",
        "## Presets",
        "",
        "| variant | players | deal | scoring | royalties | FL cards | FL stay | button in FL "
        "| jokers | middle |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in PRESETS.items():
        deal = _describe_dealing(r)
        players = r.player_range
        fl = ", ".join(f"{_top_name(m)}: {n}" for m, n in r.fl_cards.entry)
        if r.fl_cards.middle_entry is not None:
            low = "-".join(map(str, low_ranks(r.fl_cards.middle_entry)))
            fl += f", or a {low} middle: {r.fl_cards.entry[0][1]}"
            fl += f"; both: {r.fl_cards.both}" if r.fl_cards.both else ""
        if r.fl_cards.repeat:
            fl += f"; repeat {r.fl_cards.repeat}"
        lines.append(f"| `{name}` | {players} | {deal} | {r.scoring} | "
                     f"{r.royalties.name} | {fl} | {r.fl_stay} | {r.button_in_fl} | "
                     f"{r.jokers} | {r.middle} |")
    lines += ["", "`double` is a race to "
              f"{PRESETS['double'].match_target} points with a doubling cube.", ""]
    lines += _rule_keys_markdown()
    lines += ["## Scoring systems", ""]
    lines += [f"- `{s.value}`: {describe_scoring(s)}." for s in ScoringSystem]
    lines += ["", "Fouls: a fouled player loses every row against a player who did not foul, "
              "earns no royalties and never enters or stays in Fantasyland; two fouled players "
              "exchange nothing. `foul_payout` `scoop-plus-royalties` (default) also pays the "
              "opponent's royalties, `scoop` pays the scoop value alone. A surrendering player "
              "pays `surrender_cost` (default 2) to each rival and nothing else. With `cap`, no "
              "player wins or loses more than the cap in a hand; pairs settle in order from the "
              "left of the button.", "", "### Settlement under table stakes", "",
              SETTLEMENT_RULE, "", "## Fantasyland stay rules", ""]
    lines += [f"- `{s.value}`: {describe_stay_rule(s.rule)}." for s in FlStay]
    lines += ["", "## Royalty tables", ""]
    for table in ROYALTY_TABLES.values():
        lines += _royalty_table_markdown(table)
    lines += _house_rules_markdown()
    return "\n".join(lines)


JOKER_RULE_TEXT = {
    JokerRule.BOTTOM_UP: (
        "a joker stands for any card not on its player's own board, and two jokers never for "
        "the same card. Of the choices that avoid a foul, the board takes the one whose bottom "
        "is strongest; among those, the one whose middle is strongest (so, without beating the "
        "bottom); among those, the one whose top is strongest (without beating the middle). "
        "The hand fouls only if no choice avoids a foul. Row comparisons, royalties, "
        "Fantasyland entry and stay all read the resolved rows."),
}


@dataclass(frozen=True)
class WorkedExample:
    """A board scored under a ruleset, shown in ``docs/rules.md`` (and checked by a test)."""

    title: str
    variant: str
    overrides: tuple[tuple[str, object], ...]
    board: str
    note: str

    @property
    def ruleset(self) -> Ruleset:
        return resolve(self.variant, dict(self.overrides))


WORKED_EXAMPLES = (
    WorkedExample(
        "A joker that would foul as the strongest card resolves lower", "joker-pineapple", (),
        "AhX12c-KhKd9c7s3d-QhQdQc8s8d",
        "As an ace the joker would make two aces on top, above the middle's two kings: a foul. "
        "The strongest top that does not beat the middle is a pair of deuces."),
    WorkedExample(
        "A 2-7 middle with a ten", "2-7-pineapple", (), "KhKd4c-Th6d4s3c2h-AhAd8c8s5d",
        "Ten high, no pair, straight or flush: a legal low (no royalty: the table pays from "
        "nine-high). Kings on top enter Fantasyland with 14 cards."),
    WorkedExample(
        "A 2-7 foul from a pair in the middle", "2-7-pineapple", (),
        "QhJd4c-6h6d4s3c2h-AhAd8c8s5d",
        "A pair in a 2-7 middle is no low: the board fouls whatever its top and bottom."),
    WorkedExample(
        "A joker in a 2-7 middle", "2-7-pineapple", (("jokers", 1),),
        "KhKd4c-7h5dX14s2h-AhAd8c8s5s",
        "The joker becomes the card that makes the best low, a three: 7-5-4-3-2 earns 8 and, "
        "with kings on top, Fantasyland with 15 cards."),
)
"""The worked examples of ``docs/rules.md``, one per rule added for jokers and 2-7."""


def _example_markdown(example: WorkedExample) -> list[str]:
    r = example.ruleset
    resolved = resolve_board(Board.parse_compact(example.board), r)
    rows = ("top", "middle", "bottom")
    lines = [f"**{example.title}** (`{example.variant}`"
             + "".join(f", `{k}: {v}`" for k, v in example.overrides) + f"): `{example.board}`",
             ""]
    royalties = (0, 0, 0) if resolved.fouled else r.row_royalties(resolved.strengths)
    for k, row in enumerate(rows):
        suffix = " (joker)" if resolved.joker_rows[k] else ""
        lines.append(f"- {row}: {hand_name(resolved.strengths[k])}{suffix}, royalty "
                     f"{royalties[k]}")
    for joker, card in resolved.stood_for:
        lines.append(f"- {joker} stood for {card}")
    fl = r.fantasyland_cards(resolved.fouled, False, resolved.strengths[0], resolved.strengths,
                             royalties)
    lines += [f"- {'fouled' if resolved.fouled else 'legal'}; Fantasyland next hand: "
              f"{fl or 'no'}", "", example.note, ""]
    return lines


def _rule_keys_markdown() -> list[str]:
    """Every key a hand's ``rules`` may override, what it sets and its values in the presets."""
    lines = ["## Rule keys", "",
             "A hand's `rules` (ofc-hh/1's `rules` object, the live notation's and the CSV's "
             "rules) overrides these keys of its variant's preset; an unknown key or value is "
             "that hand's error.", "",
             "| key | what it sets | in the presets |", "|---|---|---|"]
    for key, about in RULE_KEYS.items():
        values = sorted({_setting(r.settings()[key]) for r in PRESETS.values()})
        lines.append(f"| `{key}` | {about.help} | {', '.join(values)} |")
    return lines + [""]


def _setting(value: object) -> str:
    """A preset's value as a log writes it: ``on``, ``2``, ``none``."""
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _house_rules_markdown() -> list[str]:
    lines = ["## Jokers", "",
             "`jokers` (0, 1 or 2; 0 in every preset but `joker-pineapple`) puts jokers in the "
             "deck, which then has 52 + `jokers` cards. Jokers are written `X1` and `X2`; with "
             "`jokers: 1` only `X1` is in the deck. A joker written twice is a duplicated card. "
             "`joker_rule` says how a joker resolves:", ""]
    lines += [f"- `{rule.value}`: {JOKER_RULE_TEXT[rule]}" for rule in JokerRule]
    lines += ["", "Hand names say which rows hold a joker: `Pair of Twos (joker)`.", "",
              "## 2-7 middle", "",
              f"`{MiddleKind.LOW_27.value}` (preset `2-7-pineapple`): the middle must be a 2-7 "
              "low: five distinct ranks, every card ten or lower, no straight and no flush. The "
              "ace is high, so A-2-3-4-5 is an ace-high hand (a foul). The board fouls if the "
              "middle is no low, or if the top beats the bottom (top and middle, middle and "
              "bottom are not compared). Middles compare by 2-7 low, highest card first, the "
              "lower hand winning. Royalties: the `american-2-7` table. Fantasyland: KK or "
              "better on top, or a 7-5-4-3-2 middle, gives 14 cards; both give 15 (Card Player, "
              "\"Deuce-To-Seven Pineapple Open Face 101\", 2022; fantasylandpoker.nl, "
              "\"2-7 Pineapple\"). Staying in Fantasyland: **an assumption**: the pineapple "
              "stay rule; no rule page we could read in full says how a 2-7 Fantasyland is kept "
              "(cellarwinestore.com's \"Master the Rules of 2-7 Open-Face Chinese Poker\" "
              "mentions trips on top and a 7-5-4-3-2 middle, in a passage we could not read to "
              "its end). Jokers combine with it through `rules` (`{\"jokers\": 2}`).", "",
              "## Repeat Fantasyland", ""]
    lines += ["- `fl_repeat: 14` (default): the table's own rule: progressive deals 14 cards on "
              "a repeat, the other presets deal a stay as they deal an entry.",
              "- `fl_repeat: entry`: a repeat Fantasyland is dealt as many cards as the "
              "Fantasyland hand being played, so the entry's count carries on (15, 16, 17 in "
              "progressive). When the log does not show how many cards that hand was dealt, as "
              "`14`.", "", "## Worked examples", ""]
    for example in WORKED_EXAMPLES:
        lines += _example_markdown(example)
    return lines


def _describe_dealing(r: Ruleset) -> str:
    """``5, then 4 x 3 (place 2)``: the first street, then runs of equal streets."""
    first, *rest = r.dealing.streets
    runs: list[list[Street]] = []
    for street in rest:
        if runs and runs[-1][0] == street:
            runs[-1].append(street)
        else:
            runs.append([street])
    text = [f"{len(run)} x {run[0].dealt}" + (f" (place {run[0].placed})"
            if run[0].placed != run[0].dealt else "") for run in runs]
    return f"{first.dealt}, then " + ", then ".join(text)


def _top_name(s: int) -> str:
    rank = Rank((s >> 16) & 0xF)
    return f"{rank.char * 3}+" if Category(s >> 20) is Category.TRIPS else f"{rank.char * 2}+"


if __name__ == "__main__":
    print(rules_markdown())
