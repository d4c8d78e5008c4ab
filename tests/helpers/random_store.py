"""Random stores for the aggregate and graph tests: demo hands moved to random rooms,
sessions, days, stakes and rulesets, their opponents renamed (``random_files``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
ROOMS = ("ofc-sim", "swc", "club")
SESSIONS = tuple(f"s{i}" for i in range(6))
OPPONENTS = ("Anna", "Zoë", "Bo", "Cy", "Dee", "Eve")
STAKES = ((1.0, "EUR"), (0.5, "USD"), (2.0, None), None)
OFFSETS = ("+00:00", "+01:00", "-05:00", "+05:30")


def _random_hand(rng: random.Random, hand: dict[str, Any], n: int,
                 minutes: int) -> dict[str, Any]:
    """A demo hand moved to a random room, session, day, stake and ruleset, its opponents
    renamed (a match's hands keep their names: its events name the winner)."""
    if hand.get("match_id") is None:
        hand["hand_id"] = f"r{n}"
        hand["source"] = rng.choice(ROOMS)
        names = rng.sample(OPPONENTS, len(hand["players"]))
        rename = {p["name"]: (p["name"] if p["name"] == "Hero" else names[i])
                  for i, p in enumerate(hand["players"])}
        if rng.random() < 0.15:
            rename["Hero"] = "Hero2"  # another name of mine
        for p in hand["players"]:
            p["name"] = rename[p["name"]]
        hand["hero"] = rename.get(hand.get("hero") or "", hand.get("hero"))
        hand["button"] = rename.get(hand.get("button") or "", hand.get("button"))
        if rng.random() < 0.25:
            hand["rules"] = {"scoring": "2-4"}
        stake = rng.choice(STAKES)
        hand.pop("stake", None)
        hand.pop("currency", None)
        if stake is not None:
            hand["stake"], hand["currency"] = stake[0], stake[1]
            if stake[1] is None:
                hand.pop("currency")
    if rng.random() < 0.1:
        hand.pop("session_id", None)
    else:
        hand["session_id"] = rng.choice(SESSIONS)
    if rng.random() < 0.05:
        hand.pop("played_at", None)
    else:  # minutes over six days (distinct), or the first ``minutes``
        day, minute = divmod(n * 37 % minutes, 1440)
        hand["played_at"] = (f"2026-03-{10 + day:02d}T{minute // 60:02d}:{minute % 60:02d}:00"
                             f"{rng.choice(OFFSETS)}")
    return hand


def random_files(seed: int, count: int, minutes: int = 8640) -> list[bytes]:
    """``count`` random hands (every variant of the demo) in three files."""
    rng = random.Random(seed)
    lines = [line for path in sorted(DEMO.glob("*.jsonl"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    picked = sorted(rng.sample(range(len(lines)), count))
    hands = [json.dumps(_random_hand(rng, json.loads(lines[i]), i, minutes)) for i in picked]
    third = len(hands) // 3
    return ["\n".join(part).encode() + b"\n"
            for part in (hands[:third], hands[third:2 * third], hands[2 * third:])]
