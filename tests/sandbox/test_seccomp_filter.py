"""The seccomp filter as data: the per-call patch equals a fresh assembly; the assembler
refuses jumps classic BPF cannot encode. (Its effect is tested by the escape suite.)"""

from __future__ import annotations

import pytest

from bs4_env.sandbox import seccomp
from bs4_env.sandbox.bpf import JEQ_K, Program


@pytest.mark.parametrize("pids", [[1, 2], [4321, 77, 4321], [2**22, 1]])
def test_patched_filter_equals_a_fresh_assembly(pids: list[int]) -> None:
    seccomp.prepare()
    prepared = seccomp._prepared[0]
    for pid in pids:  # one template patched again and again, as a worker's calls do
        prepared.patch(pid)
        got = [(f.code, f.jt, f.jf, f.k) for f in prepared.filters]
        assert got == seccomp.program_for(pid)


def test_implausible_pids_are_refused() -> None:
    for pid in (0, -5, 0xFFFFFF01):
        with pytest.raises(ValueError, match="implausible pid"):
            seccomp.program_for(pid)


def test_assembler_refuses_what_bpf_cannot_encode() -> None:
    far = Program()
    far.jump(JEQ_K, 1, true="end")
    for _ in range(300):
        far.load(0)
    far.label("end")
    far.ret(0)
    with pytest.raises(ValueError, match="spans 300 instructions"):
        far.assemble()
    missing = Program()
    missing.jump(JEQ_K, 1, true="nowhere")
    with pytest.raises(ValueError, match="undefined label"):
        missing.assemble()
    twice = Program()
    twice.label("a")
    with pytest.raises(ValueError, match="defined twice"):
        twice.label("a")
