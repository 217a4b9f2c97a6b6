"""The worker's reply frame, written out by hand, is exactly what ``json.dumps`` would send."""

from __future__ import annotations

import pytest

from bs4_env.sandbox.protocol import LENGTH, ProtocolError, decode, encode, reply_frame

CASES = [
    (0, 0.0123, None, False, [3, 0, 33], [0, 0, 0]),
    (None, 10.000001, None, True, [65536, 12, 0], [7, 1 << 40, 0]),
    (-9, 1e-07, 'sandbox setup failed: OSError(1, "no \\\\ way")', True, [0, 0, 0], [0, 0, 0]),
    (255, 3.5, "caf\u00e9 \ud800 \n\t \u2028", False, [1, 2, 3], [4, 5, 6]),
]


@pytest.mark.parametrize("case", CASES)
def test_reply_frame_is_the_json_encoding(case: tuple) -> None:
    exit_code, duration, infra, restart, kept, dropped = case
    expected = encode({
        "exit_code": exit_code, "timed_out": exit_code is None, "duration_s": duration,
        "infra_error": infra, "restart": restart, "sizes": kept, "dropped": dropped,
    })  # fmt: skip
    frame = reply_frame(exit_code, duration, infra, restart, kept, dropped)
    assert frame == expected
    assert decode(frame[LENGTH.size :])["infra_error"] == infra


def test_reply_frame_refuses_what_json_could_not_carry() -> None:
    with pytest.raises(ProtocolError, match="not finite"):
        reply_frame(0, float("nan"), None, False, [0, 0, 0], [0, 0, 0])
    with pytest.raises(ProtocolError, match="need 3 sizes"):
        reply_frame(0, 1.0, None, False, [0, 0], [0, 0, 0])


@pytest.mark.parametrize(
    "body", [b"", b"[1]", b'{"a":1} x', b'{"a":1}{}', b'{"a":', b"\xff{}", b" {}", b"nul"]
)
def test_decode_refuses_anything_but_one_compact_object(body: bytes) -> None:
    with pytest.raises(ProtocolError, match=r"bad frame|not a JSON object"):
        decode(body)


def test_decode_reads_what_encode_writes() -> None:
    message = {"op": "run", "timeout_s": 2.5, "sizes": [1, 0, 3], "q": "caf\u00e9 \ud800 \u2028"}
    assert decode(encode(message)[LENGTH.size :]) == message
