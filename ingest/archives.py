"""Zips of logs, unpacked with caps on members, unpacked size and compression ratio, so a zip
bomb is refused with a message instead of filling memory; and the per-file size limit of
uploads. ``ofc import`` unpacks the zips it is given with these limits, the dashboard its
uploads.

>>> import io, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
...     z.writestr("a.jsonl", "{}\\n")
...     z.writestr("__MACOSX/._a.jsonl", "x")
>>> out = unpack([("logs.zip", buf.getvalue()), ("b.txt", b"hand")])
>>> [name for name, _ in out.files], out.refused
(['logs.zip/a.jsonl', 'b.txt'], ())
>>> unpack([("big.txt", b"x" * 11)], Limits(max_file_bytes=10)).refused[0].reason
'11 B is over the 10 B upload limit'
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass

MAX_UPLOAD_MB = 200
"""Per file; ``ofc dashboard`` sets Streamlit's ``server.maxUploadSize`` to the same value."""


@dataclass(frozen=True, slots=True)
class Limits:
    max_file_bytes: int = MAX_UPLOAD_MB * 1024 * 1024
    max_members: int = 2000
    max_unpacked_bytes: int = 1024 * 1024 * 1024
    max_ratio: float = 100.0
    """Largest unpacked/packed size ratio of a member or a whole zip (text logs pack ~5-15x)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    file: str
    reason: str


@dataclass(frozen=True, slots=True)
class Unpacked:
    files: tuple[tuple[str, bytes], ...]
    """(name, content) for the importer; zip members are named ``zipname/member``."""
    refused: tuple[Refusal, ...]


def size_text(n: float) -> str:
    """``size_text(1536) == '1.5 KB'``"""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def _skipped(name: str) -> bool:
    """Folders and OS clutter inside zips (``__MACOSX/``, dotfiles)."""
    base = name.rsplit("/", 1)[-1]
    return name.endswith("/") or name.startswith("__MACOSX/") or base.startswith(".") or not base


def _read_member(z: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """Read at most ``info.file_size`` bytes (and never more than ``budget``): a member whose
    header lies about its size is refused."""
    cap = min(info.file_size, budget)
    with z.open(info) as fp:
        data = fp.read(cap + 1)
    if len(data) > cap:
        raise ValueError("unpacks to more than its header says (a zip bomb?)")
    return data


def _unzip(name: str, data: bytes, limits: Limits) -> tuple[list[tuple[str, bytes]],
                                                            list[Refusal]]:
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except Exception:  # a damaged zip raises BadZipFile, UnicodeDecodeError, EOFError, ...
        return [], [Refusal(name, "not a readable zip file")]
    with z:
        members = [i for i in z.infolist() if not _skipped(i.filename)]
        total = sum(i.file_size for i in members)
        if len(members) > limits.max_members:
            return [], [Refusal(name, f"{len(members)} files is over the limit of "
                                      f"{limits.max_members} per zip")]
        if total > limits.max_unpacked_bytes:
            return [], [Refusal(name, f"unpacks to {size_text(total)}, over the limit of "
                                      f"{size_text(limits.max_unpacked_bytes)}")]
        worst = max((i.file_size / max(i.compress_size, 1) for i in members), default=0.0)
        if worst > limits.max_ratio or total / max(len(data), 1) > limits.max_ratio:
            return [], [Refusal(name, f"refused as a likely zip bomb: it expands "
                                      f"{max(worst, total / max(len(data), 1)):.0f} times "
                                      f"(limit {limits.max_ratio:.0f})")]
        files: list[tuple[str, bytes]] = []
        refused: list[Refusal] = []
        budget = limits.max_unpacked_bytes
        for info in members:
            where = f"{name}/{info.filename}"
            if info.filename.lower().endswith(".zip"):
                refused.append(Refusal(where, "zips inside zips are not unpacked"))
                continue
            try:
                content = _read_member(z, info, budget)
            except Exception as exc:  # damaged data: zlib.error, LZMAError, EOFError, ...
                refused.append(Refusal(where, f"cannot unpack: {exc or type(exc).__name__}"))
                continue
            budget -= len(content)
            files.append((where, content))
        return files, refused


def is_zip(name: str, data: bytes) -> bool:
    return name.lower().endswith(".zip") or data[:4] == b"PK\x03\x04"


def unpack(uploads: Iterable[tuple[str, bytes]], limits: Limits = Limits()) -> Unpacked:
    """Check each upload and unpack zips; what cannot be taken is refused with a reason."""
    files: list[tuple[str, bytes]] = []
    refused: list[Refusal] = []
    for name, data in uploads:
        if len(data) > limits.max_file_bytes:
            refused.append(Refusal(name, f"{size_text(len(data))} is over the "
                                         f"{size_text(limits.max_file_bytes)} upload limit"))
        elif is_zip(name, data):
            got, bad = _unzip(name, data, limits)
            files += got
            refused += bad
        else:
            files.append((name, data))
    return Unpacked(tuple(files), tuple(refused))
