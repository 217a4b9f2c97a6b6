"""The host's side of the worker framing (``protocol``): reading frames and replies with asyncio.

Kept apart from ``protocol`` so the worker template, which every call forks, does not import
asyncio (each module it holds makes every fork and every call's exit a little dearer).
"""

from __future__ import annotations

import asyncio

from bs4_env.sandbox.protocol import (
    LENGTH,
    OUTPUT_SECTIONS,
    REPORT_CAP,
    Message,
    ProtocolError,
    Section,
    check_length,
    decode,
    sizes_of,
)


async def read_frame(reader: asyncio.StreamReader) -> Message:
    """Read one frame (host side); raises ``asyncio.IncompleteReadError`` at end of stream."""
    header = await reader.readexactly(LENGTH.size)
    body = await reader.readexactly(check_length(LENGTH.unpack(header)[0]))
    return decode(body)


async def read_reply(
    reader: asyncio.StreamReader, output_limit: int
) -> tuple[Message, dict[str, Section]]:
    """Read a reply frame and its raw sections (host side)."""
    header = await read_frame(reader)
    kept = sizes_of(header, OUTPUT_SECTIONS, 2 * output_limit + REPORT_CAP)
    dropped = header.get("dropped")
    if not isinstance(dropped, list) or len(dropped) != len(OUTPUT_SECTIONS):
        raise ProtocolError(f"bad dropped counts {dropped!r}")
    if kept[0] > output_limit or kept[1] > output_limit or kept[2] > REPORT_CAP:
        raise ProtocolError(f"sections {kept} exceed the limits")
    sections = {}
    for name, size, lost in zip(OUTPUT_SECTIONS, kept, dropped, strict=True):
        if not isinstance(lost, int) or lost < 0:
            raise ProtocolError(f"bad dropped count {lost!r}")
        sections[name] = Section(await reader.readexactly(size) if size else b"", lost)
    return header, sections
