"""The docs site's facts that tests read: the dashboard's pages by its own list, the pages the
docs' Pages table names, and the code blocks of the guides (``tests/test_site.py``,
``tests/test_recipes.py``, ``tests/test_browser_analysis.py``)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def app_pages() -> dict[str, str]:
    """URL path -> title of every page of ``dashboard/app.py``'s ``PAGES`` (read with ``ast``:
    no Streamlit is imported), the default page at ``/``."""
    tree = ast.parse((ROOT / "dashboard" / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "PAGES" and node.value is not None):
            rows = ast.literal_eval(node.value)
            return {f"/{url}": title for _source, title, _icon, url in rows}
    raise AssertionError("dashboard/app.py has no PAGES")


def documented_pages() -> dict[str, str]:
    """URL path -> page title, from the Pages table of docs/dashboard.md (a row naming several
    pages gives their paths in the same order)."""
    doc = (DOCS / "dashboard.md").read_text(encoding="utf-8")
    table = doc[doc.index("| page | URL path |"):]
    table = table[:table.index("\n\n")]
    pages: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        cells = line.split("|")
        titles = [t.strip() for t in cells[1].split(",")]
        paths = re.findall(r"`(/[a-z_]*)`", cells[2])
        for title, path in zip(titles * len(paths) if len(titles) == 1 else titles, paths,
                               strict=False):
            pages[path] = title
    return pages


@dataclass(frozen=True)
class CodeBlock:
    """A fenced code block of a docs page: its language, its text, where it starts, and
    whether the line before it marks it as an example (``<!-- example -->``)."""

    page: str
    line: int
    lang: str
    text: str
    example: bool


EXAMPLE_MARK = "<!-- example -->"
"""Written on the line before a code block that shows a command without being run by the
suite (it needs a poker client's folder, a server, a long run): docs/testing.md."""

_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


def code_blocks(path: Path) -> list[CodeBlock]:
    """Every fenced block of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[CodeBlock] = []
    k = 0
    while k < len(lines):
        found = _FENCE.match(lines[k])
        if not found:
            k += 1
            continue
        start, lang, body = k, found.group(2), []
        indent = len(found.group(1))  # a block inside a list item: its lines share the indent
        k += 1
        while k < len(lines) and not lines[k].strip().startswith("```"):
            body.append(lines[k][indent:] if lines[k][:indent].isspace() else lines[k])
            k += 1
        before = next((lines[j].strip() for j in range(start - 1, -1, -1)
                       if lines[j].strip()), "")
        blocks.append(CodeBlock(path.relative_to(ROOT).as_posix(), start + 1, lang,
                                "\n".join(body), before == EXAMPLE_MARK))
        k += 1
    return blocks
