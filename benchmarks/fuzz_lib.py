"""The import fuzzer's engine: valid ofc-hh/1 hands of every preset, written in every way the
docs allow and broken in every way they forbid, the files they make, and the check of what an
import (and ``ofc score``) did with them. Used by ``tests/test_fuzz_import.py`` (seeded, small)
and ``benchmarks/fuzz_import.py`` (100,000 hands and more).

What is checked (:func:`run`): nothing raises and no file fails as a whole (the importer's
"this is a bug" error); every broken hand is reported at its line (a file that is not UTF-8 as
a whole, naming the line); every valid hand is stored, with the result ``ofc score`` gives for
its canonical spelling and the canonical cards; ``ofc score`` on the respelled files agrees
line by line; importing the files again stores nothing and reports the same lines; ``ofc
rescore`` changes nothing.

Allowed (the hand keeps its meaning): every card spelling (``Ah ah AH 10h th A♥ A♡``), any
whitespace between cards (non-breaking and other Unicode spaces), compact boards
(``QhQd2c-KsKd9s5h3c-JhJdJc4s4d``, spaced or not), key order, JSON whitespace, ``\\u`` escapes,
``null`` for absent fields, explicit ``false`` flags, a numeric ``hand_id``, ``format`` left
out; a byte order mark, CRLF or CR line ends, UTF-16 or UTF-32 with a BOM, blank lines, names
with quotes, HTML, emoji, line separators, long names.

Forbidden (the hand is refused at its line): a bad token in any card slot (always including the
first card of the first player of the first hand of each file and of each chunk), a card twice,
wrong row sizes, wrong JSON types, broken JSON, unknown keys, missing fields, bad rules and
variants, numbers out of range, nesting too deep, lone surrogates, streets against the dealing,
duplicate names, very long lines; and whole files with non-UTF-8 bytes or NUL.
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ingest import api, record_path, store  # noqa: E402
from ingest.formats.ofc_hh import loads_line, record_from_dict  # noqa: E402
from ingest.stored_hands import stored_results  # noqa: E402
from ofc_cli.cmd_score import result_to_json, score_file  # noqa: E402
from ofc_core.cards import DECK  # noqa: E402
from ofc_core.rules import PRESETS, resolve  # noqa: E402

CARDS = [str(c) for c in DECK]
RANK_SPELLINGS = {r: (r, r.lower()) if r.isalpha() else (r,) for r in "23456789TJQKA"}
RANK_SPELLINGS["T"] = ("T", "t", "10")
SUIT_SPELLINGS = {"c": ("c", "C", "♣", "♧"), "d": ("d", "D", "♦", "♢"),
                  "h": ("h", "H", "♥", "♡"), "s": ("s", "S", "♠", "♤")}
COMPACT_SUITS = {s: spellings[:3] for s, spellings in SUIT_SPELLINGS.items()}
"""The compact notation reads suit letters and the filled symbols only."""
SEPARATORS = (" ", "  ", "\t", "\u00a0", "\u2003", " \u3000 ")
NAMES = ("hero", "villain", "Дмитрий", "<b>amy</b>", "o'neil \"ace\"", "名人", "x\u00a0y",
         "🃏 joe", "line\u2028sep", "a; DROP TABLE hands;--")
RULES: tuple[dict[str, Any], ...] = (
    {"scoring": "2-4"}, {"scoring": "majority"}, {"cap": 12}, {"cap": None},
    {"fantasyland": "off"}, {"royalties": "american-no-middle-trips"},
    {"royalties": "old-schedule"}, {"foul_payout": "scoop"}, {"fl_stay": "royalty-10"},
    {"button_in_fl": "rotates"}, {"surrender_cost": 3}, {"scoring": "race"},
)
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}
BAD_TOKENS = ("Zz", "1h", "11h", "Ahh", "A", "♠A", "T", "0h", "Xx", "AA", "hA", "A♣♣", "1O♠")
CHUNK = record_path.CHUNK_HANDS


# --------------------------------------------------------------------------------------------
# Valid hands


def _rows_for(rng: random.Random, cards: list[str]) -> dict[str, str]:
    """A row for each of 13 cards: at random (fouls are common), strongest at the bottom, or a
    high pair kept for the top (Fantasyland entries)."""
    how = rng.random()
    slots = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
    if how < 0.5:
        rng.shuffle(slots)
        return dict(zip(cards, slots, strict=True))
    order = sorted(cards, key=lambda c: -"23456789TJQKA".index(c[0]))
    if how < 0.8:
        return dict(zip(order, ["bottom"] * 5 + ["middle"] * 5 + ["top"] * 3, strict=True))
    pair = next((c for c, d in zip(order, order[1:], strict=False) if c[0] == d[0] and
                 c[0] in "QKA"), None)
    if pair is None:
        return dict(zip(order, ["bottom"] * 5 + ["middle"] * 5 + ["top"] * 3, strict=True))
    top = [c for c in order if c[0] == pair[0]][:2] + [order[-1]]
    rest = [c for c in order if c not in top]
    return {**dict.fromkeys(top, "top"), **dict(zip(rest, ["bottom"] * 5 + ["middle"] * 5,
                                                   strict=True))}


def _player(rng: random.Random, ruleset: Any, deck: list[str], name: str, seat: int,
            first: bool) -> dict[str, Any]:
    """One player's hand; the first of a hand knows its dealt cards and never surrenders (so
    every hand has cards to break)."""
    known = first or rng.random() < 0.3
    fl = ruleset.fantasyland and rng.random() < 0.12
    surrender = not fl and not first and rng.random() < 0.04
    plays = []  # (dealt, kept)
    if fl:
        dealt = [deck.pop() for _ in range(rng.randint(13, ruleset.fl_cards.most))]
        plays.append((dealt, rng.sample(dealt, 13)))
    else:
        for st in ruleset.dealing.streets:
            dealt = [deck.pop() for _ in range(st.dealt)]
            plays.append((dealt, rng.sample(dealt, st.placed)))
    if surrender:
        plays = plays[:rng.randrange(len(plays))]
    kept = [c for _, k in plays for c in k]
    if len(kept) == 13:
        row_of = _rows_for(rng, kept)
    else:
        slots = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
        rng.shuffle(slots)
        row_of = dict(zip(kept, slots, strict=False))
    out: dict[str, Any] = {"name": name, "seat": seat}
    if fl:
        out["fantasyland"] = True
    if surrender:
        out["surrendered"] = True
    if rng.random() < 0.2:
        out["reported_points"] = rng.choice([rng.randint(-40, 40), rng.randint(-80, 80) / 2])
    if rng.random() < 0.6 or fl and known:
        streets = []
        for dealt, keep in plays:
            st: dict[str, str] = {}
            if known:
                st["dealt"] = " ".join(dealt)
            for row in ROW_SIZES:
                placed = [c for c in keep if row_of[c] == row]
                if placed:
                    st[row] = " ".join(placed)
            if known:
                st["discard"] = " ".join(c for c in dealt if c not in keep)
            streets.append(st)
        if streets:
            out["streets"] = streets
    elif kept or not surrender or rng.random() < 0.5:
        out["board"] = {row: " ".join(c for c in kept if row_of[c] == row) for row in ROW_SIZES}
    return out


def valid_hand(rng: random.Random, source: str, hand_id: str) -> dict[str, Any]:
    """A valid hand of a random preset, as the writer would write it (canonical spelling)."""
    variant = rng.choice(sorted(PRESETS))
    rules = dict(rng.choice(RULES)) if rng.random() < 0.2 else {}
    ruleset = resolve(variant, rules)
    count = rng.randint(ruleset.min_players, ruleset.max_players)
    names = rng.sample(NAMES, count)
    if rng.random() < 0.02:
        names[0] = "n" * rng.randint(5_000, 50_000)  # a very long, valid line
    seats = sorted(rng.sample(range(9), count))
    deck = CARDS[:]
    rng.shuffle(deck)
    hand: dict[str, Any] = {"format": "ofc-hh/1", "source": source, "hand_id": hand_id}
    if rng.random() < 0.7:
        hand["session_id"] = f"s{rng.randrange(50)}"
    if rng.random() < 0.7:
        hour = rng.randint(-12, 14)
        hand["played_at"] = (f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                             f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:00"
                             + ("Z" if hour == 0 else f"{hour:+03d}:00"))
    if rng.random() < 0.3:
        hand["stake"], hand["currency"] = rng.choice([0.5, 1, 2.25]), "EUR"
    if rng.random() < 0.6:
        hand["hero"] = names[0]
    hand["variant"] = variant
    if rules:
        hand["rules"] = rules
    if rng.random() < 0.7:
        hand["button"] = rng.choice(names)
    hand["players"] = [_player(rng, ruleset, deck, name, seat, n == 0)
                       for n, (name, seat) in enumerate(zip(names, seats, strict=True))]
    if variant == "double" and rng.random() < 0.3:
        hand["events"] = [{"type": "double", "by": names[0], "accepted": True, "cube": 2}]
    return hand


def dumps(hand: dict[str, Any]) -> str:
    """The writer's layout: one line, ``", "`` and ``": "``, non-ASCII kept."""
    return json.dumps(hand, ensure_ascii=False, separators=(", ", ": "))


# --------------------------------------------------------------------------------------------
# Allowed respellings


def spell(rng: random.Random, card: str, compact: bool = False) -> str:
    suits = COMPACT_SUITS if compact else SUIT_SPELLINGS
    return rng.choice(RANK_SPELLINGS[card[0]]) + rng.choice(suits[card[1]])


def _respell_cards(rng: random.Random, text: str, rate: float) -> str:
    cards = [spell(rng, c) if rng.random() < rate else c for c in text.split()]
    if rng.random() < 0.3:
        seps = [rng.choice(SEPARATORS) for _ in cards[1:]]
        out = cards[0] + "".join(s + c for s, c in zip(seps, cards[1:], strict=True)) \
            if cards else ""
        return rng.choice(["", " ", "\u00a0"]) + out + rng.choice(["", " ", "\t"])
    return " ".join(cards)


def _compact(rng: random.Random, board: dict[str, str]) -> str:
    joiner = rng.choice(["", "", " "])
    return "-".join(joiner.join(spell(rng, c, compact=True) if rng.random() < 0.5 else c
                                for c in board.get(row, "").split()) for row in ROW_SIZES)


def respell(rng: random.Random, hand: dict[str, Any]) -> str:
    """``hand`` written another way the docs allow: the same hand once read."""
    rate = rng.choice([0.0, 0.05, 0.3, 1.0])
    out = json.loads(json.dumps(hand))
    for p in out["players"]:
        if "board" in p:
            if rng.random() < 0.3 and not p.get("surrendered"):
                p["board"] = _compact(rng, p["board"])
            else:
                p["board"] = {k: _respell_cards(rng, v, rate) for k, v in p["board"].items()}
        for st in p.get("streets", ()):
            for k in list(st):
                st[k] = _respell_cards(rng, st[k], rate)
        if rng.random() < 0.1:
            p.setdefault("fantasyland", False)
            p.setdefault("surrendered", False)
    if rng.random() < 0.2:
        for key in ("session_id", "match_id", "stake", "button"):
            out.setdefault(key, None)
    if rng.random() < 0.2:
        del out["format"]
    if out["hand_id"].isdigit() and rng.random() < 0.5:
        out["hand_id"] = int(out["hand_id"])
    if rng.random() < 0.2:
        items = list(out.items())
        rng.shuffle(items)
        out = dict(items)
    separators = rng.choice([(", ", ": "), (",", ":"), (" ,  ", " :\t")])
    return json.dumps(out, ensure_ascii=rng.random() < 0.2, separators=separators)


# --------------------------------------------------------------------------------------------
# Forbidden edits


def _card_fields(hand: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """(container, key) of every non-empty card string of the hand, in order."""
    out = []
    for p in hand["players"]:
        if isinstance(p.get("board"), dict):
            out += [(p["board"], k) for k in ROW_SIZES if p["board"].get(k)]
        for st in p.get("streets", ()):
            out += [(st, k) for k in st if st[k]]
    return out


def first_card_bad(rng: random.Random, hand: dict[str, Any]) -> str:
    """The first card of the first player replaced by an unknown token."""
    fields = _card_fields(hand)
    if not fields:  # every player surrendered before a card: no slot to spoil, break the JSON
        return _broken_json(rng, hand)
    box, key = fields[0]
    cards = box[key].split()
    box[key] = " ".join([rng.choice(BAD_TOKENS)] + cards[1:])
    return dumps(hand)


def first_card_respelled(rng: random.Random, hand: dict[str, Any]) -> str:
    """The first card of the first player in another accepted spelling (still valid)."""
    box, key = _card_fields(hand)[0]
    cards = box[key].split()
    other = [s for s in (spell(rng, cards[0]) for _ in range(8)) if s != cards[0]]
    box[key] = " ".join([other[0] if other else "10" + cards[0][1:]] + cards[1:])
    return dumps(hand)


def _bad_token(rng: random.Random, hand: dict[str, Any]) -> str:
    fields = _card_fields(hand)
    if not fields:  # every player surrendered before a card: no slot to spoil, break the JSON
        return _broken_json(rng, hand)
    box, key = rng.choice(fields)
    cards = box[key].split()
    cards[rng.randrange(len(cards))] = rng.choice(BAD_TOKENS)
    box[key] = " ".join(cards)
    return dumps(hand)


def _on_boards(hand: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    return [(b, k) for b, k in _card_fields(hand) if k in ROW_SIZES]


def _card_twice(rng: random.Random, hand: dict[str, Any]) -> str:
    slots = _on_boards(hand)
    (box, key), (other, okey) = rng.sample(slots, 2) if len(slots) > 1 else (slots[0], slots[0])
    cards = box[key].split()
    twin = rng.choice(other[okey].split())
    if twin in cards:
        cards.append(twin)  # the same card twice in one row
    else:
        cards[rng.randrange(len(cards))] = twin
    box[key] = " ".join(cards)
    return dumps(hand)


def _standing(hand: dict[str, Any]) -> dict[str, Any] | None:
    """A player who did not surrender (their rows must be full)."""
    return next((p for p in hand["players"] if not p.get("surrendered")), None)


def _row_size(rng: random.Random, hand: dict[str, Any]) -> str:
    player = _standing(hand)
    if player is None:
        return _card_twice(rng, hand)
    rows = player["board"] if "board" in player else player["streets"][-1]
    filled = [k for k in ROW_SIZES if rows.get(k)]
    key = rng.choice(filled)
    cards = rows[key].split()
    used = {c for b, k in _card_fields(hand) for c in b[k].split()}
    how = rng.random()
    if how < 0.4:
        rows[key] = " ".join(cards[1:])  # a card short
    elif how < 0.7:
        spare = next((c for c in CARDS if c not in used), cards[0])  # (all 52 dealt: a twin)
        rows[key] = " ".join(cards + [spare])  # one too many
    else:  # a card moved to another row
        to = rng.choice([k for k in ROW_SIZES if k != key])
        rows[key] = " ".join(cards[1:])
        rows[to] = " ".join(rows.get(to, "").split() + cards[:1])
    return dumps(hand)


_WRONG_TYPES: tuple[tuple[str, Any], ...] = (
    ("seat", "0"), ("seat", 1.5), ("seat", True), ("seat", None), ("name", 7), ("name", ""),
    ("name", ["ann"]), ("board", 7), ("board", ["Ah Kd 2c"]), ("fantasyland", "yes"),
    ("fantasyland", 1), ("surrendered", "no"), ("reported_points", "3"), ("streets", {}),
    ("streets", "Ah"), ("streets", [5]), ("top", ["Ah"]), ("top", 5), ("hand_id", True),
    ("hand_id", []), ("hand_id", {}), ("hand_id", ""), ("source", 5), ("variant", 3),
    ("stake", "1"), ("played_at", 5), ("rules", []), ("rules", "2-4"), ("players", {}),
    ("players", "ann"), ("players", []), ("hero", 5), ("button", []), ("events", {}),
    ("events", [5]), ("session_id", 5), ("currency", ""),
)


def _wrong_type(rng: random.Random, hand: dict[str, Any]) -> str:
    key, value = rng.choice(_WRONG_TYPES)
    player = _standing(hand) or hand["players"][0]
    if key == "top":
        (player.get("board") or player["streets"][0])["top"] = value
    elif key in ("seat", "name", "board", "fantasyland", "surrendered", "reported_points",
                 "streets"):
        player[key] = value
    else:
        hand[key] = value
    return dumps(hand)


def _broken_json(rng: random.Random, hand: dict[str, Any]) -> str:
    line = dumps(hand)
    how = rng.random()
    if how < 0.3:
        return line[:rng.randrange(1, len(line))]
    if how < 0.6:
        k = rng.choice(_structural(line))
        return line[:k] + line[k + 1:]
    return rng.choice([line.replace(", ", ", , ", 1), line[:-1] + ",}", "'" + line[1:],
                       line.replace('"source"', "source", 1), line + "}", "{" + line,
                       line.replace('"', "'"), line.replace(": ", " ", 1)])


def _structural(line: str) -> list[int]:
    """Positions of ``{}[]:,`` outside strings (deleting one always breaks the JSON)."""
    spots, in_string, escaped = [], False, False
    for i, c in enumerate(line):
        if in_string:
            escaped = not escaped and c == "\\"
            in_string = escaped or c != '"'
        elif c == '"':
            in_string = True
        elif c in "{}[]:,":
            spots.append(i)
    return spots


def _semantic(rng: random.Random, hand: dict[str, Any]) -> str:
    players = hand["players"]
    edits: list[Callable[[], None]] = [
        lambda: hand.update(mystery=1),
        lambda: hand.pop("source"),
        lambda: hand.pop("players"),
        lambda: hand.update(variant="texas-holdem"),
        lambda: hand.update(rules={"scoring": "3-5"}),
        lambda: hand.update(rules={"cap": -1}),
        lambda: hand.update(rules={"colour": "red"}),
        lambda: hand.update(format="ofc-hh/2"),
        lambda: hand.update(played_at="2026-11-29 21:04:05"),
        lambda: hand.update(played_at="yesterday"),
        lambda: hand.update(hero="nobody"),
        lambda: hand.update(button="nobody"),
        lambda: players[0].update(colour="red"),
        lambda: players[-1].update(name=players[0]["name"]),
        lambda: players[-1].update(seat=players[0]["seat"]),
        lambda: players.extend(json.loads(json.dumps(players)) * 3),
        lambda: players.__setitem__(slice(None), players[:1]),
    ]
    rng.choice(edits)()
    return dumps(hand)


def _text_edit(rng: random.Random, hand: dict[str, Any]) -> str:
    """Edits made on the text: what a dict cannot hold."""
    line = dumps(hand)
    cut = line.index('"variant"')
    insert = rng.choice([
        '"stake": NaN, ', '"stake": Infinity, ', '"stake": 1e400, ',
        '"stake": ' + "9" * 400 + ", ", '"source": "again", ', '"rules": {"cap": 1e999}, ',
        '"stake": ' + "[" * 5_000 + "]" * 5_000 + ", ", '"session_id": "\\ud83d", ',
        '"session_id": "\\udc00x", ', '"rules": {"royalties": ["american"]}, ',
        '"stake": [' + ", ".join(["1"] * 10_000) + "], ",  # a long line
    ])
    return line[:cut] + insert + line[cut:]


def _long_row(rng: random.Random, hand: dict[str, Any]) -> str:
    box, key = rng.choice(_on_boards(hand))
    box[key] = " ".join([box[key]] * rng.randint(200, 2_000))
    return dumps(hand)


def _bad_dealing(rng: random.Random, hand: dict[str, Any]) -> str:
    """A street that breaks the variant's dealing: all the dealt cards placed, or a street
    missing."""
    player = next((p for p in hand["players"] if "streets" in p and not p.get("surrendered")
                   and not p.get("fantasyland") and len(p["streets"]) > 1), None)
    if player is None:
        return _card_twice(rng, hand)
    if rng.random() < 0.5:
        del player["streets"][-1]
        return dumps(hand)
    first, second = player["streets"][0], player["streets"][1]
    row = next(k for k in ROW_SIZES if second.get(k))
    moved, *rest = second[row].split()
    if rest:
        second[row] = " ".join(rest)
    else:
        del second[row]
    first[row] = " ".join(first.get(row, "").split() + [moved])  # street 1 places one more
    return dumps(hand)


FORBIDDEN: dict[str, Callable[[random.Random, dict[str, Any]], str]] = {
    "bad token": _bad_token, "card twice": _card_twice, "row size": _row_size,
    "wrong type": _wrong_type, "broken json": _broken_json, "semantic": _semantic,
    "text edit": _text_edit, "long row": _long_row, "bad dealing": _bad_dealing,
}


# --------------------------------------------------------------------------------------------
# Files


@dataclass
class Expected:
    """What one file should give."""

    valid: dict[int, tuple[str, str]] = field(default_factory=dict)
    """line -> (source, hand_id) of each valid hand"""
    broken: dict[int, str] = field(default_factory=dict)
    """line -> the forbidden edit made"""
    refused_line: int | None = None
    """for a file refused as a whole (not UTF-8, NUL): the line it names"""


@dataclass
class Corpus:
    files: list[tuple[str, bytes]]
    expected: dict[str, Expected]
    canonical: list[str]
    """the canonical line of every valid hand, in order"""
    hands: int
    broken: int


def _encode(rng: random.Random, text: str) -> bytes:
    """UTF-8, with a byte order mark one time in ten, or UTF-16 / UTF-32 (with one)."""
    how = rng.random()
    if how < 0.1:
        return b"\xef\xbb\xbf" + text.encode()
    if how < 0.15:
        return text.encode(rng.choice(["utf-16", "utf-32"]))
    return text.encode()


def _refused(rng: random.Random, lines: list[str], end: str) -> tuple[bytes, int]:
    """The file's bytes with one that is not UTF-8 (or a NUL) put in a random line, and that
    line's number."""
    at = rng.randrange(len(lines))
    lines = lines[:]
    if rng.random() < 0.5:
        lines[at] = lines[at][:5] + "\x00" + lines[at][5:]
        return (end.join(lines) + end).encode(), at + 1
    head = (end.join(lines[:at]) + end * (at > 0)).encode()
    tail = (end.join(lines[at:]) + end).encode()
    bad = rng.choice([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe9"])
    return head + tail[:3] + bad + tail[3:], at + 1


def build(hands: int, seed: int = 1, per_file: int = 2_000, chunk: int = CHUNK,
          broken_share: float = 0.25) -> Corpus:
    """``hands`` hands in files of up to ``per_file`` lines (and some of a few lines), about
    ``broken_share`` of them broken; one file in fifty is refused whole (a byte that is not
    UTF-8, or a NUL). ``chunk``: the importer's chunk size, whose first lines get the first-card
    edits too."""
    rng = random.Random(seed)
    corpus = Corpus([], {}, [], 0, 0)
    number = 0
    while corpus.hands < hands:
        name = f"f{len(corpus.files):05d}.jsonl"
        exp = Expected()
        lines: list[str] = []
        canonical: list[str] = []
        count = min(rng.choice([per_file, per_file // 7 + 1, 2]), hands - corpus.hands)
        for k in range(count):
            if lines and rng.random() < 0.02 and len(lines) % chunk:
                lines.append(rng.choice(["", "  ", "\t"]))
            number += 1
            hand_id = str(10_000_000 + number) if rng.random() < 0.3 else f"h{seed}-{number}"
            hand = valid_hand(rng, rng.choice(["home", "app", "Клуб"]), hand_id)
            at = len(lines) + 1
            if k == 0 or (at - 1) % chunk == 0:  # the first hand of the file or of a chunk
                if rng.random() < 0.5:
                    lines.append(first_card_bad(rng, hand))
                    exp.broken[at] = "bad first card"
                    continue
                canonical.append(dumps(hand))
                lines.append(first_card_respelled(rng, hand))
            elif rng.random() < broken_share:
                kind = rng.choice(sorted(FORBIDDEN))
                lines.append(FORBIDDEN[kind](rng, hand))
                exp.broken[at] = kind
                continue
            else:
                canonical.append(dumps(hand))
                lines.append(respell(rng, hand) if rng.random() < 0.5 else dumps(hand))
            exp.valid[at] = (hand["source"], hand_id)
        corpus.hands += count
        end = rng.choice(["\n"] * 6 + ["\r\n", "\r"])
        if rng.random() < 0.02:
            data, line = _refused(rng, lines, end)
            exp = Expected(refused_line=line)
            corpus.broken += count
        else:
            data = _encode(rng, end.join(lines) + end)
            corpus.canonical += canonical
            corpus.broken += len(exp.broken)
        corpus.files.append((name, data))
        corpus.expected[name] = exp
    return corpus


# --------------------------------------------------------------------------------------------
# The check


BUG = "bug in OFC Analytics"
"""In a file's error when something raised while importing it (never the file's fault)."""


@dataclass
class Outcome:
    hands: int
    broken: int
    crashes: int = 0
    mismatches: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    """The first problems found, for the reader (at most 50)."""

    def crash(self, what: str) -> None:
        self.crashes += 1
        self._note(f"crash: {what}")

    def mismatch(self, what: str) -> None:
        self.mismatches += 1
        self._note(f"mismatch: {what}")

    def _note(self, what: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(what[:500])

    def figures(self) -> dict[str, Any]:
        return {"hands": self.hands, "broken": self.broken, "crashes": self.crashes,
                "mismatches": self.mismatches, "seconds": round(self.seconds, 1)}


def _json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in text.split("\n") if x.strip()]


def _scored(path: Path, out: Outcome) -> list[dict[str, Any]]:
    """``ofc score --json`` of one file."""
    text, err = io.StringIO(), io.StringIO()
    try:
        score_file(str(path), True, text, err)
    except Exception as exc:  # noqa: BLE001 - counting what escapes is the point
        out.crash(f"ofc score {path.name}: {type(exc).__name__}: {exc}")
    return _json_lines(text.getvalue())


def _result(obj: dict[str, Any]) -> dict[str, Any]:
    """A result without where it was read, and with each player's seat as its position: the
    store keeps a seat as its 0-based place in the log's seat order (docs/schema.md), so ``ofc
    score --db`` shows seats 0, 1, 2 where the log wrote 1, 4, 6."""
    out = {k: v for k, v in obj.items() if k not in ("file", "line")}
    if "players" in out:
        out["players"] = {name: {**p, "seat": n} for n, (name, p) in
                          enumerate(out["players"].items())}
    return out


def _expected_results(corpus: Corpus, work: Path, out: Outcome,
                      ) -> tuple[dict[tuple[str, str], dict], dict[tuple[str, str], Any]]:
    """What ``ofc score`` gives for the canonical spelling of each valid hand, and the records
    the reference reader makes of them."""
    canon = work / "canonical.jsonl"
    canon.write_text("".join(line + "\n" for line in corpus.canonical), encoding="utf-8")
    results = {}
    for obj in _scored(canon, out):
        if "error" in obj:
            out.mismatch(f"a canonical hand is refused (a generator bug): {obj}")
        else:
            results[(obj["source"], obj["hand_id"])] = _result(obj)
    records = {}
    for line in corpus.canonical:
        record = record_from_dict(loads_line(line))
        records[(record.source, record.hand_id)] = record
    return results, records


def _same_record(a: Any, b: Any) -> bool:
    """The same hand, but for the time zone of ``played_at`` and seats kept as positions."""
    def players(r: Any) -> list[Any]:
        return [replace(p, seat=n) for n, p in enumerate(r.players)]

    return (players(a), a.variant, dict(a.rules), a.button, a.hero, len(a.events)) == (
        players(b), b.variant, dict(b.rules), b.button, b.hero, len(b.events))


def _import(paths: list[Path], db: Path, out: Outcome, what: str) -> Any:
    try:
        report = api.import_paths(paths, db)
    except Exception as exc:  # noqa: BLE001
        out.crash(f"{what}: {type(exc).__name__}: {exc}")
        return None
    for f in report.files:
        if f.unreadable is not None and BUG in f.unreadable:
            out.crash(f"{what}: {f.unreadable}")
    return report


def _check_report(corpus: Corpus, report: Any, out: Outcome, what: str, again: bool) -> None:
    """Every broken hand reported at its line, nothing else; every valid hand stored (or, the
    second time, a duplicate)."""
    for f in report.files:
        exp = corpus.expected[Path(f.path).name]
        if exp.refused_line is not None:
            if f.unreadable is None or f"line {exp.refused_line}" not in f.unreadable:
                out.mismatch(f"{what} {f.path}: refused whole at line {exp.refused_line}, got "
                             f"{f.unreadable or 'read'}")
            continue
        lines = {e.line for e in f.errors}
        for line in sorted(set(exp.broken) - lines):
            out.mismatch(f"{what} {f.path}:{line}: {exp.broken[line]} not reported")
        for e in f.errors:
            if e.line not in exp.broken:
                out.mismatch(f"{what} {f.path}:{e.line}: a valid hand refused: {e.message}")
        stored = f.duplicate if again else f.stored
        if (stored, f.merged, f.partial) != (len(exp.valid), 0, 0) or (again and f.stored):
            out.mismatch(f"{what} {f.path}: {len(exp.valid)} valid hands, stored {f.stored}, "
                         f"duplicate {f.duplicate}, merged {f.merged}, partial {f.partial}")


def _check_store(corpus: Corpus, db: Path, results: dict, records: dict,
                 out: Outcome) -> None:
    """Each stored hand is a valid one, at its file and line, with the canonical records'
    players and rules and the result ``ofc score`` gives for the canonical spelling."""
    where = {key: (name, line) for name, exp in corpus.expected.items()
             for line, key in exp.valid.items()}
    seen = set()
    con = store.connect(db, read_only=True)
    try:
        for record, result, file, line in stored_results(con):
            key = (record.source, record.hand_id)
            seen.add(key)
            if key not in results:
                out.mismatch(f"stored a hand that is not valid: {key} ({file}:{line})")
                continue
            if (Path(file or "").name, line) != where[key]:
                out.mismatch(f"{key} stored as from {file}:{line}, written at {where[key]}")
            if _result(result_to_json(record, result)) != results[key]:
                out.mismatch(f"{key} stored {result_to_json(record, result)}, ofc score on the "
                             f"canonical line gives {results[key]}")
            if not _same_record(record, records[key]):
                out.mismatch(f"{key} stored as {record}, the canonical line reads "
                             f"{records[key]}")
    finally:
        con.close()
    for key in sorted(set(results) - seen):
        out.mismatch(f"{key} ({where[key]}) is not stored")


def _check_score(corpus: Corpus, logs: Path, results: dict, out: Outcome) -> None:
    """``ofc score`` on the respelled files gives, line by line, what the canonical lines give
    and an error at each broken line."""
    for name, exp in corpus.expected.items():
        got = _scored(logs / name, out)
        if exp.refused_line is not None:
            if len(got) != 1 or f"line {exp.refused_line}" not in got[0].get("error", ""):
                out.mismatch(f"ofc score {name}: refused whole at line {exp.refused_line}, "
                             f"got {got[:1]}")
            continue
        by_line = {o["line"]: o for o in got}
        for line, key in exp.valid.items():
            if line not in by_line or _result(by_line[line]) != results.get(key):
                out.mismatch(f"ofc score {name}:{line}: {by_line.get(line)} != {results.get(key)}")
        for line in exp.broken:
            if "error" not in by_line.get(line, {}):
                out.mismatch(f"ofc score {name}:{line}: {exp.broken[line]} not refused")
        if len(by_line) != len(exp.valid) + len(exp.broken):
            out.mismatch(f"ofc score {name}: {len(by_line)} lines reported, "
                         f"{len(exp.valid) + len(exp.broken)} hands")


def _check_rescore(db: Path, out: Outcome) -> None:
    """``ofc rescore`` fails on no hand and changes no stored result."""
    con = store.connect(db)
    try:
        con.execute("CREATE TEMP TABLE before AS SELECT * FROM hand_players")
        try:
            result = api.rescore(con)
        except Exception as exc:  # noqa: BLE001
            out.crash(f"rescore: {type(exc).__name__}: {exc}")
            return
        for issue in result.failed:
            out.mismatch(f"rescore: {issue.message}")
        changed = con.execute("SELECT count(*) FROM (SELECT * FROM before EXCEPT ALL "
                              "SELECT * FROM hand_players)").fetchone()[0]
        if changed:
            out.mismatch(f"rescore changed {changed} stored player results")
    finally:
        con.close()


def run(corpus: Corpus, work: Path, chunk: int = CHUNK,
        say: Callable[[str], None] = lambda _: None) -> Outcome:
    """Write the corpus into ``work``, import it twice into a new database with the importer's
    chunk size ``chunk``, and check everything the module docstring lists."""
    out = Outcome(corpus.hands, corpus.broken)
    started = time.perf_counter()
    logs = work / "logs"
    logs.mkdir(parents=True)
    for name, data in corpus.files:
        (logs / name).write_bytes(data)
    db = work / "fuzz.duckdb"
    saved = record_path.CHUNK_HANDS
    record_path.CHUNK_HANDS = chunk
    try:
        say("ofc score on the canonical lines")
        results, records = _expected_results(corpus, work, out)
        say("import")
        first = _import([logs], db, out, "import")
        if first is not None:
            _check_report(corpus, first, out, "import", again=False)
            say("stored results")
            _check_store(corpus, db, results, records, out)
        say("ofc score on the files")
        _check_score(corpus, logs, results, out)
        say("import again")
        second = _import([logs], db, out, "import again")
        if second is not None:
            _check_report(corpus, second, out, "import again", again=True)
        say("rescore")
        _check_rescore(db, out)
    finally:
        record_path.CHUNK_HANDS = saved
    out.seconds = time.perf_counter() - started
    return out
