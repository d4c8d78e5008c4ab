"""Turning the bytes of an uploaded or imported log into text, strictly.

Logs come from phones, spreadsheets and Windows editors: UTF-8 with or without a byte order mark,
UTF-16 with one, CRLF line ends. Text is never decoded with ``errors="replace"``: a file that is
not one of these raises :class:`DecodeError` with a message saying what to do. Line ends are
normalised to ``\\n``; non-breaking spaces are kept (they are part of names, and
:func:`ofc_core.cards.parse_cards` treats them as spaces between cards).

>>> decode_bytes(b"\\xef\\xbb\\xbfann\\r\\nbob\\r\\n", "a.txt")
'ann\\nbob\\n'
>>> decode_bytes("Ж\\u00a01".encode("utf-16"), "b.txt")
'Ж\\xa01'
>>> decode_bytes(b"caf\\xe9", "c.txt")
Traceback (most recent call last):
...
ingest.formats.encoding.DecodeError: c.txt: not UTF-8 text (byte 0xe9 at offset 3, line 1); save \
the file as UTF-8 (or UTF-16 with a byte order mark)
"""

from __future__ import annotations

import codecs

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class DecodeError(ValueError):
    """The bytes are not text in an encoding we read; the message names the file."""


def _encoding(data: bytes) -> tuple[str, bytes]:
    """The encoding named by the byte order mark (UTF-8 without one) and the bytes after it."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, data[len(bom):]
    return "utf-8", data


def decode_bytes(data: bytes, filename: str) -> str:
    """Text of a log file: UTF-8 (BOM optional) or UTF-16/32 with a BOM, line ends as ``\\n``."""
    encoding, body = _encoding(data)
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as exc:
        label = "UTF-8" if encoding == "utf-8" else encoding.upper()
        byte = body[exc.start]
        before = body[:exc.start].decode(encoding, errors="replace")
        line = _line_of(before, len(before))
        raise DecodeError(
            f"{filename}: not {label} text (byte 0x{byte:02x} at offset "
            f"{exc.start + len(data) - len(body)}, line {line}); save the file as UTF-8 (or "
            "UTF-16 with a byte order mark)"
        ) from None
    if "\x00" in text:
        raise DecodeError(f"{filename}: contains NUL characters (first on line "
                          f"{_line_of(text, text.index(chr(0)))}), so it is binary or UTF-16 "
                          "without a byte order mark; save it as UTF-8")
    if "\r" not in text:  # the usual case: no copy of a big file
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _line_of(text: str, offset: int) -> int:
    """The 1-based line of ``text[offset]``, line ends read as :func:`decode_bytes` reads them.

    >>> _line_of("a\\r\\nb\\rc\\nd", 7)
    4
    """
    return text[:offset].replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
