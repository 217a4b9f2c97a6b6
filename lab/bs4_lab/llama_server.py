"""llama.cpp's own server (the ``xllamacpp`` wheel) in a child process, as a context manager.

``bs4-env learn`` evaluates the base model and the LoRA-tuned model behind an OpenAI-compatible
endpoint. llama.cpp's server renders the GGUF's Jinja chat template (tools included) and turns
``<tool_call>`` blocks into OpenAI ``tool_calls``; nothing else (bare JSON, code fences) becomes
a call, since no lenient front is put before it. What this llama.cpp derives from a Qwen2.5
(Hermes) template, as seen with xllamacpp 2026.10 (lab/tests/test_learn_gguf.py checks the first
and the last point; the grammar was seen turning a call to an undeclared tool into a call to
a declared one):

* a call must open with ``<tool_call>`` and a newline; ``<tool_call>{...}</tool_call>`` on one
  line stays content (vLLM's hermes parser would take it);
* once ``<tool_call>`` and its newline are written, a grammar holds the rest of the call to a
  declared tool name and its JSON schema, so a malformed or unknown call cannot be produced:
  sampling is steered into a valid one instead;
* a reply cut by ``max_tokens`` inside a call comes back with ``finish_reason`` "length" and a
  partial call (arguments such as ``{``); ``tool_choice`` "required" is not enforced.

The server runs in a child process, not a thread: xllamacpp has no way to stop a server, and
only ending the process frees the model's memory. The child picks a free loopback port itself
(port 0, so no other process can take it in between) and prints it to the log; it exits when
told to (SIGTERM) or when its parent is gone, so no server outlives the run that started it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self

_MODULE = "bs4_lab.llama_server"  # what the child runs (``python -m``)
_READY = "[bs4-env llama-server]"
_LOG_TAIL_LINES = 40


class LlamaServerError(RuntimeError):
    """The server did not start (the message carries the end of its log)."""


def _log_tail(path: Path, lines: int = _LOG_TAIL_LINES) -> str:
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError as error:
        return f"(log {path} unreadable: {error})"
    return "\n".join(text.splitlines()[-lines:])


class LlamaServer:
    """Serve ``model_gguf`` (plus ``lora_gguf`` at scale 1) on 127.0.0.1 with llama.cpp.

    Use as ``with LlamaServer(...) as server:`` (or ``async with``, which starts and stops it
    in a worker thread); ``server.base_url`` is the OpenAI-compatible ``http://127.0.0.1:PORT/v1``
    and ``server.model`` the model id it answers to; ``server.url`` is the native server's root
    (``/health``, ``/tokenize``, ``/completion``, ``/apply-template``). ``ctx_size`` is the
    total KV context, shared by ``parallel`` slots. ``precise`` computes attention in f32
    (f32 KV cache, no flash attention), so that logits match an f32 Hugging Face model to about
    1e-5 instead of 1e-2 (tests; slower, twice the KV memory). The child's output, llama.cpp's
    log included, goes to ``log_path`` (truncated at start).
    """

    def __init__(
        self,
        model_gguf: Path | str,
        *,
        log_path: Path | str,
        lora_gguf: Path | str | None = None,
        alias: str | None = None,
        ctx_size: int = 8192,
        parallel: int = 1,
        threads: int = 1,
        threads_batch: int | None = None,
        precise: bool = False,
        startup_timeout_s: float = 300.0,
    ) -> None:
        self.model_gguf = Path(model_gguf)
        self.lora_gguf = None if lora_gguf is None else Path(lora_gguf)
        for path in (self.model_gguf, self.lora_gguf):
            if path is not None and not path.is_file():
                raise FileNotFoundError(f"GGUF not found: {path}")
        if ctx_size < parallel or parallel < 1 or threads < 1:
            raise ValueError(
                f"bad sizes: ctx_size={ctx_size} parallel={parallel} threads={threads}"
            )
        self.log_path = Path(log_path)
        default_alias = self.model_gguf.stem + ("" if self.lora_gguf is None else "-lora")
        self.model = alias or default_alias
        self.ctx_size = ctx_size
        self.parallel = parallel
        self.threads = threads
        self.threads_batch = threads_batch or os.cpu_count() or 1
        self.precise = precise
        self.startup_timeout_s = startup_timeout_s
        self._process: subprocess.Popen[bytes] | None = None
        self._url: str | None = None

    @property
    def url(self) -> str:
        """The native server's root, e.g. ``http://127.0.0.1:40123``."""
        if self._url is None:
            raise RuntimeError("the server is not running")
        return self._url

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:40123/v1``."""
        return self.url + "/v1"

    @property
    def pid(self) -> int:
        if self._process is None:
            raise RuntimeError("the server is not running")
        return self._process.pid

    def start(self) -> None:
        if self._process is not None:
            raise RuntimeError("the server is already running")
        nonce = uuid.uuid4().hex
        command = [
            sys.executable,
            "-m",
            _MODULE,
            "--model",
            str(self.model_gguf),
            "--alias",
            self.model,
            "--ctx",
            str(self.ctx_size),
            "--parallel",
            str(self.parallel),
            "--threads",
            str(self.threads),
            "--threads-batch",
            str(self.threads_batch),
            "--parent",
            str(os.getpid()),
            "--nonce",
            nonce,
        ]
        if self.lora_gguf is not None:
            command += ["--lora", str(self.lora_gguf)]
        if self.precise:
            command.append("--precise")
        # The child imports this module by name: give it the tree this one was loaded from.
        package_root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        # OpenMP's spinning threads would hold the cores between requests on a small machine.
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:  # the child writes through its own copy
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # its own process group: stop() reaches all of it
            )
        try:
            self._url = self._wait_ready(nonce)
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, nonce: str) -> str:
        assert self._process is not None
        deadline = time.monotonic() + self.startup_timeout_s
        url: str | None = None
        marker = f"{_READY} {nonce} "
        while time.monotonic() < deadline:
            code = self._process.poll()
            if code is not None:
                raise LlamaServerError(
                    f"llama.cpp server exited with status {code} while starting"
                    f" ({self.model_gguf}, lora {self.lora_gguf}); log {self.log_path}:\n"
                    + _log_tail(self.log_path)
                )
            if url is None:
                for line in self.log_path.read_text("utf-8", errors="replace").splitlines():
                    if line.startswith(marker):
                        url = line[len(marker) :].strip().rstrip("/")
            if url is not None and _healthy(url):
                return url
            time.sleep(0.1)
        raise LlamaServerError(
            f"llama.cpp server not healthy after {self.startup_timeout_s:.0f}s"
            f" ({self.model_gguf}); log {self.log_path}:\n" + _log_tail(self.log_path)
        )

    def stop(self, timeout_s: float = 10.0) -> None:
        """End the child (SIGTERM, then SIGKILL after ``timeout_s``) and wait for it."""
        process, self._process, self._url = self._process, None, None
        if process is not None and process.poll() is None:
            _signal_group(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> Self:
        # Starting blocks for as long as loading the model takes: keep the event loop free.
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(pid, sig)


def _healthy(url: str) -> bool:
    """True once /health answers 200 (it answers 503 while the model loads)."""
    try:
        with urllib.request.urlopen(url + "/health", timeout=2) as response:
            status: int = response.status
            body = json.loads(response.read() or b"{}")
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return False
    return status == 200 and body.get("status") == "ok"


def _serve(argv: list[str]) -> int:
    """The child: load the model into llama.cpp's server and keep it up."""
    parser = argparse.ArgumentParser(prog="python -m bs4_lab.llama_server")
    parser.add_argument("--model", required=True)
    parser.add_argument("--lora")
    parser.add_argument("--alias", required=True)
    parser.add_argument("--ctx", type=int, required=True)
    parser.add_argument("--parallel", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--threads-batch", type=int, required=True)
    parser.add_argument("--precise", action="store_true")
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--nonce", required=True)
    args = parser.parse_args(argv)

    import xllamacpp  # type: ignore[import-untyped, unused-ignore]

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # llama.cpp binds a free port; the parent reads it from the marker line
    params.n_ctx = args.ctx
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads_batch
    params.n_gpu_layers = 0
    if args.precise:
        # llama.cpp's CPU flash attention and its default f16 KV cache round to f16 (logits
        # off by ~1e-2 from an f32 model); f32 throughout matches to ~1e-5.
        params.cache_type_k = params.cache_type_v = xllamacpp.ggml_type.GGML_TYPE_F32
        params.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    # The GGUF's Jinja template renders tools, and llama.cpp parses the <tool_call> blocks.
    params.use_jinja = True
    params.model_alias = {args.alias}
    if args.lora:
        params.lora_adapters = [xllamacpp.CommonAdapterLoraInfo(args.lora, 1.0)]
    server = xllamacpp.Server(params)
    print(f"{_READY} {args.nonce} {server.listening_address}", flush=True)
    # SIGTERM's default action ends the process; polling the parent covers a parent that died
    # without stopping it (SIGKILL, a crash).
    while os.getppid() == args.parent:
        time.sleep(0.5)
    print(f"{_READY} parent {args.parent} is gone: exiting", flush=True)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(_serve(sys.argv[1:]))
