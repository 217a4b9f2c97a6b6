"""The seccomp filter as data: run through a small classic-BPF interpreter it answers every
syscall number and the argument cases that matter exactly as the policy says, in few steps;
the per-call patch equals a fresh assembly; the assembler refuses jumps classic BPF cannot
encode. (Its effect in the kernel is tested by the escape suite.)"""

from __future__ import annotations

import errno
import struct

import pytest

from bs4_env.sandbox import seccomp
from bs4_env.sandbox.bpf import JEQ_K, JGE_K, JSET_K, LD_W_ABS, RET_K, Instruction, Program
from bs4_env.sandbox.syscalls import (
    CLONE_NEWCGROUP,
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    CLONE_THREAD,
)

ALLOW, EPERM, ENOSYS = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
KILL_PROCESS = 0x80000000
X86_64, I386 = 0xC000003E, 0x40000003
PID = 4321
ARGS = (0, 1, PID, -PID, PID + 1, -1, CLONE_THREAD, CLONE_THREAD | CLONE_NEWUSER,
        CLONE_THREAD | CLONE_NEWCGROUP, CLONE_NEWNET)  # fmt: skip


def _run(program: list[Instruction], nr: int, arch: int, args: tuple[int, ...]) -> tuple[int, int]:
    """(action, instructions executed) of ``program`` on one ``struct seccomp_data``."""
    data = struct.pack("<IIQ6Q", nr, arch, 0, *(a & (2**64 - 1) for a in args))
    pc, acc, steps = 0, 0, 0
    while True:
        code, jt, jf, k = program[pc]
        steps += 1
        if code == RET_K:
            return k, steps
        if code == LD_W_ABS:
            acc, pc = struct.unpack_from("<I", data, k)[0], pc + 1
            continue
        taken = {JEQ_K: acc == k, JGE_K: acc >= k, JSET_K: bool(acc & k)}[code]
        pc += 1 + (jt if taken else jf)


def _expected(nr: int, arch: int, a0: int, a1: int) -> int:
    """The policy of ``seccomp``'s docstring, written out case by case."""
    a0 &= 0xFFFFFFFF
    me, group = PID, (-PID) & 0xFFFFFFFF
    if arch != X86_64:
        return KILL_PROCESS
    if nr >= 0x40000000 or nr in seccomp.DENIED_X86_64.values():
        return EPERM
    if nr == 435:  # clone3: libc falls back to clone
        return ENOSYS
    if nr == 56:  # clone: threads only, no namespaces
        namespaces = a0 & (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER
                           | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP)  # fmt: skip
        return ALLOW if a0 & CLONE_THREAD and not namespaces else EPERM
    if nr == 62:  # kill: itself or its own group
        return ALLOW if a0 in (0, me, group) else EPERM
    if nr == 141:  # setpriority(PRIO_PROCESS, self)
        return ALLOW if a0 == 0 and a1 in (0, me) else EPERM
    if nr in seccomp.SELF_OR_ZERO_X86_64.values():
        return ALLOW if a0 in (0, me) else EPERM
    if nr in seccomp.SELF_ONLY_X86_64.values():
        return ALLOW if a0 == me else EPERM
    return ALLOW


def test_filter_answers_every_syscall_as_the_policy_says_in_few_steps() -> None:
    program = seccomp.program_for(PID)
    numbers = [*range(600), 0x40000000, 0x40000000 + 41, 0xFFFFFFFF]
    most = 0
    for arch in (X86_64, I386):
        for nr in numbers:
            for a0 in ARGS:
                for a1 in (0, PID, 5) if nr == 141 else (0,):
                    action, steps = _run(program, nr, arch, (a0, a1, 0, 0, 0, 0))
                    assert action == _expected(nr, arch, a0, a1), (hex(arch), nr, a0, a1)
                    most = max(most, steps)
    # A binary search over ~110 numbers (a chain of comparisons took up to ~115 steps): the
    # kernel emulates the filter for every syscall number at each install, a per-call cost.
    assert most <= 20


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
