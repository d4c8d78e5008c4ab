"""The documentation site holds: it builds with ``mkdocs build --strict`` (no broken link or
anchor, no page outside the nav), the CLI reference is the commands' own, the guides describe
what is (no run dates, commit ids or run nicknames; at most 300 lines a page), and their code
runs: every Python block is executed, every shell block is run unless the line before it is
``<!-- example -->``, and every ``ofc`` command in an example still parses (docs/testing.md,
"The docs").
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ofc_cli.cli import build_parser
from ofc_cli.reference import reference_markdown
from tests.helpers.site import DOCS, ROOT, CodeBlock, code_blocks

MAX_LINES = 300
RECORDS = {"benchmarks.md"}
"""Where measurement records live (with their dates and commits); CHANGELOG.md is outside
docs/ and holds the history."""

SHELL = {"bash", "sh", "shell", "console"}
PAGES = sorted(DOCS.rglob("*.md"))
GUIDES = [p for p in PAGES if p.name not in RECORDS] + [ROOT / "README.md"]


def _nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [p for item in node for p in _nav_pages(item)]
    if isinstance(node, dict):
        return [p for value in node.values() for p in _nav_pages(value)]
    return []


def test_every_page_is_in_the_nav_once() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_pages(config["nav"])
    on_disk = [p.relative_to(DOCS).as_posix() for p in PAGES]
    assert sorted(nav) == sorted(on_disk), "mkdocs.yml's nav and docs/ differ"


NEWCOMER = {"import the pineapple app's log": ("pineapple app", "sources/pineapple-app.md", None),
            "read EV lost": ("EV lost", "review.md", "## Reading the Review page"),
            "how the learned value is trained": ("learned value", "review-method.md",
                                                 "### Training the learned value")}
"""What a newcomer looks for, the words of its title in the nav, its page, and the heading
that answers it (in the page's table of contents: the second click)."""


def _nav_titles(node: object, depth: int = 0) -> list[tuple[str, str, int]]:
    """(title, page, depth) of every page of the nav: 1 for a page of a top-level section
    (Material shows those sections open: one click), 2 for a page of a sub-section (two)."""
    if isinstance(node, list):
        return [t for item in node for t in _nav_titles(item, depth)]
    if isinstance(node, dict):
        found = []
        for title, value in node.items():
            if isinstance(value, str):
                found.append((title, value, depth))
            else:
                found += _nav_titles(value, depth + 1)
        return found
    return []


@pytest.mark.parametrize("wanted", list(NEWCOMER))
def test_a_newcomer_finds_it_in_two_clicks(wanted: str) -> None:
    """From the nav: a title that names it, at most one sub-section deep (Material opens the
    top-level sections), and on its page the heading that answers it."""
    words, page, heading = NEWCOMER[wanted]
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    titles = [(t, d) for t, p, d in _nav_titles(config["nav"]) if p == page]
    assert titles and words.lower() in titles[0][0].lower(), (wanted, titles)
    assert titles[0][1] <= 2, (wanted, titles)
    if heading:
        assert heading in (DOCS / page).read_text(encoding="utf-8").splitlines(), wanted


def build_site(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``site``. Never ``--quiet``: it hides the
    warnings, and strict mode then has none to fail on."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(config), "--site-dir", str(site)],
                          cwd=config.parent, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path: Path) -> None:
    """A broken link or anchor, a page missing or outside the nav: the build fails."""
    out = build_site(ROOT / "mkdocs.yml", tmp_path / "site")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "WARNING" not in out.stderr, out.stderr
    assert (tmp_path / "site" / "cli" / "index.html").exists()


@pytest.mark.slow
def test_the_strict_build_fails_on_a_broken_anchor_and_an_orphan(tmp_path: Path) -> None:
    """The same configuration on a two-page copy: a link to a missing anchor and a page left
    out of the nav each fail the build."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[there](other.md#nowhere)\n")
    (docs / "other.md").write_text("# Other\n")
    (docs / "orphan.md").write_text("# Orphan\n")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["nav"] = ["index.md", "other.md"]
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    out = build_site(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert out.returncode != 0
    assert "#nowhere" in out.stderr and "orphan.md" in out.stderr, out.stderr


def test_the_cli_reference_is_the_commands_own() -> None:
    on_disk = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert on_disk == reference_markdown(), (
        "docs/cli.md is stale: run `python -m ofc_cli.reference > docs/cli.md`")


# --------------------------------------------------------------------------------------------
# What is, not how it got there

FORBIDDEN = {
    "a run date": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"),
    "a commit id": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"),
    "a branch or run nickname": re.compile(
        r"\btenm\d*\b|\bwt\d+\b|\bthis branch\b|\banother engineer|\bhelpers? \"", re.I),
    "an issue number": re.compile(r"\bissues? \d+", re.I),
}
"""What a guide does not say (dates and commits of runs go to docs/benchmarks.md's tables,
history to CHANGELOG.md). Code (blocks and spans) is data and may hold dates: a log's."""

_CODE = re.compile(r"```.*?```|`[^`]+`", re.S)
"""Fenced blocks, then code spans (a span may run over a line break)."""


def prose(text: str) -> list[str]:
    """The lines of a page with its code (blocks and spans) blanked, lines kept in place."""
    return _CODE.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()


def forbidden(line: str) -> list[str]:
    """What a line of prose says that a guide does not.

    >>> forbidden('Measured on 2026-12-02 at 8e09b35 (helper "tenm3").')
    ['a run date', 'a commit id', 'a branch or run nickname']
    >>> forbidden("See decade and facade, and issue 41.")
    ['an issue number']
    """
    return [what for what, pattern in FORBIDDEN.items() if pattern.search(line)]


PENDING: set[str] = set()
"""Pages being rewritten on other branches at the moment (none: every page is held)."""


@pytest.mark.parametrize("page", [p for p in GUIDES if p.name not in PENDING],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_guide_says_what_is(page: Path) -> None:
    lines = prose(page.read_text(encoding="utf-8"))
    found = [f"{page.name}:{n}: {', '.join(why)}: {line.strip()[:100]}"
             for n, line in enumerate(lines, 1) if (why := forbidden(line))]
    assert not found, "\n".join(found)
    assert len(lines) <= MAX_LINES, f"{page.name}: {len(lines)} lines (at most {MAX_LINES})"


def test_the_records_stay_short() -> None:
    assert len((DOCS / "benchmarks.md").read_text().splitlines()) <= MAX_LINES


# --------------------------------------------------------------------------------------------
# The code of the docs runs

BLOCKS = [b for p in [*PAGES, ROOT / "README.md"] if p.name not in PENDING
          for b in code_blocks(p)]


def _block_id(block: CodeBlock) -> str:
    return f"{block.page}:{block.line}"


def _commands(block: CodeBlock) -> list[list[str]]:
    """The ``ofc`` commands of a shell block, each as its words up to a redirection or pipe
    (``.venv/bin/ofc`` and ``ofc``; continuation lines joined)."""
    text = block.text.replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        for start, word in enumerate(words):
            if word in ("ofc", ".venv/bin/ofc") and (start == 0 or words[start - 1] in (
                    "&&", ";", "|", "do", "then")):
                cut = [k for k, w in enumerate(words) if k > start and (
                    w in ("&&", ";", "|", ">", "<", "2>", ">>") or w.startswith(">"))]
                found.append(words[start + 1:cut[0] if cut else len(words)])
    return found


SHELL_BLOCKS = [b for b in BLOCKS if b.lang in SHELL]


@pytest.mark.parametrize("block", [b for b in SHELL_BLOCKS if b.example], ids=_block_id)
def test_an_example_commands_still_parse(block: CodeBlock) -> None:
    """An example is not run, but its ``ofc`` commands name real commands and options."""
    parser = build_parser()
    for words in _commands(block):
        if any(w.startswith("$") for w in words):
            continue  # a shell variable stands for arguments shown elsewhere
        try:
            parser.parse_known_args(words)
        except SystemExit:
            pytest.fail(f"{_block_id(block)}: `ofc {' '.join(words)}` does not parse")
        args, extra = parser.parse_known_args(words)
        assert not [w for w in extra if w.startswith("-")], (_block_id(block), extra)


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in SHELL_BLOCKS if not b.example], ids=_block_id)
def test_a_shell_block_runs(block: CodeBlock, tmp_path: Path) -> None:
    """Run from the repository's root on a fresh database (``OFC_DB``; ``TMPDIR`` a fresh
    folder for the files it writes), ``ofc`` from this interpreter."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "OFC_DB": str(tmp_path / "docs.duckdb"), "TMPDIR": str(tmp_path),
           "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    text = block.text.replace(".venv/bin/", "")
    out = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"{_block_id(block)}:\n{out.stdout}\n{out.stderr}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "python"], ids=_block_id)
def test_a_python_block_runs(block: CodeBlock, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Executed as written, in a fresh namespace, with a fresh database as the default."""
    monkeypatch.setenv("OFC_DB", str(tmp_path / "docs.duckdb"))
    monkeypatch.chdir(ROOT)
    exec(compile(block.text, _block_id(block), "exec"), {"__name__": "docs"})  # noqa: S102
