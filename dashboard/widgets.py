"""Page widgets every dashboard page shares, so a page reads "a query, a chart, a table".

- formats: :func:`pct`, :func:`num`, :func:`plot_text` (strings from files into plotly labels);
- the page frame: :func:`start` (title, filters, the *No hands yet* state), :func:`no_hands`,
  :func:`start_with` (both, and the page's main query), :func:`fetch` (a query, or its
  empty state), :func:`metric_row`;
- table columns: :func:`text`, :func:`count`, :func:`signed`, :func:`percent`, :func:`when`,
  :func:`flag` and the shared sets :data:`HAND_ID_COLUMNS`, :data:`HAND_COLUMNS`,
  :data:`CI_COLUMNS`, :data:`MONEY_COLUMNS`;
- selections: :func:`table` and :func:`chart` draw a selectable table or chart and return what
  was selected; :func:`picked` turns a clicked point or a selected row into the key it stands
  for; :func:`show_hands` / :func:`hands_behind` list the hands behind it, :func:`hand_table` /
  :func:`chart_opens_hand` open a selected hand in Hand review;
- charts: :func:`layout` (the figure defaults), :func:`sign_colours` and the colours.

Strings from files are data: tables show them as text, markdown gets them through
:func:`dashboard.cards.md_text`, plotly labels through :func:`plot_text`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import db, filters, names, timefmt
from dashboard.cards import md_text, pretty
from dashboard.queries import explain
from dashboard.queries.common import Filters, player_chosen, shown_players
from dashboard.queries.sessions import HAND_LIMIT

GREEN, RED, PURPLE, BLUE = "#2ca02c", "#d62728", "#9467bd", "#1f77b4"
NO_HANDS = "No hands match these filters."
OPEN_HAND = "Select a hand to open it in Hand review."

# --------------------------------------------------------------------------------------------
# formats


def pct(value: float | None) -> str:
    """A rate (0..1) as a percentage; a dash when there is none.

    >>> pct(0.1234), pct(None), pct(float("nan"))
    ('12.3%', '–', '–')
    """
    return "–" if value is None or pd.isna(value) else f"{100 * value:.1f}%"


def num(value: float | None, digits: int = 2) -> str:
    """Points with their sign and thousands separators; a dash when there are none.

    >>> num(1234.5, 1), num(-0.25), num(None)
    ('+1,234.5', '-0.25', '–')
    """
    return "–" if value is None or pd.isna(value) else f"{value:+,.{digits}f}"


def plot_text(values: Iterable[Any]) -> list[str]:
    """Strings from files made safe for plotly labels, legends and hover text (plotly reads a
    few HTML tags in them): ``&``, ``<`` and ``>`` as the entities plotly turns back into
    those characters. Quotes stay as they are: plotly shows ``&quot;`` as it is written.

    >>> plot_text(["<b>bob</b>", 'say "hi" & go', 7])
    ['&lt;b&gt;bob&lt;/b&gt;', 'say "hi" &amp; go', '7']
    """
    return [html.escape(str(v), quote=False) for v in values]


# --------------------------------------------------------------------------------------------
# the page frame


def start(title: str) -> Filters | None:
    """Title, then the filters; ``None`` (with a plain message) when there is nothing to show."""
    st.title(title)
    current = filters.current()
    if not player_chosen(current):
        st.info("No hands yet. Import your logs on the Import page.")
        st.page_link("views/import_page.py", label="Go to Import", icon=":material/upload_file:")
        return None
    for said in filters.unknown_messages():
        st.warning(md_text(said), icon=":material/help:")
    st.markdown(f"Results of **{md_text(names.player(shown_players(current)))}**")
    return current


FILTER_WORDS = {"room": "Room", "stake": "Stake", "variant": "Variant", "ruleset": "Ruleset",
                "opponent": "Opponent", "session": "Session", "tag": "Tag",
                "date_from": "Dates (from)", "date_to": "Dates (to)"}


def no_hands(current: Filters | None = None) -> None:
    """The empty state when the filters leave no hands, saying which filter empties them
    (and, for a room, where the player's hands are)."""
    current = current if current is not None else filters.current()
    why = db.query(explain.why_empty, current)
    if not why.culprits:
        st.info(NO_HANDS)
        return
    who = names.player(shown_players(current))
    parts = [FILTER_WORDS[c] for c in why.culprits]
    line = (f"{NO_HANDS} {who} has no hands with " + " or ".join(
        f"this {p}" for p in parts) + f": set {' or '.join(parts)} to All to see them.")
    if why.rooms:
        line += f" {who}'s hands come from {', '.join(names.room(r) for r in why.rooms)}."
    st.info(md_text(line))


def fetch(query: Callable[..., pd.DataFrame], *args: Any,
          empty: str = NO_HANDS) -> pd.DataFrame | None:
    """The rows of ``db.query(query, *args)``; ``None`` when there are none, after saying
    ``empty``."""
    frame: pd.DataFrame = db.query(query, *args)
    if frame.empty:
        st.info(empty)
        return None
    return frame


def start_with(title: str, query: Callable[..., pd.DataFrame], *args: Any,
               empty: str = NO_HANDS) -> tuple[Filters, pd.DataFrame] | None:
    """:func:`start`, then the page's main query (``db.query(query, filters, *args)``); ``None``
    when there is nothing to show, after saying so."""
    current = start(title)
    if current is None:
        return None
    frame = fetch(query, current, *args, empty=empty)
    return None if frame is None else (current, frame)


def metric_row(*metrics: tuple[str, str] | tuple[str, str, str]) -> None:
    """Up to four headline numbers in a row: ``(label, value)`` or ``(label, value, note)``,
    the note shown in grey under the number."""
    for column, (label, value, *note) in zip(st.columns(4), metrics, strict=False):
        if note:
            column.metric(label, value, note[0], delta_color="off", delta_arrow="off")
        else:
            column.metric(label, value)


# --------------------------------------------------------------------------------------------
# table columns (labels as shown; file strings always in text columns)


def text(label: str, **kwargs: Any) -> Any:
    """A column of strings, shown as text (never markdown or HTML)."""
    return st.column_config.TextColumn(label, **kwargs)


def count(label: str, **kwargs: Any) -> Any:
    """A plain number column (hands, fouls, ...)."""
    return st.column_config.NumberColumn(label, **kwargs)


def signed(label: str, digits: int = 2, **kwargs: Any) -> Any:
    """Points or money with their sign, ``digits`` decimals."""
    return st.column_config.NumberColumn(label, format=f"%+.{digits}f", **kwargs)


def percent(label: str, **kwargs: Any) -> Any:
    """A rate already multiplied by 100 (see :func:`percent_columns`), one decimal and ``%``."""
    return st.column_config.NumberColumn(label, format="%.1f%%", **kwargs)


def when(label: str, **kwargs: Any) -> Any:
    """A date and time to the minute with its zone, in the zone the user chose (the frame's
    times are turned into that text by :func:`shown_frame`)."""
    return st.column_config.TextColumn(label, **kwargs)


def flag(label: str, **kwargs: Any) -> Any:
    """A yes/no column, as a checkbox."""
    return st.column_config.CheckboxColumn(label, **kwargs)


HAND_ID_COLUMNS = {
    "hand_key": None,
    "played_at": when("Played", width=135),
    "source": text("Room", width=120),
    "hand_id": text("Hand", width=150),
    "variant": text("Variant", width=110),
    "player": text("Player", width=100),
}
"""What names a hand in a list of hands (the key is hidden: it is what a selection opens)."""

HAND_COLUMNS = {
    **HAND_ID_COLUMNS,
    "position": count("Position", help="0 acts first", width=65),
    "fantasyland": flag("FL", width=35),
    "fouled": flag("Fouled", width=55),
    "royalties": count("Royalties", width=65),
    "fantasyland_next": count("FL cards earned", width=100),
    "points": signed("Points", 1, width=60),
}
"""The columns of :func:`dashboard.queries.sessions.hand_list`."""

HAND_MAIN = ("played_at", "points", "fouled", "royalties", "fantasyland", "fantasyland_next",
             "hand_id", "variant")
"""The columns a list of hands shows first (:func:`column_order`): 710 px."""

CI_COLUMNS = {
    "points_per_hand": signed("Per hand", width=70),
    "ci_low": signed("95% CI from", width=85),
    "ci_high": signed("95% CI to", width=75),
}
"""Points per hand with its 95% interval."""

def money(label: str, **kwargs: Any) -> Any:
    """Money with its sign and cents, a number (it sorts as one); hands without a stake
    have none, shown as the tables' dash, their currency ``no stake`` (:func:`shown_frame`)."""
    return st.column_config.NumberColumn(label, format="%+.2f", **kwargs)


MONEY_COLUMNS = {"money": money("Money", help="stake x points (OFC Double: stake x cube of "
                                 "each match); no stake: the log gives none", width=75),
                 "currency": text("Currency", width=70)}
NO_STAKE = "no stake"
MISSING = "–"
"""What a table shows for a missing value (Streamlit's own is "None")."""


def currency_text(currencies: Iterable[Any], money: Iterable[Any]) -> list[str]:
    """A money row's currency: ``no stake`` where the row has no money (no hand had a
    stake), a dash where the log named no currency; never None.

    >>> currency_text(["EUR", None, None, None], [1.5, None, float("nan"), 2.0])
    ['EUR', 'no stake', 'no stake', '–']
    """
    return [NO_STAKE if m is None or pd.isna(m) else MISSING if c is None or pd.isna(c)
            else str(c) for c, m in zip(currencies, money, strict=True)]


def shown_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as tables show it: times as text with their zone (:mod:`dashboard.timefmt`,
    the ``utc_offset`` column dropped); money stays a number (missing: the tables' dash),
    its currency ``no stake`` where there is none; rooms, players and variants in words
    (:mod:`dashboard.names`; a ruleset's label stays: it is the key a selection opens, and
    pages show its words in a column of their own)."""
    out = timefmt.table_times(frame)
    for column, say in (("source", names.room), ("player", names.player),
                        ("opponent", names.player), ("variant", names.variant)):
        if column in out and not pd.api.types.is_numeric_dtype(out[column]):
            out[column] = [say(v) for v in out[column]]
    for column in [c for c in out.columns if str(c).endswith("_cards")]:
        if not pd.api.types.is_numeric_dtype(out[column]):  # cards as suit symbols
            out[column] = [MISSING if v is None or (not isinstance(v, str) and pd.isna(v))
                           else pretty(str(v)) for v in out[column]]
    if "currency" in out and "money" in out:
        out = out.assign(currency=currency_text(out["currency"], out["money"]))
    return out


def percent_columns(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """Rates (0..1) as percentages for display.

    >>> percent_columns(pd.DataFrame({"r": [0.5]}), "r", "absent")["r"].tolist()
    [50.0]
    """
    return frame.assign(**{c: frame[c] * 100 for c in columns if c in frame})


# --------------------------------------------------------------------------------------------
# selections


def selected_row(event: Any) -> int | None:
    """Index of the row selected in an ``st.dataframe`` drawn with ``on_select="rerun"``.

    >>> selected_row({"selection": {"rows": [3]}}), selected_row({"selection": {"rows": []}})
    (3, None)
    """
    rows = filters.selection(event, "rows")
    return rows[0] if rows else None


def selected_point(event: Any) -> list[Any] | None:
    """``customdata`` of the clicked point of a plotly chart drawn with ``on_select="rerun"``.

    >>> selected_point({"selection": {"points": [{"x": 1}, {"customdata": ["s1", 2]}]}})
    ['s1', 2]
    >>> selected_point({"selection": {"points": [{"customdata": "m1"}]}})
    ['m1']
    """
    for point in filters.selection(event, "points"):
        data = point.get("customdata")
        if data is not None:
            return list(data) if isinstance(data, list | tuple) else [data]
    return None


def picked(point: list[Any] | None, row: int | None = None, frame: pd.DataFrame | None = None,
           column: str = "") -> str | None:
    """The key the user picked: the clicked point's first ``customdata``, else ``column`` of
    the selected ``row`` of ``frame``; ``None`` when nothing is selected.

    >>> frame = pd.DataFrame({"match_id": ["m1", "m2"]})
    >>> picked(["m2"], 0, frame, "match_id"), picked(None, 0, frame, "match_id")
    ('m2', 'm1')
    >>> picked(None) is None
    True
    """
    if point:
        return str(point[0])
    return None if row is None or frame is None else str(frame.iloc[row][column])


def _dataframe(frame: pd.DataFrame, key: str, columns: dict[str, Any],
               order: tuple[str, ...] | None, rates: tuple[str, ...],
               main: tuple[str, ...] | None = None) -> Any:
    return st.dataframe(percent_columns(shown_frame(frame), *rates), key=key, on_select="rerun",
                        selection_mode="single-row", hide_index=True, width="stretch",
                        column_order=column_order(key, order, main), column_config=columns,
                        placeholder=MISSING)


ALL_COLUMNS = "Every column"


def column_order(key: str, order: tuple[str, ...] | None,
                 main: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The columns a wide table shows: its ``main`` ones (the most useful, widths set so that
    they fit beside the sidebar at 1,280 px) unless the reader turns on :data:`ALL_COLUMNS`
    above it (then every column of ``order``; the table scrolls sideways)."""
    if main is None:
        return order
    every = st.toggle(ALL_COLUMNS, key=f"{key}_every_column",
                      help="The table shows its most useful columns; this shows them all "
                           "(the table then scrolls sideways).")
    return order if every else main


def table(frame: pd.DataFrame, key: str, columns: dict[str, Any], *,
          order: tuple[str, ...] | None = None, rates: tuple[str, ...] = (),
          main: tuple[str, ...] | None = None) -> int | None:
    """A table whose rows can be selected (one at a time); the selected row's index.
    ``rates`` are columns of 0..1 rates shown as percentages (see :func:`percent`); ``main``:
    the columns shown until the reader asks for every one (:func:`column_order`)."""
    return selected_row(_dataframe(frame, key, columns, order, rates, main))


def hand_table(frame: pd.DataFrame, key: str, columns: dict[str, Any], *,
               column: str = "hand_key", note: str = OPEN_HAND,
               rates: tuple[str, ...] = (), order: tuple[str, ...] | None = None,
               main: tuple[str, ...] | None = None) -> None:
    """A table whose selected row opens the hand in ``column`` in Hand review (``order``:
    the columns shown, in order; ``main``: as :func:`table`)."""
    hand = filters.hand_from_table(_dataframe(frame, key, columns, order, rates, main), frame,
                                   column)
    if hand is not None:
        filters.open_hand(hand)
    st.caption(note)


def show_hands(frame: pd.DataFrame, key: str, what: str, *,
               columns: dict[str, Any] = HAND_COLUMNS, sep: str = ": ",
               limit: int = HAND_LIMIT, main: tuple[str, ...] | None = HAND_MAIN) -> None:
    """The hands behind a number, headed ``N hands{sep}{what}``, as a table whose selected row
    opens in Hand review."""
    if frame.empty:
        st.info(f"No hands{sep}{what}.")
        return
    more = " (the first ones)" if len(frame) >= limit else ""
    st.markdown(f"**{len(frame):,} hands{more}**{sep}{md_text(what)}")
    hand_table(frame, key, columns, main=tuple(c for c in main or () if c in frame) or None)


def hands_behind(value: str | None, key: str, what: str, query: Callable[..., pd.DataFrame],
                 *args: Any, hint: str | None = None, **kwargs: Any) -> None:
    """The hands behind the picked ``value`` (``db.query(query, *args, value, **kwargs)``),
    headed ``what`` with ``{}`` standing for the value (see :func:`show_hands`); with nothing
    picked, the ``hint`` how to pick."""
    if value is None:
        if hint:
            st.caption(hint)
        return
    show_hands(db.query(query, *args, value, **kwargs), key, what.format(value))


def chart(fig: go.Figure, key: str) -> list[Any] | None:
    """Draw a figure whose points can be clicked; the clicked point's ``customdata``."""
    return selected_point(st.plotly_chart(fig, key=key, on_select="rerun",
                                          selection_mode="points"))


def vega_picked(event: Any, param: str, field: str) -> str | None:
    """``field`` of the point a Vega-Lite chart's point selection ``param`` holds (drawn with
    ``on_select="rerun"``); ``None`` when nothing is selected.

    >>> vega_picked({"selection": {"pick": [{"ruleset": "pineapple 1-6"}]}}, "pick", "ruleset")
    'pineapple 1-6'
    >>> vega_picked({"selection": {"pick": {}}}, "pick", "ruleset") is None
    True
    """
    found = filters.selection(event, param)
    for point in found:
        if isinstance(point, dict) and point.get(field) is not None:
            return str(point[field])
    return None


def vega_chart(spec: dict[str, Any], key: str, param: str, field: str) -> list[Any] | None:
    """Draw a Vega-Lite ``spec`` whose point selection ``param`` (a click) picks ``field``;
    the picked value as a one-item list, as :func:`chart` gives a clicked point's
    ``customdata`` (``None`` when nothing is picked). Lighter than a Plotly chart on a page's
    first load (docs/benchmarks.md, "First loads")."""
    event = st.vega_lite_chart(spec=spec, key=key, on_select="rerun", selection_mode=param,
                               width="stretch")
    value = vega_picked(event, param, field)
    return None if value is None else [value]


def sign_colour(field: str) -> dict[str, Any]:
    """A Vega-Lite colour encoding: green where ``field`` is a gain (or zero), red for a loss
    (as :func:`sign_colours`)."""
    return {"condition": {"test": f"datum['{field}'] >= 0", "value": GREEN}, "value": RED}


def chart_opens_hand(fig: go.Figure, key: str, note: str) -> None:
    """Draw a figure of single hands (``customdata`` = hand key): a click opens that hand."""
    hand = filters.hand_from_chart(st.plotly_chart(fig, key=key, on_select="rerun",
                                                   selection_mode="points"))
    if hand is not None:
        filters.open_hand(hand)
    st.caption(note)


# --------------------------------------------------------------------------------------------
# charts


def sign_colours(values: Iterable[float]) -> list[str]:
    """Green for a gain (or zero), red for a loss.

    >>> sign_colours([2, 0, -1])
    ['#2ca02c', '#2ca02c', '#d62728']
    """
    return [GREEN if v >= 0 else RED for v in values]


def layout(fig: go.Figure, height: int = 360, *, top: int | None = None,
           **kwargs: Any) -> go.Figure:
    """The dashboard's chart style: legend in a row under the title, clicks select; ``kwargs``
    are plotly layout settings (they win over the defaults), ``top`` the top margin (80 with a
    title, else 40)."""
    top = top if top is not None else (80 if "title" in kwargs else 40)
    settings = {"height": height, "margin": {"l": 10, "r": 10, "t": top, "b": 10},
                "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
                "clickmode": "event+select"}
    fig.update_layout(**{**settings, **kwargs})
    return fig

