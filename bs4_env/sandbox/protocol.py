"""Framing between the host pool and its warm workers: length-prefixed JSON messages.

Requests carry only ``code``, ``query``, limits and the page (or the key of a page the
worker already holds); nothing else of the task ever crosses to a worker. Both sides keep
the same small LRU of page keys so a repeated page is sent once per worker.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import struct
from collections import OrderedDict
from typing import Any

_LENGTH = struct.Struct(">I")
MAX_FRAME_BYTES = 64 << 20
HTML_CACHE_SIZE = 8

Message = dict[str, Any]


class ProtocolError(Exception):
    """The peer sent something that is not a valid frame."""


def encode(message: Message) -> bytes:
    """One frame: a 4-byte big-endian length, then compact JSON."""
    body = json.dumps(message, separators=(",", ":")).encode()
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {len(body)} bytes exceeds {MAX_FRAME_BYTES}")
    return _LENGTH.pack(len(body)) + body


def _decode(body: bytes) -> Message:
    try:
        value = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProtocolError(f"bad frame: {error}") from error
    if not isinstance(value, dict):
        raise ProtocolError("frame is not a JSON object")
    return value


def _check_length(length: int) -> int:
    if length > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}")
    return length


def write_frame_sync(fd: int, message: Message) -> None:
    """Write a whole frame to a blocking fd (worker side)."""
    view = memoryview(encode(message))
    while view:
        view = view[os.write(fd, view) :]


def _read_exact_sync(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame_sync(fd: int) -> Message | None:
    """Read one frame from a blocking fd; ``None`` at a clean end of stream."""
    header = _read_exact_sync(fd, _LENGTH.size)
    if header is None:
        return None
    body = _read_exact_sync(fd, _check_length(_LENGTH.unpack(header)[0]))
    if body is None:
        raise ProtocolError("stream ended inside a frame")
    return _decode(body)


async def read_frame(reader: asyncio.StreamReader) -> Message:
    """Read one frame (host side); raises ``asyncio.IncompleteReadError`` at end of stream."""
    header = await reader.readexactly(_LENGTH.size)
    body = await reader.readexactly(_check_length(_LENGTH.unpack(header)[0]))
    return _decode(body)


def page_key(html: str) -> str:
    """A short content hash identifying a page in the worker's cache."""
    return hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class PageCache:
    """The LRU both sides run in lock-step: same operations, same evictions."""

    def __init__(self, size: int = HTML_CACHE_SIZE) -> None:
        self._size = size
        self._pages: OrderedDict[str, str] = OrderedDict()

    def __contains__(self, key: str) -> bool:
        return key in self._pages

    def get(self, key: str) -> str | None:
        """Look a page up and mark it most recently used."""
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: str, page: str) -> None:
        """Insert a page (the host stores ``""``: it only needs the keys)."""
        self._pages[key] = page
        self._pages.move_to_end(key)
        while len(self._pages) > self._size:
            self._pages.popitem(last=False)

    def clear(self) -> None:
        self._pages.clear()
