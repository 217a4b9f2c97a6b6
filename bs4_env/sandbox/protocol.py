"""Framing between the host pool and its warm workers.

A frame is a 4-byte big-endian length and compact JSON. A ``run`` request is a frame holding
only limits and section sizes, followed by the raw payload (code, page, query, report key);
the worker reads the frame and its forked call reads the payload, so the worker itself never
holds task data. The reply is a frame with the verdict and section sizes, followed by the raw
stdout, stderr and report bytes, which the worker moves with ``splice`` without reading them.
The host's asynchronous readers live in ``host_protocol``: the worker, whose memory every call
copies, never imports asyncio.
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LENGTH = struct.Struct(">I")
MAX_FRAME_BYTES = 1 << 20
MAX_PAYLOAD_BYTES = 64 << 20
REPORT_CAP = 4096
PAYLOAD_SECTIONS = ("code", "html", "query", "key")
OUTPUT_SECTIONS = ("stdout", "stderr", "report")
ENCODING = ("utf-8", "surrogatepass")  # lone surrogates in model code survive the trip

Message = dict[str, Any]


class ProtocolError(Exception):
    """The peer sent something that is not a valid frame."""


def encode(message: Message) -> bytes:
    """One frame: a 4-byte big-endian length, then compact JSON."""
    body = json.dumps(message, separators=(",", ":")).encode()
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {len(body)} bytes exceeds {MAX_FRAME_BYTES}")
    return LENGTH.pack(len(body)) + body


_REPLY = (
    '{{"exit_code":{},"timed_out":{},"duration_s":{!r},"infra_error":{},"restart":{},'
    '"sizes":[{},{},{}],"dropped":[{},{},{}]}}'
)


def reply_frame(
    exit_code: int | None, duration_s: float, infra_error: str | None, restart: bool,
    kept: list[int], dropped: list[int],
) -> bytes:  # fmt: skip
    """A reply header frame, the JSON of ``encode`` written out, not ``json.dumps``'d.

    The worker sends one per call, and after each fork every page the worker writes is
    copied or re-claimed: the encoder's per-call objects and caches wrote ~50 of them.
    """
    if len(kept) != len(OUTPUT_SECTIONS) or len(dropped) != len(OUTPUT_SECTIONS):
        raise ProtocolError(f"need {len(OUTPUT_SECTIONS)} sizes, got {kept!r} / {dropped!r}")
    if not math.isfinite(duration_s):
        raise ProtocolError(f"duration {duration_s!r} is not finite")
    body = _REPLY.format(
        "null" if exit_code is None else int(exit_code),
        "true" if exit_code is None else "false",
        duration_s,
        "null" if infra_error is None else json.dumps(infra_error),
        "true" if restart else "false",
        *(int(n) for n in kept),
        *(int(n) for n in dropped),
    ).encode()
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {len(body)} bytes exceeds {MAX_FRAME_BYTES}")
    return LENGTH.pack(len(body)) + body


# json's C scanner itself: ``json.loads`` wraps it in Python steps (encoding detection, two
# whitespace regexes) that the worker, which decodes one frame per call, paid in copied pages.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # set in __init__, not in typeshed


def decode(body: bytes) -> Message:
    """A frame's JSON object (compact, as ``encode`` writes it: no surrounding whitespace)."""
    try:
        text = body.decode("utf-8")
        value, end = _SCAN(text, 0)
    except StopIteration as error:
        raise ProtocolError("bad frame: no JSON value") from error
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProtocolError(f"bad frame: {error}") from error
    if end != len(text):
        raise ProtocolError(f"bad frame: extra data after {end} characters")
    if not isinstance(value, dict):
        raise ProtocolError("frame is not a JSON object")
    return value


def check_length(length: int, limit: int = MAX_FRAME_BYTES) -> int:
    if length > limit:
        raise ProtocolError(f"frame of {length} bytes exceeds {limit}")
    return length


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to a blocking fd."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_frame_sync(fd: int, message: Message) -> None:
    """Write a whole frame to a blocking fd (worker side)."""
    write_all(fd, encode(message))


def read_exact_sync(fd: int, size: int) -> bytes | None:
    """Exactly ``size`` bytes from a blocking fd, never more; ``None`` at end of stream."""
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
    header = read_exact_sync(fd, LENGTH.size)
    if header is None:
        return None
    body = read_exact_sync(fd, check_length(LENGTH.unpack(header)[0]))
    if body is None:
        raise ProtocolError("stream ended inside a frame")
    return decode(body)


def sizes_of(message: Message, names: tuple[str, ...], limit: int) -> list[int]:
    """The validated section sizes of a frame (non-negative ints, ``limit`` in total)."""
    sizes = message.get("sizes")
    if not isinstance(sizes, list) or len(sizes) != len(names):
        raise ProtocolError(f"bad section sizes {sizes!r}")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in sizes):
        raise ProtocolError(f"bad section sizes {sizes!r}")
    if sum(sizes) > limit:
        raise ProtocolError(f"sections of {sum(sizes)} bytes exceed {limit}")
    return sizes


def run_request(code: str, html: str, query: str, key: str, timeout_s: float,
                max_output_bytes: int) -> bytes:  # fmt: skip
    """The bytes of one ``run`` request: header frame, then the payload sections."""
    sections = [text.encode(*ENCODING) for text in (code, html, query, key)]
    header = {
        "op": "run",
        "timeout_s": timeout_s,
        "max_output_bytes": max_output_bytes,
        "sizes": [len(s) for s in sections],
    }
    sizes_of(header, PAYLOAD_SECTIONS, MAX_PAYLOAD_BYTES)
    return encode(header) + b"".join(sections)


@dataclass(frozen=True)
class Section:
    """One output stream as the worker kept it: the first bytes, and how many it dropped."""

    data: bytes
    dropped: int


def parse_report(section: Section, key: str) -> int:
    """The parse count from a call's report, or 0 unless it is exactly one valid report.

    The report is written by our own code after the program ends, but model code shares the
    process and can write to the same descriptor: a garbled, duplicated, truncated or
    unkeyed report counts against the program. ``key`` is a per-call secret sent only in the
    payload, so writing a report blindly does not pass.
    """
    if section.dropped:
        return 0
    try:
        value = json.loads(section.data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return 0
    if not isinstance(value, dict) or set(value) != {"key", "soup_parses"}:
        return 0
    count = value["soup_parses"]
    if value["key"] != key or not isinstance(count, int) or isinstance(count, bool):
        return 0
    return max(0, count)
