"""A tiny classic-BPF assembler for seccomp filters: instructions with symbolic jump targets.

Classic BPF jumps only forward, by at most 255 instructions, and counts offsets from the next
instruction; writing those by hand is where filters go wrong. Here a jump names a label and
``assemble`` computes (and checks) every offset.
"""

from __future__ import annotations

from dataclasses import dataclass

LD_W_ABS = 0x20
JEQ_K = 0x15
JGE_K = 0x35
JSET_K = 0x45
RET_K = 0x06
_MAX_JUMP = 255

Instruction = tuple[int, int, int, int]  # (code, jt, jf, k), as in ``struct sock_filter``


@dataclass(frozen=True)
class _Op:
    code: int
    k: int
    true: str | None = None  # label jumped to when the test holds; None = next instruction
    false: str | None = None


class Program:
    """Builds a filter: ``load``, ``jump``, ``ret`` and ``label``, then ``assemble``."""

    def __init__(self) -> None:
        self._ops: list[_Op] = []
        self._labels: dict[str, int] = {}

    def label(self, name: str) -> None:
        """Name the next instruction."""
        if name in self._labels:
            raise ValueError(f"label {name!r} defined twice")
        self._labels[name] = len(self._ops)

    def load(self, offset: int) -> None:
        """Load the 32-bit word at ``offset`` of ``struct seccomp_data`` into the accumulator."""
        self._ops.append(_Op(LD_W_ABS, offset))

    def jump(self, code: int, k: int, true: str | None = None, false: str | None = None) -> None:
        """A conditional jump (``JEQ_K``, ``JGE_K`` or ``JSET_K`` against ``k``)."""
        if code not in (JEQ_K, JGE_K, JSET_K):
            raise ValueError(f"not a conditional jump: {code:#x}")
        self._ops.append(_Op(code, k, true, false))

    def ret(self, value: int) -> None:
        """Return ``value`` (a ``SECCOMP_RET_*`` action) for the current system call."""
        self._ops.append(_Op(RET_K, value))

    def assemble(self, constants: dict[int, int] | None = None) -> list[Instruction]:
        """Resolve labels into offsets; ``constants`` replaces placeholder ``k`` values."""
        swap = constants or {}
        program: list[Instruction] = []
        for index, op in enumerate(self._ops):
            program.append(
                (op.code, self._offset(index, op.true), self._offset(index, op.false),
                 swap.get(op.k, op.k))
            )  # fmt: skip
        return program

    def _offset(self, index: int, target: str | None) -> int:
        if target is None:
            return 0
        if target not in self._labels:
            raise ValueError(f"jump to undefined label {target!r}")
        offset = self._labels[target] - index - 1
        if not 0 <= offset <= _MAX_JUMP:
            raise ValueError(f"jump from {index} to {target!r} spans {offset} instructions")
        return offset
