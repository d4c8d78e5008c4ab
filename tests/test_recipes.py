"""The recipes of docs/architecture.md ("Where new things go") hold: each list a new rule or
page must join is tied to the code's own list, so a step left out fails here.

- every reader of a royalty goes through ``Ruleset.paid_royalties`` (one home for the royalty
  rule: a house rule about royalties changes ``ofc_core/rules.py`` alone);
- every reader of the Fantasyland entry goes through ``Ruleset.entry_cards`` (the batch
  scorer's arrays are held to it by ``tests/test_batch.py``);
- the rule keys are one list: ``OVERRIDE_FIELDS``, ``RULE_KEYS`` (their descriptions),
  ``Ruleset.settings()`` (derived from them), the JSON Schema's ``rules``, the ofc-hh/1 spec's
  table of keys (docs/format.md), the generated ``docs/rules.md`` and the sample that shows
  every key;
- the presets are one list: ``PRESETS`` and the JSON Schema's ``variant``;
- every page of ``dashboard/app.py``'s ``PAGES`` is in docs/dashboard.md's Pages table, which
  the browser test visits;
- every query that answers from the aggregates (``agg_where``) is reached from
  ``tests/test_aggregates.py``'s ``PAGES``, which holds it equal to the same query on the hands.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import jsonschema
import pytest

from ofc_core.rules import OVERRIDE_FIELDS, PRESETS, RULE_KEYS, Ruleset, resolve
from tests.helpers.site import ROOT, app_pages, documented_pages

PRODUCT = ("ofc_core", "ingest", "ofc_spark", "ofc_cli", "dashboard", "benchmarks")
RULES_MODULE = ROOT / "ofc_core" / "rules.py"
NAMED_TABLE = re.compile(r"\b(?:\w*rules\w*|r|preset)\.royalties\b(?!\.name\b)")
"""A ruleset's named table read directly (``ruleset.royalties.points``, ``royalty_array(
ruleset.royalties)``), not through ``paid_royalties``; ``.royalties.name`` (its name) is fine."""


def _product_sources() -> list[Path]:
    return sorted(p for part in PRODUCT for p in (ROOT / part).rglob("*.py")
                  if p != RULES_MODULE)


def test_every_reader_of_a_royalty_goes_through_paid_royalties() -> None:
    """The scorers, the engine, the bots, the Fantasyland solver and the rules doc read a
    royalty by ``Ruleset.paid_royalties`` / ``row_royalties``: a rule applied there reaches
    ``ofc score``, ``ofc fl``, ``ofc review`` and ``ofc simulate`` alike."""
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in _product_sources()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if NAMED_TABLE.search(line)]
    assert not found, ("read the royalty table through Ruleset.paid_royalties (or "
                       "row_royalties), not the named table:\n" + "\n".join(found))


def test_the_guard_sees_a_direct_read() -> None:
    assert NAMED_TABLE.search("    pts = ruleset.royalties.points(row, s)")
    assert NAMED_TABLE.search("royalty_array(r.royalties)")
    assert not NAMED_TABLE.search('"royalties": self.royalties.name,')
    assert not NAMED_TABLE.search("scores.royalties.sum(axis=1)")


FL_ENTRY = re.compile(r"\.for_entry\(|\.fl_cards\.for_entry\b")
"""The entry table read directly, not through ``Ruleset.entry_cards``."""


def test_every_reader_of_the_fantasyland_entry_goes_through_entry_cards() -> None:
    """A house rule about entering Fantasyland changes ``Ruleset.entry_cards`` (and the batch
    scorer's ``fantasyland_entry``, held equal by the property tests of test_batch.py):
    nothing else reads the entry table."""
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in _product_sources()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if FL_ENTRY.search(line)]
    assert not found, "read the entry through Ruleset.entry_cards:\n" + "\n".join(found)
    assert FL_ENTRY.search("for_entry = ruleset.fl_cards.for_entry")


def _schema_rules() -> dict[str, dict[str, object]]:
    schema = json.loads((ROOT / "ingest" / "formats" / "ofc_hh.schema.json").read_text())
    properties: dict[str, dict[str, object]] = schema["$defs"]["rules"]["properties"]
    return properties


def test_rule_keys_are_one_list() -> None:
    """A new override key is described (``RULE_KEYS``) and allowed by the JSON Schema."""
    assert list(RULE_KEYS) == list(OVERRIDE_FIELDS)
    assert set(PRESETS["regular"].settings()) == {"variant", *OVERRIDE_FIELDS}
    assert set(_schema_rules()) == set(OVERRIDE_FIELDS), (
        "ingest/formats/ofc_hh.schema.json's rules and ofc_core.rules.OVERRIDE_FIELDS differ")


def test_the_schemas_variants_are_the_presets() -> None:
    """A new preset is a variant an ofc-hh/1 file may name: the published schema allows it."""
    schema = json.loads((ROOT / "ingest" / "formats" / "ofc_hh.schema.json").read_text())
    assert schema["properties"]["variant"]["enum"] == list(PRESETS), (
        "ingest/formats/ofc_hh.schema.json's variant and ofc_core.rules.PRESETS differ")


def test_the_schemas_rule_values_are_the_rulesets() -> None:
    """Every value the schema lists resolves, and every preset's own settings pass the
    schema (so neither refuses what the other takes)."""
    schema = json.loads((ROOT / "ingest" / "formats" / "ofc_hh.schema.json").read_text())
    rules_schema = {**schema["$defs"]["rules"], "$defs": schema["$defs"]}
    for key, spec in _schema_rules().items():
        for value in spec.get("enum", []):  # type: ignore[attr-defined]
            resolve("regular", {key: value})
    for name, preset in PRESETS.items():
        settings = {k: v for k, v in preset.settings().items() if k in OVERRIDE_FIELDS}
        jsonschema.validate(settings, rules_schema)
        assert resolve(name, settings).settings() == preset.settings(), name


@pytest.mark.parametrize("key", list(OVERRIDE_FIELDS))
def test_the_rules_doc_and_the_sample_show_every_key(key: str) -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert f"| `{key}` |" in doc, "docs/rules.md: regenerate (python -m ofc_core.describe)"
    sample = ROOT / "data" / "samples" / "rules-overrides.jsonl"
    shown = {k for line in sample.read_text().splitlines() if line.strip()
             for k in (json.loads(line).get("rules") or {})}
    assert key in shown, f"{sample.name} (docs/format.md: every rules key) lacks {key}"
    spec = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    assert f"| `{key}` |" in spec, f"docs/format.md's table of rules keys lacks {key}"


def test_every_dashboard_page_is_in_the_pages_table() -> None:
    """The browser test opens the pages of docs/dashboard.md's Pages table: every page of
    ``PAGES`` must be there, under its title."""
    pages, documented = app_pages(), documented_pages()
    assert len(pages) >= 10, pages
    missing = {path: title for path, title in pages.items() if documented.get(path) != title}
    assert not missing, f"pages missing from docs/dashboard.md's Pages table: {missing}"


def _calls(module: Path) -> dict[str, set[str]]:
    """Each top-level function of a module and the names it calls."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {fn.name: {n.func.id for n in ast.walk(fn)
                      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            for fn in tree.body if isinstance(fn, ast.FunctionDef)}


def _uncovered_aggregate_readers(module: Path, tested: str) -> list[str]:
    """The functions of a query module that answer from the aggregates (call ``agg_where``)
    and that no call named in ``tested`` reaches (``module.function`` in the text, then what
    those call, through the module's own helpers)."""
    calls = _calls(module)
    readers = {name for name, called in calls.items() if "agg_where" in called}
    reached = {n for n in calls if f"{module.stem}.{n}" in tested}
    while grown := {c for n in reached for c in calls[n] if c in calls} - reached:
        reached |= grown
    return sorted(f"{module.stem}.{n}" for n in readers - reached)


def test_every_query_that_reads_the_aggregates_is_held_to_the_hands() -> None:
    """``tests/test_aggregates.py``'s ``PAGES`` compares each query that answers from the
    aggregates with the same query on the hands: a new page's query joins it."""
    tested = (ROOT / "tests" / "test_aggregates.py").read_text(encoding="utf-8")
    missing = [name for module in sorted((ROOT / "dashboard" / "queries").glob("*.py"))
               if module.name != "aggregated.py"
               for name in _uncovered_aggregate_readers(module, tested)]
    assert not missing, f"add to tests/test_aggregates.py's PAGES: {missing}"


def test_the_aggregates_guard_sees_a_new_reader(tmp_path: Path) -> None:
    module = tmp_path / "rooms.py"
    module.write_text("def _sql(con, f):\n    return agg_where(con, f)\n\n\n"
                      "def table(con, f):\n    return _sql(con, f)\n")
    assert _uncovered_aggregate_readers(module, "") == ["rooms._sql"]
    assert _uncovered_aggregate_readers(module, '("rooms", rooms.table),') == []


PRESET_ONLY = {"variant": "| variant |", "dealing": "| deal |", "min_players": "| players |",
               "max_players": "| players |", "fl_cards": "| FL cards |",
               "middle": "| middle |", "match_target": "is a race to"}
"""The fields of a ruleset that a hand cannot override, and where docs/rules.md shows them."""


def test_the_rules_doc_shows_every_field_of_a_ruleset() -> None:
    """A new field of ``Ruleset`` is an override key (in the table of keys) or a column of the
    presets' table (``ofc_core/describe.py``): it never goes unmentioned."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    fields = {f.name for f in dataclasses.fields(Ruleset)} - {"overrides"}
    for name in fields:
        shown = f"| `{name}` |" if name in OVERRIDE_FIELDS else PRESET_ONLY.get(name)
        assert shown is not None and shown in doc, (
            f"Ruleset.{name} is not in docs/rules.md: an override key (RULE_KEYS) or a column "
            "of the presets' table (ofc_core/describe.py)")
