"""The warm template a worker forks every call from: built once, then frozen.

``build_template`` imports and warms what model code uses, enters the worker's namespaces and
sets up its file system and the per-call layers; ``freeze_template`` then makes it as cheap
to fork as it can (see ``hugepages``). The worker and the layer benchmark
(``scripts/bench_sandbox_layers.py``) build the same template.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

from bs4_env.sandbox import call_layers, hugepages, isolation
from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.warm import rehearse_call, warm


def build_template(
    uid: int, workdir: str, user_namespaces: bool, outer_fds: tuple[int, ...]
) -> isolation.WorkerSetup:
    """Warm up, enter the namespaces, set up the file system and decide the per-call layers.

    With a PID namespace this returns in its PID 1; the outer process closes ``outer_fds``,
    waits for it and exits with its status (its exit means the whole namespace is gone).
    """
    warm()
    # A call's fd 1/2 are its pipes; these wrappers (inherited) must not crash on surrogates.
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace", line_buffering=True)  # type: ignore[union-attr]
    setup = isolation.WorkerSetup(workdir=workdir)
    isolation.enter_namespaces(setup)
    if setup.pid_namespace:
        inner = os.fork()
        if inner:
            for fd in outer_fds:
                os.close(fd)
            _, status = os.waitpid(inner, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        sc.prctl(sc.PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        # Orphans reparent to us, so we can still find and kill them after each call.
        sc.prctl(sc.PR_SET_CHILD_SUBREAPER, 1)
    isolation.setup_filesystem(setup)
    call_layers.decide_layers(setup, uid, isolation.Limits(), user_namespaces)
    return setup


def freeze_template() -> tuple[int, str]:
    """Make the template cheap to fork; returns ``hugepages.collapse_heap``'s answer."""
    if (count := sc.threads()) != 1:
        # Calls are forked without Python's at-fork hooks, which is sound only here.
        raise RuntimeError(f"the warm template must be single-threaded, it has {count} threads")
    rehearse_call()
    _forget_host_modules()
    # Warm objects move to the permanent generation: a child's garbage collections then
    # never touch (and copy-on-write) the parent's pages.
    gc.collect()
    gc.freeze()
    return hugepages.collapse_heap()


def _forget_host_modules() -> None:
    """Drop our modules and finders outside the kept paths from the template, once.

    The template's own functions keep their modules alive; a call's ``import bs4_env...``
    then has to read (hidden) files again, and fails.
    """
    for name in [n for n in sys.modules if n.split(".")[0] in ("bs4_env", "beautiful_soup_env")]:
        del sys.modules[name]
    keeps = isolation.keep_paths()
    for path in list(sys.path_importer_cache):
        if not any(isolation._under(os.path.realpath(path), keep) for keep in keeps):
            del sys.path_importer_cache[path]
