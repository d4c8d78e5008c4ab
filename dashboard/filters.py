"""The sidebar filters every page shares, kept in the URL so a view can be bookmarked.

``app.py`` calls :func:`render_sidebar` once per run, before the page; a page calls
:func:`current` to get the :class:`Filters` and :func:`open_hand` to jump to Hand review.
URL parameters: ``player``, ``me`` (``1``: the user's own names), ``from``, ``to`` (ISO
dates), ``room`` (the hands' source), ``stake`` (``0.5 EUR``), ``variant``, ``ruleset``,
``opponent``, ``session``, ``tag`` (see :data:`dashboard.queries.filter_set.URL_KEYS`), plus
``hand`` for the hand shown in Hand review.

The Player select box offers "Me (ann, ann_swc)" first when the user's names are set (the
Import page asks for them), and every page opens on it; until then it opens on the logs' most
frequent hero (:func:`dashboard.queries.common.default_player`), with a hint to set them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import db
from dashboard import names as names_module
from dashboard.queries import notes, tournaments
from dashboard.queries.filter_set import URL_KEYS, Filters, Stake
from dashboard.queries.me_sql import effective_names, shared_seats
from dashboard.queries.options import (
    FilterOptions,
    default_player,
    filter_options,
    my_names,
    players,
)
from ingest.api import MyName, tag_key

__all__ = ["Filters", "current", "render_sidebar", "open_hand", "selection",
           "hand_from_chart", "hand_from_table", "four_colour", "HAND_PAGE"]

ALL = "All"
HAND_PAGE = "views/hand_review.py"
"""Hand review's page source, relative to ``app.py`` (for ``st.switch_page``)."""
_STATE = "_ofc_filters"
_KEYS = {name: f"filter_{name}" for name in URL_KEYS}
_DATES_KEY = "filter_dates"
_SPAN_KEY = "_ofc_dates_span"
FOUR_COLOUR_KEY = "four_colour"
_PICK_ME = "_ofc_pick_me"
_HAD_NAMES = "_ofc_had_names"


def current() -> Filters:
    """The filters of this run (set by :func:`render_sidebar`; read from the URL if the
    sidebar has not run)."""
    found = st.session_state.get(_STATE)
    if isinstance(found, Filters):
        return found
    return Filters.from_params(st.query_params.to_dict(), db.query(my_names))


def four_colour() -> bool:
    """Whether the user chose the four-colour deck."""
    return bool(st.session_state.get(FOUR_COLOUR_KEY, False))


SHOWN: dict[str, Callable[[Any], str]] = {
    "room": names_module.room, "variant": names_module.variant,
    "ruleset": names_module.ruleset, "opponent": names_module.player,
    "session": names_module.session_choice,
}
"""How a filter's options read (:mod:`dashboard.names`); the others as they are."""
_UNKNOWN = "_ofc_unknown_filters"


def _unknown(label: str, value: Any, kept: str = "All") -> None:
    """Remember that the address named a ``value`` these hands do not have (said on the page
    by :func:`unknown_messages`)."""
    said = st.session_state.setdefault(_UNKNOWN, [])
    said.append(f"The address asks for {label} “{value}”, which no hand here has: showing "
                f"{kept} instead.")


def unknown_messages() -> list[str]:
    """What the address asked for that these hands do not have (once: then forgotten)."""
    found: list[str] = st.session_state.pop(_UNKNOWN, [])
    return found


def _choice(label: str, name: str, options: tuple[Any, ...], wanted: Any,
            help_text: str | None = None) -> Any:
    """A select box with "All" first; its value survives page switches and is seeded once from
    the URL (a value these hands do not have is said, :func:`unknown_messages`). Options are
    shown as plain text (:data:`SHOWN`; select box options are never markdown)."""
    key = _KEYS[name]
    if name == "session" and wanted and wanted not in options:
        options = (*options, wanted)  # a bookmarked session older than the newest offered
    choices = (ALL, *options)
    if key not in st.session_state:
        if wanted is not None and wanted not in options:
            _unknown(label.lower(), SHOWN.get(name, str)(wanted))
        st.session_state[key] = wanted if wanted in options else ALL
    elif st.session_state[key] not in choices:
        st.session_state[key] = ALL
    shown = SHOWN.get(name, str)
    value = st.sidebar.selectbox(label, choices, key=key, help=help_text,
                                 format_func=lambda v: v if v == ALL else shown(v))
    return None if value == ALL else value


def _room(options: FilterOptions, wanted: str | None) -> str | None:
    found: str | None = _choice("Room", "room", options.rooms, wanted, "Only hands from this "
                                "room, app or home game (the source the logs came from).")
    return found


def _stake(options: FilterOptions, wanted: Stake | None) -> Stake | None:
    found: Stake | None = _choice("Stake", "stake", options.stakes, wanted,
                                  "Only hands played at this stake (money per point).")
    return found


def _tag(wanted: str | None) -> str | None:
    """The tag filter: the tags in use on hands; a tag from the URL matches whatever its case."""
    tags = db.query(notes.hand_tags)
    if wanted is not None:
        wanted = next((t for t in tags if tag_key(t) == tag_key(wanted)), wanted)
    found: str | None = _choice("Tag", "tag", tags, wanted, "Only hands carrying this tag (tag "
                                "a hand in Hand review).")
    return found


class _Me:
    """The "Me" choice of the Player select box: an object, so that no player's name (a
    string from a file) can be it."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Me)

    def __hash__(self) -> int:
        return hash(_Me)

    def __repr__(self) -> str:
        return "ME"


ME = _Me()


def me_label(names: tuple[MyName, ...], players: tuple[str, ...]) -> str:
    """The "Me" choice as shown: my names (a name restricted to a source says which), never
    equal to a player's name (the select box tells its options apart by their text).

    >>> me_label((MyName("ann"), MyName("ann_swc", "swc")), ("ann", "bo"))
    'Me (ann, ann_swc (swc))'
    >>> me_label((MyName("x"),), ("Me (x)",))
    'Me (x) ·'
    """
    label = f"Me ({', '.join(str(n) for n in names)})"
    while label in players:
        label += " ·"
    return label


def _player(everyone: tuple[str, ...], url: Filters, names: tuple[MyName, ...],
            mine: tuple[MyName, ...], fallback: Callable[[], str | None]
            ) -> tuple[str | None, tuple[MyName, ...] | None]:
    """The Player select box over ``everyone`` (the players): ``(player, None)``, or
    ``(None, mine)`` for "Me" (``names`` as the hands see them:
    :func:`~dashboard.queries.common.effective_names`). It opens on the URL's choice, else on
    me (when my names are set), else on ``fallback()``."""
    key = _KEYS["player"]
    choices: tuple[Any, ...] = ((ME,) if names else ()) + everyone
    if not choices:
        return None, None
    had_names = st.session_state.get(_HAD_NAMES)
    st.session_state[_HAD_NAMES] = bool(names)
    if names and (st.session_state.pop(_PICK_ME, False) or had_names is False):
        st.session_state[key] = ME  # names just set (here or by `ofc me`), or changed here
    if key not in st.session_state or st.session_state[key] not in choices:
        if url.me and names:
            pick: Any = ME
        elif url.player in everyone:
            pick = url.player
        else:
            pick = ME if names else fallback()
        st.session_state[key] = pick if pick in choices else choices[0]
        if url.player is not None and url.player not in everyone and not url.me:
            first = st.session_state[key]
            _unknown("the player", url.player,
                     "Me" if first == ME else names_module.player(first))
    label = me_label(names, everyone)
    value = st.sidebar.selectbox("Player", choices, key=key,
                                 format_func=lambda v: label if v == ME else
                                 names_module.player(v),
                                 help="Whose results every page shows: Me is all your names "
                                      "together.")
    if value == ME:
        return None, mine
    return value, None


def choose_me() -> None:
    """Open the next run on "Me" (after the user's names are set or changed)."""
    st.session_state[_PICK_ME] = True


def _hint(names: tuple[MyName, ...], options: FilterOptions) -> None:
    """Until the user's names are set, one line saying where to set them."""
    if names or not options.players:
        return
    st.sidebar.page_link("views/import_page.py", icon=":material/person:",
                         label="Set which player is you")


def _dates(options: FilterOptions, url: Filters) -> tuple[Any, Any]:
    """A date range picker over the player's dates; the full span means no date filter. When
    new hands widen the span, a range the user never narrowed widens with it."""
    first, last = options.first_date, options.last_date
    if first is None or last is None:
        return None, None
    span = (first, last)
    if _DATES_KEY not in st.session_state:
        lo = url.date_from if url.date_from and first <= url.date_from <= last else first
        hi = url.date_to if url.date_to and first <= url.date_to <= last else last
        st.session_state[_DATES_KEY] = (lo, max(lo, hi))
    else:
        old = st.session_state.get(_SPAN_KEY)
        value = st.session_state[_DATES_KEY]
        whole = isinstance(value, tuple | list) and old is not None and tuple(value) == old
        complete = isinstance(value, tuple | list) and len(value) == 2
        outside = complete and not first <= value[0] <= value[1] <= last
        if whole or outside:
            st.session_state[_DATES_KEY] = span
    st.session_state[_SPAN_KEY] = span
    picked = st.sidebar.date_input("Dates", min_value=first, max_value=last, key=_DATES_KEY)
    if not isinstance(picked, tuple | list) or len(picked) != 2:
        return None, None  # the user is halfway through picking a range
    lo, hi = picked
    return (None if lo <= first else lo), (None if hi >= last else hi)


def render_sidebar() -> Filters:
    """Draw the filters in the sidebar, store them for :func:`current` and in the URL."""
    names = db.query(my_names)
    mine = db.query(effective_names, names) if names else names
    skip = db.query(shared_seats, mine)
    url = Filters.from_params(st.query_params.to_dict(), mine)
    raw_stake = st.query_params.get(URL_KEYS["stake"])
    if raw_stake and url.stake is None and _KEYS["stake"] not in st.session_state:
        _unknown("the stake", raw_stake)
    # the player first, so that the options are read once, for that player
    player, me = _player(db.query(players), url, names, mine, lambda: db.query(default_player))
    options = db.query(filter_options, player, me, skip)
    _hint(names, options)
    date_from, date_to = _dates(options, url)
    filters = Filters(
        player=player,
        me=me,
        me_skip=skip,
        date_from=date_from,
        date_to=date_to,
        room=_room(options, url.room),
        stake=_stake(options, url.stake),
        variant=_choice("Variant", "variant", options.variants, url.variant),
        ruleset=_choice("Ruleset", "ruleset", options.rulesets, url.ruleset,
                        "The variant with the room's rule settings."),
        opponent=_choice("Opponent", "opponent", options.opponents, url.opponent,
                         "Only hands where this opponent sat at the table."),
        session=_choice("Session", "session", options.sessions, url.session),
        tag=_tag(url.tag),
        game=_game(st.query_params.get(URL_KEYS["game"])),
    )
    st.sidebar.toggle("Four-colour deck", key=FOUR_COLOUR_KEY)
    st.session_state[_STATE] = filters
    _write_url(filters, both_games=filters.game is None and
               st.session_state.get(_KEYS["game"]) == "Both")
    return filters


GAMES = {"Cash": "cash", "Tournaments": "tournaments", "Both": None}
"""The Game filter's choices (:attr:`Filters.game`)."""

BOTH_GAMES = "both"
"""The URL's word for the Game filter's "Both" (``?game=both``): :attr:`Filters.game` is
``None`` then, as in a store without tournaments, so the URL says it apart (a reload keeps
it)."""


def _game(wanted: str | None) -> str | None:
    """The Game select box, shown only when the store holds tournament hands (else no
    condition): cash pages leave tournament hands out unless chosen."""
    if not db.query(tournaments.present):
        st.session_state.pop(_KEYS["game"], None)  # no box: no "Both" in the URL either
        return None
    labels = list(GAMES)
    if _KEYS["game"] not in st.session_state:
        found = ["Both"] if wanted == BOTH_GAMES else \
            [k for k, v in GAMES.items() if v is not None and v == wanted]
        st.session_state[_KEYS["game"]] = found[0] if found else "Cash"
    label = st.sidebar.selectbox("Game", labels, key=_KEYS["game"],
                                 help="Cash hands, tournament hands (chips are never summed "
                                      "with money), or both.")
    return GAMES.get(label, "cash")


def _write_url(filters: Filters, both_games: bool = False) -> None:
    wanted = filters.to_params()
    if both_games:
        wanted[URL_KEYS["game"]] = BOTH_GAMES
    for key in URL_KEYS.values():
        if key in wanted:
            if st.query_params.get(key) != wanted[key]:
                st.query_params[key] = wanted[key]
        elif key in st.query_params:
            del st.query_params[key]


def open_hand(hand_key: int, street: int | None = None) -> None:
    """Switch to Hand review showing ``hand_key`` (at ``street`` of the replayer, if given),
    keeping the filters in the URL."""
    params = {**current().to_params(), "hand": str(int(hand_key))}
    if street is not None:
        params["street"] = str(int(street))
    st.switch_page(HAND_PAGE, query_params=params)


def selection(event: Any, kind: str) -> list[Any]:
    """The selected ``"rows"`` of an ``st.dataframe``, or ``"points"`` of an
    ``st.plotly_chart``, drawn with ``on_select="rerun"``; empty when nothing is selected.

    >>> selection({"selection": {"rows": [3], "columns": []}}, "rows")
    [3]
    >>> selection(None, "points")
    []
    """
    try:
        return list(event["selection"][kind])
    except (KeyError, TypeError):
        return []


def hand_from_chart(event: Any) -> int | None:
    """The hand key of the clicked point of a plotly chart drawn with ``customdata`` holding
    the hand key (a column, or the first of several) and ``on_select="rerun"``.

    >>> hand_from_chart({"selection": {"points": [{"customdata": [42, "x"]}]}})
    42
    >>> hand_from_chart({"selection": {"points": [{"customdata": {"0": 7}}]}})
    7
    >>> hand_from_chart({"selection": {"points": []}}) is None
    True
    """
    for point in selection(event, "points"):
        data = point.get("customdata")
        if isinstance(data, dict):  # a numpy row arrives as {"0": value, ...}
            data = data.get("0", next(iter(data.values()), None))
        if isinstance(data, list | tuple):
            data = data[0] if data else None
        if data is not None:
            try:
                return int(data)
            except (TypeError, ValueError):
                continue
    return None


def hand_from_table(event: Any, frame: pd.DataFrame, column: str = "hand_key") -> int | None:
    """The hand key in ``column`` of the row selected in an ``st.dataframe`` drawn with
    ``on_select="rerun", selection_mode="single-row"``."""
    rows = selection(event, "rows")
    if not rows or rows[0] >= len(frame):
        return None
    value = frame.iloc[rows[0]][column]
    return None if pd.isna(value) else int(value)
