"""Run a command as an unprivileged uid that has no passwd entry (the sandbox's non-root mode).

CI runs as root, but the sandbox must hold without root too: this driver, started as root,
runs the given command as ``UNPRIVILEGED_UID`` (no groups, no capabilities, a fresh HOME).
The interpreter may live under a directory other users cannot traverse (``/root`` is 0700 on
pyenv installs), so the command runs in a private mount namespace where each such directory
is covered by an empty 0755 tmpfs with the needed subtree bound back; nothing changes on the
host. Started without root, it runs the command as it is (it is unprivileged already).

Usage: ``python -m tests.sandbox.run_unprivileged -- COMMAND [ARGS...]``
(``BS4ENV_UNPRIVILEGED_UID`` picks another uid; it must have no passwd entry.)
"""

from __future__ import annotations

import os
import pwd
import stat
import sys
import tempfile
from pathlib import Path

from bs4_env.sandbox import syscalls as sc
from bs4_env.sandbox.cleanup import remove_tree

UNPRIVILEGED_UID = int(os.environ.get("BS4ENV_UNPRIVILEGED_UID", "54321"))


def _blocked_ancestor(path: str) -> str | None:
    """The highest directory above ``path`` that other users cannot traverse, if any."""
    current = "/"
    for part in Path(path).parts[1:]:
        if not os.stat(current).st_mode & stat.S_IXOTH:
            return current
        current = os.path.join(current, part)
    return None


def _open_up(needed: list[str]) -> None:
    """In a private mount namespace, make every path in ``needed`` reachable by others."""
    sc.unshare(sc.CLONE_NEWNS)
    sc.mount(None, "/", None, sc.MS_REC | sc.MS_PRIVATE)
    by_top: dict[str, list[str]] = {}
    for path in needed:
        top = _blocked_ancestor(path)
        if top is not None:
            by_top.setdefault(top, []).append(path)
    for top, paths in sorted(by_top.items()):
        staged = []
        for path in paths:
            stage = tempfile.mkdtemp(prefix="bs4env-stage-")
            sc.mount(path, stage, None, sc.MS_BIND | sc.MS_REC)
            staged.append((stage, path))
        sc.mount("tmpfs", top, "tmpfs", sc.MS_NOSUID | sc.MS_NODEV, "mode=0755,size=1m")
        for stage, path in staged:
            os.makedirs(path, mode=0o755, exist_ok=True)
            sc.mount(stage, path, None, sc.MS_MOVE)
            os.rmdir(stage)


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[argv.index("--") + 1 :]
    if os.geteuid() != 0:
        os.execvp(command[0], command)
    try:
        pwd.getpwuid(UNPRIVILEGED_UID)
    except KeyError:
        pass
    else:
        raise SystemExit(f"uid {UNPRIVILEGED_UID} has a passwd entry; pick one without")
    home = tempfile.mkdtemp(prefix="bs4env-unprivileged-home-")
    os.chown(home, UNPRIVILEGED_UID, UNPRIVILEGED_UID)
    pid = os.fork()
    if pid == 0:
        _drop_to_unprivileged(command, home)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    for problem in remove_tree(home):
        print(f"[run_unprivileged] {problem}", file=sys.stderr)
    return status


def _drop_to_unprivileged(command: list[str], home: str) -> None:
    """In the child: open up the interpreter's path, drop every privilege, exec; never returns."""
    try:
        project = str(Path(__file__).resolve().parents[2])
        _open_up([os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix), project])
        os.setgroups([])
        os.setresgid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID)
        os.setresuid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID)  # drops capabilities
        env = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "XDG_RUNTIME_DIR")}
        env["HOME"] = home
        os.execvpe(command[0], command, env)
    except BaseException as error:
        print(f"[run_unprivileged] could not start {command[0]}: {error!r}", file=sys.stderr)
    finally:
        os._exit(127)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
