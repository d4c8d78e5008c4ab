"""The array validation agrees with ``ofc_core.hand.validate`` on random valid and broken hands."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ofc_core.board import Board
from ofc_core.cards import DECK, JOKERS
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate
from ofc_core.rules import resolve
from ofc_core.validate_batch import card_table, players_ok, valid_hands

VARIANTS = ("regular", "turbo", "pineapple", "progressive-pineapple", "double")


def random_player(rng: random.Random, name: str, seat: int, deck: list, variant: str,
                  fantasyland: bool, known: bool, streets: bool):
    ruleset = resolve(variant)
    slots = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
    rng.shuffle(slots)
    rows: dict[str, list] = {"top": [], "middle": [], "bottom": []}
    plays = []
    if fantasyland:
        dealt = [deck.pop() for _ in range(rng.randint(13, ruleset.fl_cards.most))]
        for card, slot in zip(dealt, slots, strict=False):
            rows[slot].append(card)
        plays.append(StreetPlay(tuple(rows["top"]), tuple(rows["middle"]),
                                tuple(rows["bottom"]), tuple(dealt) if known else None,
                                tuple(dealt[13:]) if known else None))
    else:
        used = 0
        for st in ruleset.dealing.streets:
            dealt = [deck.pop() for _ in range(st.dealt)]
            part: dict[str, list] = {"top": [], "middle": [], "bottom": []}
            for card in dealt[:st.placed]:
                part[slots[used]].append(card)
                rows[slots[used]].append(card)
                used += 1
            plays.append(StreetPlay(tuple(part["top"]), tuple(part["middle"]),
                                    tuple(part["bottom"]), tuple(dealt) if known else None,
                                    tuple(dealt[st.placed:]) if known else None))
    board = Board(tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]))
    return PlayerRecord(name, seat, board, tuple(plays) if streets else None, fantasyland)


def random_record(rng: random.Random, n: int) -> HandRecord:
    variant = rng.choice(VARIANTS)
    ruleset = resolve(variant)
    count = rng.randint(ruleset.min_players, ruleset.max_players)
    with_jokers = rng.random() < 0.3  # both jokers in the deck, the table plays 0, 1 or 2
    deck = list(DECK) + list(JOKERS) * with_jokers
    rules = {"jokers": rng.choice((0, 1, 2, 2))} if with_jokers else {}
    rng.shuffle(deck)
    names = ["ann", "bob", "cid", "dee"][:count]
    players = tuple(random_player(rng, name, seat, deck, variant, rng.random() < 0.2,
                                  seat == 0 or rng.random() < 0.3, rng.random() < 0.8)
                    for seat, name in enumerate(names))
    return HandRecord("t", str(n), variant, players, button=rng.choice(names), hero=names[0],
                      rules=rules)


def _street_change(rng: random.Random, p: PlayerRecord, deck_card) -> PlayerRecord:
    if not p.streets:
        return p
    streets = list(p.streets)
    k = rng.randrange(len(streets))
    s = streets[k]
    what = rng.randrange(8)
    if what == 0:
        del streets[k]
    elif what == 1:
        streets.append(s)
    elif what == 2 and s.dealt:
        streets[k] = replace(s, dealt=s.dealt[:-1])
    elif what == 3 and s.dealt is not None:
        streets[k] = replace(s, dealt=s.dealt + (deck_card,))
    elif what == 4 and s.placed:
        streets[k] = replace(s, discard=(s.discard or ()) + (s.placed[0],))
    elif what == 5 and s.discard:
        streets[k] = replace(s, discard=s.discard[:-1])
    elif what == 6 and s.dealt:
        streets[k] = replace(s, top=s.top + (s.dealt[-1],))
    else:
        streets[k] = replace(s, dealt=None, discard=None)
    board = Board(tuple(c for t in streets for c in t.top),
                  tuple(c for t in streets for c in t.middle),
                  tuple(c for t in streets for c in t.bottom))
    return replace(p, streets=tuple(streets), board=board)


def corrupt(rng: random.Random, rec: HandRecord) -> HandRecord:
    """One random change that may or may not break the hand."""
    players = list(rec.players)
    i = rng.randrange(len(players))
    p = players[i]
    other = players[(i + 1) % len(players)]
    what = rng.randrange(9)
    spare = next((c for c in DECK if all(c not in q.board.cards for q in players)), DECK[0])
    if what == 0:
        players[i] = replace(p, fantasyland=not p.fantasyland)
    elif what == 1:
        players[i] = replace(p, surrendered=not p.surrendered)
    elif what == 2 and len(players) > 1:
        del players[i]
    elif what == 3:
        players.append(replace(p, name=p.name + "2", seat=9))
    elif what == 4 and other.board.bottom:
        players[i] = replace(p, board=replace(p.board, bottom=p.board.bottom[:-1]
                                              + other.board.bottom[:1]), streets=None)
    elif what == 5:
        return replace(rec, variant=rng.choice(VARIANTS), players=tuple(players))
    elif what == 6:
        players[i] = replace(p, board=replace(p.board, top=p.board.top + (spare,)),
                             streets=None)
    else:
        players[i] = _street_change(rng, p, spare)
    return replace(rec, players=tuple(players))


@pytest.mark.parametrize("seed", range(6))
def test_valid_hands_agrees_with_validate(seed: int) -> None:
    rng = random.Random(seed)
    records = []
    for n in range(400):
        rec = random_record(rng, n)
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            rec = corrupt(rng, rec)
        records.append(rec)
    records = [r for r in records if players_ok([p.name for p in r.players], r.button, r.hero)]
    expected = [validate(r) == [] for r in records]
    got = valid_hands(card_table(records)).tolist()
    wrong = [(r, validate(r)) for r, e, g in zip(records, expected, got, strict=True) if e != g]
    assert not wrong, wrong[:2]
    assert 0.2 < sum(expected) / len(expected) < 0.9  # both kinds are exercised


def test_players_ok_matches_validate_name_rules() -> None:
    board = Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")
    other = Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c")
    for names, button, hero in [(("a", "b"), "a", "b"), (("a", "a"), None, None),
                                (("a", "b"), "c", None), (("a", "b"), None, "z")]:
        rec = HandRecord("t", "1", "regular", (PlayerRecord(names[0], 0, board),
                                               PlayerRecord(names[1], 1, other)),
                         button=button, hero=hero)
        assert players_ok(names, button, hero) == (validate(rec) == [])
