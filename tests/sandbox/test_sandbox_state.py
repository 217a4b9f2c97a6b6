"""Nothing of one call survives into the next: not in SysV IPC, not in the process image.

Each test runs two calls on a one-worker pool (so both run on the same worker): the first on
one task's page and query, the second on another's, looking for the first's data.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bs4_env.sandbox.base import ExecRequest
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.tasks.registry import build_task
from tests.sandbox.conftest import MODES, executor_options

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=MODES)
async def one_worker(request: pytest.FixtureRequest) -> AsyncIterator[LocalExecutor]:
    sandbox = LocalExecutor(pool_size=1, max_pool_size=1, **executor_options(request.param))
    await sandbox.start()
    yield sandbox
    await sandbox.aclose()


STORE_IN_SYSV = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
secret = QUERY.encode()
shmid = libc.shmget(0x0B5E1000, 4096, 0o1666)
if shmid >= 0:
    address = libc.shmat(shmid, None, 0)
    ctypes.memmove(address, secret, len(secret))
queue = libc.msgget(0x0B5E1001, 0o1666)
if queue >= 0:
    message = (1).to_bytes(8, "little") + secret
    libc.msgsnd(queue, message, len(secret), 0)
print("stored", shmid, queue)
"""
READ_SYSV = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
shmid = libc.shmget(0x0B5E1000, 0, 0)
if shmid >= 0:
    print("shm:", ctypes.string_at(libc.shmat(shmid, None, 0o10000), 64))
queue = libc.msgget(0x0B5E1001, 0)
if queue >= 0:
    buffer = ctypes.create_string_buffer(8 + 64)
    size = libc.msgrcv(queue, buffer, 64, 0, 0o4000)
    print("msg:", buffer.raw[8 : 8 + max(size, 0)])
try:
    print("segments:", open("/proc/sysvipc/shm").read().splitlines()[1:])
except OSError as error:
    print("segments unreadable:", error)
"""


async def test_sysv_ipc_does_not_survive_between_calls(one_worker: LocalExecutor) -> None:
    secret = f"QUERY-{secrets.token_hex(8)}"
    first = await one_worker.run(ExecRequest(STORE_IN_SYSV, "<p>task one</p>", query=secret))
    assert first.ok, first
    assert first.stdout == "stored -1 -1\n", first  # SysV IPC is refused outright
    second = await one_worker.run(ExecRequest(READ_SYSV, "<p>task two</p>", query="other"))
    assert second.ok, second
    assert secret not in second.stdout + second.stderr, second
    assert "shm:" not in second.stdout and "msg:" not in second.stdout, second


# Scans every readable mapping of its own process for tokens of the form MARK-<16 hex>.
# Its own code holds the marker but never a token, so any token found came from elsewhere.
# (After a uid change the process is not dumpable; it makes itself dumpable again first.)
SCAN_OWN_MEMORY = """
import ctypes, re
ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)
pattern = re.compile(rb"RESIDUE-([0-9a-f]{16})")
found = set()
with open("/proc/self/maps") as maps:
    regions = [line.split() for line in maps]
with open("/proc/self/mem", "rb", buffering=0) as memory:
    for fields in regions:
        if not fields[1].startswith("r") or fields[-1] in ("[vvar]", "[vsyscall]", "[vvar_vclock]"):
            continue
        start, end = (int(value, 16) for value in fields[0].split("-"))
        try:
            memory.seek(start)
            data = memory.read(end - start)
        except (OSError, OverflowError, ValueError):
            continue
        found.update(match.group(1).decode() for match in pattern.finditer(data))
print(sorted(found))
"""


async def test_a_call_never_sees_another_calls_data_in_memory(one_worker: LocalExecutor) -> None:
    page, query, code = (secrets.token_hex(8) for _ in range(3))
    # A real task's page (sizes like these live in the malloc heap, not in small-object pools).
    real = build_task("login_form_secret", 3, "eval").html
    html = real.replace("<head>", f"<head><title>RESIDUE-{page}</title>", 1).replace(
        "<form", f"<form id='RESIDUE-{page}'", 1
    )
    assert html.count(f"RESIDUE-{page}") == 2 and len(html) > 4000
    program = f"x = 'RESIDUE-{code}'\nimport os\nprint('RESIDUE-' + os.urandom(8).hex())"
    first = await one_worker.run(ExecRequest(program, html, query=f"RESIDUE-{query}"))
    assert first.ok, first
    printed = first.stdout.strip().removeprefix("RESIDUE-")
    own = secrets.token_hex(8)  # the scanner's own page: it must find this one
    scan = await one_worker.run(ExecRequest(SCAN_OWN_MEMORY, f"<p>RESIDUE-{own}</p>", query="q"))
    assert scan.ok and own in scan.stdout, scan
    leaked = {page: "page", query: "query", code: "code", printed: "output"}
    found = [leaked[token] for token in leaked if token in scan.stdout]
    assert found == [], f"the next call found the previous call's {found}"


async def test_output_of_one_call_never_reaches_the_next(one_worker: LocalExecutor) -> None:
    # A worker keeps one memfd per stream for all its calls: each reply sends only its own
    # call's bytes, counts only its own drops, and the memfd is emptied before the next fork.
    loud = await one_worker.run(ExecRequest("print('L' * 20_000)\nimport sys\n"
                                            "sys.stderr.write('E' * 9_000)", "<p>one</p>",
                                            max_output_bytes=8_000))  # fmt: skip
    assert loud.ok and loud.stdout.startswith("L" * 8_000), loud
    assert (loud.stdout_truncated_bytes, loud.stderr_truncated_bytes) == (12_001, 1_000)
    quiet = await one_worker.run(ExecRequest("print('q')", "<p>two</p>", max_output_bytes=8_000))
    assert (quiet.stdout, quiet.stderr) == ("q\n", ""), quiet
    assert (quiet.stdout_truncated_bytes, quiet.stderr_truncated_bytes) == (0, 0)
    assert quiet.soup_parses == 0
