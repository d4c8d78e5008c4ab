"""``ofc fl CARDS --variant V [--rules JSON] [--stay-value X] [--json]``: the best Fantasyland set.

Sets 13 of the 13-17 dealt cards with the exact solver (:mod:`ofc_core.play.fl_solver`): the
most royalties plus the value of staying in Fantasyland, without a foul. Prints the rows, the
discards, the royalties, whether the set stays and its value. ``--json`` prints one object
``{"cards", "top", "middle", "bottom", "discard", "royalties", "row_royalties", "stays",
"stay_value", "value", "fouled", "exact", "jokers"}`` (rows as lists of cards, highest first;
``jokers`` maps each joker set to the card it stood for). With ``-`` as CARDS, one deal is read
per line of standard input and one line is printed per deal (the compact set, or the JSON
object).

At a joker table (``--variant joker-pineapple``, or ``--rules '{"jokers": 1}'``) the cards may
hold the jokers ``X1`` and ``X2``: each is resolved by the table's rule and the set is still the
exact best (:mod:`ofc_core.play.fl_jokers`); the rows show what each joker stood for.

Bad input (a card that does not parse, a card twice, a joker at a table without jokers, not
13-17 cards, an unknown variant or rule) is one line on standard error naming the deal, and
exit status 2; with ``-`` the other deals are still solved.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ofc_core.cards import card_of_index, parse_cards
from ofc_core.evaluate import hand_name
from ofc_core.play.fl_solver import FantasylandSet, solve_fantasyland
from ofc_core.rules import PRESETS, Ruleset, resolve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", metavar="CARDS",
                        help='the dealt cards ("As Ad Ac Kh ..."), or - to read one deal per '
                             "line from standard input")
    parser.add_argument("--variant", required=True, choices=list(PRESETS),
                        help="the ruleset preset")
    parser.add_argument("--rules", default=None, metavar="JSON",
                        help='overrides of the preset as a JSON object, the ofc-hh/1 rules '
                             'object (e.g. \'{"fl_stay": "royalty-10"}\')')
    parser.add_argument("--stay-value", type=float, default=None, metavar="POINTS",
                        help="what staying in Fantasyland is worth (default: the measured "
                             "value of the next Fantasyland hand, ofc_core/play/fl_value.py)")
    parser.add_argument("--json", action="store_true", help="print JSON objects")


class _Bad(ValueError):
    """Input that cannot be solved, explained in words."""


def _ruleset(args: argparse.Namespace) -> Ruleset:
    overrides: Any = None
    if args.rules is not None:
        try:
            overrides = json.loads(args.rules)
        except json.JSONDecodeError as exc:
            raise _Bad(f"--rules is not JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(overrides, dict):
            raise _Bad("--rules must be a JSON object, e.g. '{\"fl_stay\": \"classic\"}'")
    try:
        return resolve(args.variant, overrides)
    except ValueError as exc:
        raise _Bad(f"--rules: {exc}") from None


def _solve(text: str, ruleset: Ruleset, stay_value: float | None) -> FantasylandSet:
    try:
        return solve_fantasyland(parse_cards(text), ruleset, stay_value)
    except ValueError as exc:
        raise _Bad(str(exc)) from None


def _cards(indexes: tuple[int, ...]) -> list[str]:
    return [str(card_of_index(c)) for c in sorted(indexes, reverse=True)]


def as_json(text: str, best: FantasylandSet) -> dict[str, Any]:
    """The JSON object of one solved deal."""
    return {"cards": text.strip(), "top": _cards(best.top), "middle": _cards(best.middle),
            "bottom": _cards(best.bottom), "discard": _cards(best.discard),
            "royalties": best.royalty_total, "row_royalties": list(best.royalties),
            "stays": best.stays, "stay_value": best.stay_value, "value": best.value,
            "fouled": best.fouled, "exact": best.exact,
            "jokers": {str(card_of_index(j)): str(card_of_index(c)) for j, c in best.stood_for}}


def _line(best: FantasylandSet) -> str:
    discard = "".join(_cards(best.discard))
    return (f"{best.compact()}/{discard} royalties {best.royalty_total} "
            f"stays {'yes' if best.stays else 'no'} value {best.value:g}")


def _table(best: FantasylandSet) -> str:
    lines = []
    rows = (("top", best.top), ("middle", best.middle), ("bottom", best.bottom))
    for (name, row), strength, royalty in zip(rows, best.strengths, best.royalties,
                                              strict=True):
        lines.append(f"{name:8} {' '.join(_cards(row)):15} {hand_name(strength):34} {royalty:3}")
    lines.append(f"{'discard':8} {' '.join(_cards(best.discard)) or '-'}")
    for joker, card in best.stood_for:
        lines.append(f"{card_of_index(joker)} stood for {card_of_index(card)}")
    stays = f"yes (worth {best.stay_value:g})" if best.stays else "no"
    lines.append(f"royalties {best.royalty_total}, stays in Fantasyland: {stays}, "
                 f"value {best.value:g}")
    if best.fouled:
        lines.append("every arrangement of these cards fouls")
    if not best.exact:
        lines.append("not proven the best: two jokers want the same card (docs/fantasyland.md)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = _ruleset(args)
    except _Bad as exc:
        print(f"ofc fl: {exc}", file=sys.stderr)
        return 2
    if args.cards != "-":
        try:
            best = _solve(args.cards, ruleset, args.stay_value)
        except _Bad as exc:
            print(f"ofc fl: {args.cards!r}: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(as_json(args.cards, best)) if args.json else _table(best))
        return 0
    status = 0
    for number, text in enumerate(sys.stdin, start=1):
        if not text.strip():
            continue
        try:
            best = _solve(text, ruleset, args.stay_value)
        except _Bad as exc:
            print(f"ofc fl: line {number} ({text.strip()!r}): {exc}", file=sys.stderr)
            status = 2
            continue
        print(json.dumps(as_json(text, best)) if args.json else _line(best), flush=True)
    return status
