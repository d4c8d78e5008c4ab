"""Human-readable descriptions of the rule data, for docs and the dashboard's labels.

Everything here is derived from the ruleset values in :mod:`ofc_core.rules`, so the docs and the
scorer cannot disagree. ``docs/rules.md`` is :func:`rules_markdown` verbatim (a test checks).

>>> describe_royalty_class("full_house")
'Full house'
"""

from __future__ import annotations

from ofc_core.cards import Rank
from ofc_core.evaluate import Category, hand_name
from ofc_core.rules import (
    PRESETS,
    ROYALTY_TABLES,
    FlStay,
    RoyaltyTable,
    Ruleset,
    ScoringSystem,
    StayRule,
    Street,
)


def describe_royalty_class(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _strength_name(s: int) -> str:
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
        items = ", ".join(f"{describe_royalty_class(k.value)} {v}" for k, v in mapping.items())
        lines.append(f"| {row} | {items} |")
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
        "The catalogue of rules the project must support is `../shared/RULES.md`.",
        "",
        "## Presets",
        "",
        "| variant | players | deal | scoring | royalties | FL cards | FL stay | button in FL |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in PRESETS.items():
        deal = _describe_dealing(r)
        players = r.player_range
        fl = ", ".join(f"{_top_name(m)}: {n}" for m, n in r.fl_cards.entry)
        if r.fl_cards.repeat:
            fl += f"; repeat {r.fl_cards.repeat}"
        lines.append(f"| `{name}` | {players} | {deal} | {r.scoring} | "
                     f"{r.royalties.name} | {fl} | {r.fl_stay} | {r.button_in_fl} |")
    lines += ["", "`double` is a race to "
              f"{PRESETS['double'].match_target} points with a doubling cube.", "",
              "## Scoring systems", ""]
    lines += [f"- `{s.value}`: {describe_scoring(s)}." for s in ScoringSystem]
    lines += ["", "Fouls: a fouled player loses every row against a player who did not foul, "
              "earns no royalties and never enters or stays in Fantasyland; two fouled players "
              "exchange nothing. `foul_payout` `scoop-plus-royalties` (default) also pays the "
              "opponent's royalties, `scoop` pays the scoop value alone. A surrendering player "
              "pays `surrender_cost` (default 2) to each rival and nothing else. With `cap`, no "
              "player wins or loses more than the cap in a hand; pairs settle in order from the "
              "left of the button.", "", "## Fantasyland stay rules", ""]
    lines += [f"- `{s.value}`: {describe_stay_rule(s.rule)}." for s in FlStay]
    lines += ["", "## Royalty tables", ""]
    for table in ROYALTY_TABLES.values():
        lines += _royalty_table_markdown(table)
    return "\n".join(lines)


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
