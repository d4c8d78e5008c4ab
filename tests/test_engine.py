"""The play engine and the policies: legal, complete hands of every variant, Fantasyland and the
button by the ruleset, Double matches with the cube, and the room's view of a hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ofc_core.board import ROWS, Board
from ofc_core.cards import Card
from ofc_core.hand import HandRecord, validate
from ofc_core.play.engine import CubeView, IllegalMove, Placement, Table, View
from ofc_core.play.fl_solver import set_fantasyland
from ofc_core.play.policies import POLICIES, policy
from ofc_core.play.sessions import SessionSpec, hero_view, play_session
from ofc_core.rules import PRESETS, ButtonInFl, resolve
from ofc_core.scoring import score_hand

VARIANTS = {"regular": 4, "turbo": 3, "pineapple": 3, "progressive-pineapple": 3, "double": 2}


def _session(variant: str, players: int, hands: int, seed: int, kinds=("chaser",),
             ruleset=None) -> list[HandRecord]:
    ruleset = ruleset or PRESETS[variant]
    names = tuple(f"p{i}" for i in range(players))
    table = Table(ruleset, names, tuple(policy(kinds[i % len(kinds)]) for i in range(players)))
    return play_session(table, SessionSpec(f"t-{variant}", hands=hands), random.Random(seed))


@pytest.fixture(scope="module")
def sessions() -> dict[str, list[HandRecord]]:
    """One chaser-heavy session per variant: chasers reach Fantasyland often."""
    return {v: _session(v, n, 200, seed=11, kinds=("chaser", "careful", "chaser", "random"))
            for v, n in VARIANTS.items()}


def _every_card(record: HandRecord) -> list:
    cards = []
    for p in record.players:
        for s in p.streets:
            cards += list(s.dealt)
    return cards


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_hand_is_valid_and_uses_each_card_once(sessions, variant):
    hands = sessions[variant]
    assert len(hands) >= 200
    for h in hands:
        assert validate(h) == [], h.hand_id
        dealt = _every_card(h)
        assert len(dealt) == len(set(dealt)), h.hand_id
        for p in h.players:
            placed = [c for s in p.streets for c in s.placed]
            discarded = [c for s in p.streets for c in (s.discard or ())]
            assert sorted(placed + discarded) == sorted(c for s in p.streets for c in s.dealt)
            assert sorted(placed) == sorted(p.board.cards)


@pytest.mark.parametrize("variant", VARIANTS)
def test_street_sizes_follow_the_ruleset(sessions, variant):
    plan = PRESETS[variant].dealing.streets
    normal = 0
    for h in sessions[variant]:
        for p in h.players:
            if p.fantasyland:
                continue
            normal += 1
            assert [len(s.dealt) for s in p.streets] == [st.dealt for st in plan]
            assert [len(s.placed) for s in p.streets] == [st.placed for st in plan]
            assert [len(s.discard or ()) for s in p.streets] == [st.discarded for st in plan]
    assert normal > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_fantasyland_exactly_when_the_previous_hand_earned_it(sessions, variant):
    hands = sessions[variant]
    ruleset = PRESETS[variant]
    earned = {p.name: 0 for p in hands[0].players}
    fl_hands = 0
    for h in hands:
        for p in h.players:
            assert p.fantasyland == (earned[p.name] > 0), (h.hand_id, p.name)
            if p.fantasyland:
                fl_hands += 1
                assert len(p.streets) == 1
                assert len(p.streets[0].dealt) == earned[p.name]
                assert len(p.streets[0].discard or ()) == earned[p.name] - 13
        result = score_hand(h.seats(), ruleset, h.first_to_act)
        earned = {r.name: r.fantasyland_next for r in result.players}
    assert fl_hands > 0, "the session should contain Fantasyland hands"


def test_several_players_in_fantasyland_and_progressive_counts():
    hands = _session("progressive-pineapple", 3, 400, seed=5, kinds=("chaser",))
    counts = Counter(len(p.streets[0].dealt) for h in hands for p in h.players if p.fantasyland)
    together = sum(1 for h in hands if sum(p.fantasyland for p in h.players) >= 2)
    assert together > 0
    assert set(counts) <= {14, 15, 16, 17} and len(counts) >= 2


@pytest.mark.parametrize("button_rule", list(ButtonInFl))
def test_button_moves_by_the_ruleset(button_rule):
    ruleset = resolve("pineapple", {"button_in_fl": button_rule.value})
    hands = _session("pineapple", 3, 150, seed=11, kinds=("chaser",), ruleset=ruleset)
    names = [p.name for p in hands[0].players]
    frozen_seen = 0
    for before, after in zip(hands, hands[1:], strict=False):
        anyone_fl = any(p.fantasyland for p in before.players)
        moved = names[(names.index(before.button) + 1) % 3]
        if anyone_fl and button_rule is ButtonInFl.FROZEN:
            frozen_seen += 1
            assert after.button == before.button
        else:
            assert after.button == moved
    if button_rule is ButtonInFl.FROZEN:
        assert frozen_seen > 0
    assert after.rules == {"button_in_fl": button_rule.value}


def test_acting_order_starts_left_of_the_button_and_fantasyland_sets_first():
    calls: list[tuple[str, int, bool]] = []

    class Recorder:
        def __init__(self, name):
            self.name, self.inner = name, policy("chaser")

        def place(self, view, rng):
            calls.append((self.name, view.street, view.fantasyland))
            return self.inner.place(view, rng)

    names = ("a", "b", "c")
    table = Table(PRESETS["pineapple"], names, tuple(Recorder(n) for n in names))
    hands = play_session(table, SessionSpec("o", hands=60), random.Random(11))
    for h in hands:
        fl = [p.name for p in h.players if p.fantasyland]
        start = names.index(h.button) + 1
        order = [names[(start + k) % 3] for k in range(3)]
        expected = [(n, 0, True) for n in order if n in fl]
        for street in range(5):
            expected += [(n, street, False) for n in order if n not in fl]
        assert calls[:len(expected)] == expected, h.hand_id
        del calls[:len(expected)]
    assert any(p.fantasyland for h in hands for p in h.players)


# --- Double ---------------------------------------------------------------------------------


def _matches(hands: list[HandRecord]) -> dict[str, list[HandRecord]]:
    out: dict[str, list[HandRecord]] = {}
    for h in hands:
        assert h.match_id is not None
        out.setdefault(h.match_id, []).append(h)
    return out


def test_double_matches_end_at_the_target_with_the_cube_applied():
    hands = _session("double", 2, 300, seed=4, kinds=("careful", "chaser"))
    ruleset = PRESETS["double"]
    reasons = Counter()
    for match_id, match in _matches(hands).items():
        banked = Counter()
        cube, last_offer = 1, None
        for i, h in enumerate(match):
            for p in score_hand(h.seats(), ruleset, h.first_to_act).players:
                banked[p.name] += p.points
            ends = [e for e in h.events if e.type == "match_end"]
            assert bool(ends) == (i == len(match) - 1), match_id
            for e in h.events:
                if e.type == "double":
                    assert e.by != last_offer, "offers alternate"
                    if e.accepted:
                        cube, last_offer = cube * 2, e.by
                        assert e.data["cube"] == cube
        end = ends[0]
        reasons[end.data["reason"]] += 1
        assert end.data["cube"] == cube
        assert dict(end.data["score"]) == dict(banked)
        winner, loser = end.by, next(n for n in banked if n != end.by)
        if end.data["reason"] == "target":
            assert banked[winner] >= ruleset.match_target > banked[loser] or \
                banked[winner] > banked[loser] >= ruleset.match_target
        else:
            declined = [e for e in match[-1].events if e.type == "double"]
            assert declined[-1].accepted is False and declined[-1].by == winner
            assert max(banked.values()) < ruleset.match_target
    assert reasons["target"] > 0 and reasons["declined"] > 0
    assert any(e.type == "double" and e.accepted for h in hands for e in h.events)


def test_a_player_short_of_chips_cannot_double_or_accept():
    names = ("ann", "bob")
    table = Table(PRESETS["double"], names, (policy("chaser"), policy("chaser")))
    hands = play_session(table, SessionSpec("c", hands=300, bankroll=2), random.Random(3))
    chips = {n: 2 for n in names}
    offers = 0
    for match in _matches(hands).values():
        cube = 1
        for e in (e for h in match for e in h.events):
            if e.type == "double":
                offers += 1
                other = next(n for n in names if n != e.by)
                assert chips[e.by] >= 2 * cube
                if e.accepted:
                    assert chips[other] >= 2 * cube
                    cube *= 2
            if e.type == "match_end":
                chips[e.by] += cube
                chips[next(n for n in names if n != e.by)] -= cube
    assert offers > 0
    assert min(chips.values()) < 2 or max(chips.values()) > 4
    poor = play_session(table, SessionSpec("c", hands=100, bankroll=1), random.Random(3))
    first = _matches(poor)[poor[0].match_id]
    assert not any(e.type == "double" for h in first for e in h.events)


# --- Policies -------------------------------------------------------------------------------


def _foul_rate(hands: list[HandRecord], name: str) -> float:
    boards = [p.board for h in hands for p in h.players if p.name == name and not p.fantasyland]
    return sum(b.is_foul for b in boards) / len(boards)


def test_careful_fouls_rarely_and_less_than_the_others():
    hands = _session("pineapple", 3, 300, seed=9, kinds=("careful", "chaser", "random"))
    careful, chaser, rand = (_foul_rate(hands, n) for n in ("p0", "p1", "p2"))
    assert careful < 0.2
    assert careful < chaser < rand


def test_chaser_reaches_fantasyland_more_than_careful():
    hands = _session("pineapple", 2, 300, seed=9, kinds=("careful", "chaser"))
    fl = Counter(p.name for h in hands for p in h.players if p.fantasyland)
    assert fl["p1"] > fl["p0"]


def _view(dealt, board=((), (), ()), place=2, street=1):
    return View(PRESETS["pineapple"], street, 4, tuple(dealt), place, board, ())


@pytest.mark.parametrize("name", list(POLICIES))
def test_policies_never_overfill_a_row(name):
    rng = random.Random(1)
    board = ((0, 1, 2), (4, 5, 6, 8, 9), (12, 13))
    for _ in range(50):
        dealt = rng.sample(range(16, 52), 3)
        p = policy(name).place(_view(dealt, board), rng)
        assert p.top == () and p.middle == () and len(p.bottom) == 2 and len(p.discard) == 1


def test_an_illegal_placement_is_refused():
    class Cheat:
        name = "cheat"

        def place(self, view, rng):
            return Placement(top=view.dealt[:view.place], discard=view.dealt[view.place:])

    table = Table(PRESETS["pineapple"], ("a", "b"), (Cheat(), Cheat()))
    with pytest.raises(IllegalMove, match="takes no more"):
        play_session(table, SessionSpec("x", hands=1), random.Random(0))


def _careful_then(cheat):
    """A policy that plays as the careful bot but, from the second street on, changes the move
    with ``cheat(view, placement)``."""
    careful = policy("careful")

    class Cheat:
        name = "cheat"

        def place(self, view, rng):
            move = careful.place(view, rng)
            return cheat(view, move) if view.street else move
    return Cheat()


@pytest.mark.parametrize("cheat, message", [
    (lambda v, p: p._replace(discard=()), "discarded 0, must place 2"),
    (lambda v, p: p._replace(bottom=p.bottom + p.discard, discard=()), "placed 3 cards"),
    (lambda v, p: p._replace(discard=(v.board[0] + v.board[1] + v.board[2])[:1]),
     "not dealt"),  # a card it holds
    (lambda v, p: p._replace(discard=(p.top + p.middle + p.bottom)[:1]), "not dealt"),  # twice
    (lambda v, p: Placement(top=p.top + p.middle + p.bottom, discard=p.discard),
     "takes no more"),  # two cards a street on top: full by the third street
])
def test_every_kind_of_illegal_street_is_refused(cheat, message):
    """The engine's check refuses a wrong count, a card not dealt or used twice, and a full
    row, with check_placement's message."""
    table = Table(PRESETS["pineapple"], ("a", "b"), (_careful_then(cheat), policy("careful")))
    with pytest.raises(IllegalMove, match=message):
        play_session(table, SessionSpec("x", hands=20), random.Random(0))


def test_fantasyland_setter_never_fouls():
    rng = random.Random(8)
    for n in (13, 14, 15, 16, 17):
        for _ in range(20):
            cards = tuple(rng.sample(range(52), n))
            p = set_fantasyland(cards, PRESETS["progressive-pineapple"])
            assert [len(r) for r in p.rows] == [3, 5, 5]
            assert sorted(p.top + p.middle + p.bottom + p.discard) == sorted(cards)
            board = Board(*(tuple(Card.from_index(c) for c in row) for row in p.rows))
            assert not board.is_foul, board.compact()


def test_cube_decisions_follow_the_score():
    careful = policy("careful")
    rng = random.Random(0)
    assert careful.offers_double(CubeView(25, 5, 31, 1), rng)
    assert not careful.offers_double(CubeView(5, 25, 31, 1), rng)
    assert careful.accepts_double(CubeView(10, 12, 31, 1), rng)
    assert not careful.accepts_double(CubeView(0, 28, 31, 1), rng)


def test_session_table_errors():
    with pytest.raises(ValueError, match="2-3 players"):
        Table(PRESETS["pineapple"], ("a", "b", "c", "d"), tuple(policy("random") for _ in "abcd"))
    with pytest.raises(ValueError, match="unknown policy"):
        policy("bold")


# --- The room's view ------------------------------------------------------------------------


def test_hero_view_hides_opponents_dealt_cards_and_discards(sessions):
    hands = sessions["pineapple"]
    fl_opponent = 0
    for h in hands:
        seen = hero_view(h, "p1")
        assert seen.hero == "p1" and validate(seen) == []
        for full, p in zip(h.players, seen.players, strict=True):
            if p.name == "p1":
                assert p == full
                continue
            assert all(s.dealt is None and s.discard is None for s in p.streets)
            assert p.board == full.board
            if p.fantasyland:
                fl_opponent += 1
                assert len(p.streets) == 1
                assert [len(p.streets[0].placed)] == [13]
            else:
                assert [s.placed for s in p.streets] == [s.placed for s in full.streets]
    assert fl_opponent > 0


def test_same_seed_same_hands():
    a = _session("turbo", 3, 20, seed=3, kinds=("careful", "random"))
    b = _session("turbo", 3, 20, seed=3, kinds=("careful", "random"))
    c = _session("turbo", 3, 20, seed=4, kinds=("careful", "random"))
    assert a == b and a != c


def test_played_at_advances_with_an_offset(sessions):
    from datetime import datetime

    times = [datetime.fromisoformat(h.played_at) for h in sessions["regular"]]
    assert all(t.tzinfo is not None for t in times)
    gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 30 and max(gaps) <= 90


def test_rows_are_complete(sessions):
    for h in sessions["turbo"]:
        for p in h.players:
            assert [len(p.board.row(r)) for r in ROWS] == [3, 5, 5]


def test_row_strength_equals_the_evaluator():
    from ofc_core.evaluate import evaluate
    from ofc_core.play.engine import row_strength

    rng = random.Random(12)
    rows = [tuple(rng.sample(range(52), rng.choice((3, 5)))) for _ in range(3000)]
    rows += [tuple(r * 4 + suit for r in rng.sample(range(13), 5))  # flushes
             for suit in range(4) for _ in range(200)]
    for row in rows:
        assert row_strength(row) == evaluate([Card.from_index(c) for c in row]), row


def test_a_policy_remembering_its_rows_plays_the_same_moves():
    """HeuristicPolicy reuses the row state of its last move; fresh policies for every
    decision (no memory) must play exactly the same hands."""

    class Fresh:
        def __init__(self, kind):
            self.name = kind

        def place(self, view, rng):
            return policy(self.name).place(view, rng)

        def offers_double(self, cube, rng):
            return False

        def accepts_double(self, cube, rng):
            return True

    kinds = ("careful", "chaser", "careful")
    names = ("a", "b", "c")
    kept = Table(PRESETS["pineapple"], names, tuple(policy(k) for k in kinds))
    fresh = Table(PRESETS["pineapple"], names, tuple(Fresh(k) for k in kinds))
    a = play_session(kept, SessionSpec("m", hands=60), random.Random(21))
    b = play_session(fresh, SessionSpec("m", hands=60), random.Random(21))
    assert a == b


def test_careful_takes_fantasyland_and_the_chaser_covers_its_top():
    hands = _session("pineapple", 3, 300, seed=13, kinds=("careful", "chaser", "chaser"))
    ruleset = PRESETS["pineapple"]
    entered = Counter()
    normal = Counter()
    for h in hands:
        for r, p in zip(score_hand(h.seats(), ruleset, h.first_to_act).players, h.players,
                        strict=True):
            if not p.fantasyland:
                normal[p.name] += 1
                entered[p.name] += r.fantasyland_next > 0
    assert entered["p0"] > 0
    assert entered["p1"] + entered["p2"] > 0.04 * (normal["p1"] + normal["p2"])


def test_positional_constructors_equal_the_dataclass_constructors():
    from dataclasses import FrozenInstanceError, fields

    from ofc_core.cards import parse_cards
    from ofc_core.hand import PlayerRecord, StreetPlay
    from ofc_core.records import positional

    street = StreetPlay(parse_cards("Qh Qd"), (), parse_cards("2c"), parse_cards("Qh Qd 2c"),
                        None)
    board = Board.parse("Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")
    player = PlayerRecord("ann", 0, board, (street,), True, False, 4.5)
    hand = HandRecord("src", "h1", "pineapple", (player,), {"scoring": "2-4"}, "ann", "s1",
                      None, "2026-01-05T20:00:00+01:00", 1.0, "EUR", "ann", ())
    for value in (street, board, player, hand):
        cls = type(value)
        made = positional(cls)(*(getattr(value, f.name) for f in fields(cls)))
        assert type(made) is cls
        assert made == value
        assert repr(made) == repr(value)
        with pytest.raises(FrozenInstanceError):
            setattr(made, fields(cls)[0].name, None)
    assert hash(positional(StreetPlay)(*(getattr(street, f.name) for f in fields(StreetPlay)))
                ) == hash(street)


def test_positional_refuses_a_class_it_cannot_build_safely():
    from ofc_core.records import positional

    with pytest.raises(TypeError, match="slots"):
        positional(Table)  # frozen, but no slots and a __post_init__ check


@pytest.mark.parametrize("variant, rules", [
    ("joker-pineapple", {}), ("2-7-pineapple", {"jokers": 2}), ("regular", {"jokers": 1})])
def test_joker_and_27_tables_play_valid_hands_scored_by_the_scorer(variant, rules) -> None:
    ruleset = resolve(variant, rules)
    players = 3 if ruleset.max_players >= 3 else 2
    hands = _session(variant, players, 60, seed=5, kinds=("careful", "chaser", "random"),
                     ruleset=ruleset)
    placed = Counter()
    for h in hands:
        assert validate(h) == [], h.hand_id
        cards = [c for p in h.players for s in p.streets for c in s.dealt]
        assert len(cards) == len(set(cards))  # each card, jokers included, dealt once
        placed.update(str(c) for p in h.players for c in p.board.cards if c.is_joker)
        result = score_hand(h.seats(), h.ruleset, h.first_to_act)
        assert [p.reported_points for p in h.players] == [p.points for p in result.players]
    expected = {"X1", "X2"} if ruleset.jokers == 2 else {"X1"}
    assert set(placed) == expected  # the bots place the jokers they are dealt


def test_fl_repeat_entry_deals_a_repeat_the_entrys_cards() -> None:
    ruleset = resolve("progressive-pineapple", {"fl_repeat": "entry"})
    hands = _session("progressive-pineapple", 3, 400, seed=11, kinds=("chaser", "careful"),
                     ruleset=ruleset)
    repeats = []
    for before, after in zip(hands, hands[1:], strict=False):
        for p, q in zip(before.players, after.players, strict=True):
            if p.fantasyland and q.fantasyland:
                repeats.append((p.fl_dealt, q.fl_dealt))
    assert repeats and all(a == b for a, b in repeats)
    assert any(a > 14 for a, _ in repeats)  # a 15-17 card Fantasyland kept its count
