"""Planted pineapple hands for the decision review: streets written by hand, with one bad
placement of Hero's whose cost the review must find (``tests/test_review.py`` and the Review
page's tests)."""

from __future__ import annotations

from typing import Any


def street(dealt: str, top: str = "", middle: str = "", bottom: str = "",
           discard: str | None = None) -> dict[str, Any]:
    """One street of an ofc-hh/1 ``streets`` list: the cards dealt and where each went."""
    out = {"dealt": dealt, "top": top, "middle": middle, "bottom": bottom}
    if discard is not None:
        out["discard"] = discard
    return out


# Two pineapple hands, heads-up, where Hero's street is planted badly (see the comments).
QQ_TOP_FOUL = [  # street 2: Qh Qd on top under a middle that can no longer pair up to QQ
    street("2c 5d 7h 9s Ks", top="Ks", middle="2c 5d 7h 9s"),
    street("Qh Qd 3c", top="Qh Qd", discard="3c"),
    street("Ac Ad 4h", bottom="Ac Ad", discard="4h"),
    street("8c 8d Jc", bottom="8c 8d", discard="Jc"),
    street("Tc 6s 3d", middle="Tc", bottom="6s", discard="3d"),
]
VILLAIN_1 = [
    street("Jh Jd 4s 5s 6d", top="4s", middle="5s 6d", bottom="Jh Jd"),
    street("Th 9h 2d", middle="Th 9h", discard="2d"),
    street("Kc Kd 2s", bottom="Kc Kd", discard="2s"),
    street("8h 7s 3s", top="3s", middle="8h", discard="7s"),
    street("Js 5c 6c", top="5c", bottom="Js", discard="6c"),
]
