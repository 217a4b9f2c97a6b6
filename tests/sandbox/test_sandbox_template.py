"""The warm template's cost measures: huge pages, the workers' own package, the layer steps.

None of these is an isolation layer (the escape suite tests those); they keep a call cheap
without changing what it may do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import bs4_env
from bs4_env.sandbox import call_layers, hugepages, template
from bs4_env.sandbox.base import ExecRequest
from bs4_env.sandbox.local_backend import LocalExecutor
from bs4_env.sandbox.pool import PACKAGE_PARENT, WORKER_ENV
from tests.sandbox.conftest import MODES, NORMAL, executor_options

MAPS = """\
55d0c0a00000-55d0c0c00000 rw-p 00000000 00:00 0                          [heap]
7f0000000000-7f0000500000 rw-p 00000000 00:00 0
7f0000600000-7f0000700000 rw-s 00000000 00:05 12                         /dev/zero (deleted)
7f0000800000-7f0000a00000 r--p 00000000 00:00 0
7f0001000000-7f0001400000 rw-p 00001000 08:01 42                         /usr/lib/libfoo.so
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
"""


def test_only_private_writable_anonymous_memory_is_collapsed() -> None:
    assert hugepages.anonymous_ranges(MAPS) == [
        (0x55D0C0A00000, 0x55D0C0C00000),
        (0x7F0000000000, 0x7F0000500000),
    ]


@pytest.mark.parametrize(
    ("low", "high", "starts"),
    [
        (0x7F0000000000, 0x7F0000500000, [0x7F0000000000, 0x7F0000200000]),
        (0x7F0000001000, 0x7F0000400000, [0x7F0000200000]),
        (0x7F0000001000, 0x7F0000200000, []),  # no whole aligned huge page inside
        (0x7F0000200000, 0x7F0000400000, [0x7F0000200000]),
    ],
)
def test_aligned_chunks_lie_wholly_inside(low: int, high: int, starts: list[int]) -> None:
    chunks = hugepages.aligned_chunks(low, high)
    assert chunks == starts
    for start in chunks:
        assert start % hugepages.HUGE_PAGE == 0 and low <= start
        assert start + hugepages.HUGE_PAGE <= high


def test_every_per_call_layer_has_its_step() -> None:
    names = [name for name, _ in call_layers.STEPS]
    assert names == ["call namespaces + tmpfs", "scrubbed-env", "rlimits", "uid-drop",
                     "no-new-privs", "landlock", "seccomp"]  # fmt: skip


def test_workers_start_from_this_process_package() -> None:
    # With ``python -I`` a worker would import whatever bs4_env site-packages names.
    assert Path(PACKAGE_PARENT) / "bs4_env" == Path(bs4_env.__file__).resolve().parent
    assert set(WORKER_ENV) == {"PATH", "LANG", "PYTHONIOENCODING", "LD_BIND_NOW"}


async def test_worker_reports_its_huge_pages_and_calls_see_no_worker_environment() -> None:
    async with LocalExecutor(pool_size=1) as executor:
        assert isinstance(executor, LocalExecutor)
        result = await executor.run(NORMAL)
        assert result.ok, result
        (worker,) = executor._workers.values()
        size, declined = worker.huge_pages
        assert size % hugepages.HUGE_PAGE == 0 and isinstance(declined, str)
        cmdline = Path(f"/proc/{worker.pid}/cmdline").read_bytes().split(b"\0")
        assert PACKAGE_PARENT.encode() in cmdline
        env = await executor.run(ExecRequest("import os; print(sorted(os.environ))", ""))
        assert env.stdout.strip() == str(["HOME", "LANG", "PATH", "PYTHONIOENCODING", "TMPDIR"])


FDS = """
import os
held = []
for fd in range(1024):
    try:
        os.fstat(fd)
    except OSError:
        continue
    held.append(fd)
print(held)
"""


@pytest.mark.parametrize("mode", MODES)
async def test_model_code_holds_only_its_own_descriptors(mode: str) -> None:
    # The template keeps Landlock's prepared rules open (from landlock.FD_BASE); a call closes
    # its copies before model code runs, as it does the control and setup pipes.
    async with LocalExecutor(pool_size=1, **executor_options(mode)) as executor:
        result = await executor.run(ExecRequest(FDS, ""))
    assert result.ok, result
    assert result.stdout.strip() == "[0, 1, 2, 3]"  # /dev/null, stdout, stderr, the report


@pytest.mark.parametrize("mode", MODES)
async def test_each_call_draws_its_own_random_numbers(mode: str) -> None:
    # Calls are forked without os.fork's hooks; the worker reseeds random in each call.
    draw = ExecRequest("import random; print(random.getrandbits(64))", "")
    async with LocalExecutor(pool_size=1, max_pool_size=1, **executor_options(mode)) as executor:
        draws = [(await executor.run(draw)).stdout for _ in range(3)]
    assert len(set(draws)) == 3, draws


CAPABILITIES = """
fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
print([fields[name].strip() for name in ("CapInh", "CapPrm", "CapEff", "CapAmb")])
"""


@pytest.mark.parametrize("mode", MODES)
async def test_model_code_holds_no_capabilities(mode: str) -> None:
    # As root the uid change clears them; in a user namespace its creator holds them all,
    # whatever its uid, until the call's uid-drop step clears them with capset.
    async with LocalExecutor(pool_size=1, **executor_options(mode)) as executor:
        result = await executor.run(ExecRequest(CAPABILITIES, ""))
    assert result.ok, result
    assert result.stdout.strip() == str(["0000000000000000"] * 4), result


def test_a_template_with_a_second_thread_refuses_to_freeze() -> None:
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            stop = threading.Event()
            threading.Thread(target=stop.wait).start()
            try:
                template.freeze_template()
            except RuntimeError as error:
                code = 0 if "single-threaded" in str(error) else 2
            stop.set()
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def _fresh_interpreter(probe: str) -> str:
    """``probe``'s stdout from a fresh interpreter importing this checkout's bs4_env: this
    test process may already have built what a warm-up test asks about."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": PACKAGE_PARENT}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_warming_builds_bs4s_lazy_entity_tables_before_the_fork() -> None:
    # Otherwise each call over a page with a named entity rebuilds them (~18 ms CPU a call).
    # Runs in a fresh interpreter: this test process may have built them already.
    probe = (
        "from bs4.dammit import EntitySubstitution as E\n"
        "from bs4_env.sandbox.warm import warm\n"
        "before = E._CLASS_VARIABLES_POPULATED\n"
        "warm()\n"
        "print(before, E._CLASS_VARIABLES_POPULATED)"
    )
    assert _fresh_interpreter(probe).split() == ["False", "True"]


async def test_a_call_over_a_page_with_entities_finds_the_tables_built() -> None:
    program = (
        "from bs4.dammit import EntitySubstitution as E\n"
        "built = E._CLASS_VARIABLES_POPULATED\n"
        "print(built, make_soup().p.get_text())"
    )
    async with LocalExecutor(pool_size=1) as executor:
        result = await executor.run(ExecRequest(program, "<p>caf&eacute; &amp; co</p>"))
    assert result.ok, result
    assert result.stdout.strip() == "True café & co"


# Run in the interpreter under test (a fresh one, or a call's child): which of soupsieve's
# lazily built parts are still unbuilt (tokenizer patterns, pseudo-classes that stand for
# selectors). soupsieve internals, read here only to check ``warm`` reaches them all.
_SOUPSIEVE_UNBUILT = (
    "from soupsieve.css_parser import CSSParser, CSSPattern, SpecialPseudoPattern\n"
    "def unbuilt():\n"
    "    tokens = []\n"
    "    for token in CSSParser.CSS_TOKENS:\n"
    "        special = isinstance(token, SpecialPseudoPattern)\n"
    "        tokens += token.patterns.values() if special else [token]\n"
    "    names = sorted({t.name for t in tokens if t._re_pattern is None})\n"
    "    pseudo = CSSParser.PSEUDO_SELECTORS.data.items()\n"
    "    return names + sorted(k for k, v in pseudo if isinstance(v, CSSPattern))\n"
)


def test_warming_builds_soupsieves_lazy_patterns_before_the_fork() -> None:
    # Otherwise each call whose program uses :-soup-contains or :nth-child(n of S) compiles
    # them itself (15-25 ms CPU a call). Fresh interpreter: this process may have built them.
    probe = (
        f"{_SOUPSIEVE_UNBUILT}"
        "from bs4_env.sandbox.warm import warm\n"
        "before = unbuilt()\n"
        "warm()\n"
        "print(len(before) > 0, unbuilt())"
    )
    assert _fresh_interpreter(probe).split() == ["True", "[]"]


async def test_a_call_finds_soupsieves_patterns_built() -> None:
    found = "make_soup().select_one('p:-soup-contains(co)')"
    program = f"{_SOUPSIEVE_UNBUILT}print(unbuilt(), {found})"
    async with LocalExecutor(pool_size=1) as executor:
        result = await executor.run(ExecRequest(program, "<p>caf&eacute; &amp; co</p>"))
    assert result.ok, result
    assert result.stdout.strip() == "[] <p>café &amp; co</p>"
