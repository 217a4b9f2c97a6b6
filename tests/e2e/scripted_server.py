"""A loopback OpenAI-compatible chat-completions server that plays our scripted policies.

The requested model name picks the policy (``reference``, ``abstain``, ``malformed``,
``nocode``); the task is found from the user prompt text among the rows the server was
given. Policies decide from the message list alone, so a framework driving this endpoint
replays exactly the transcript ``run_rollout`` produces with the same policy.

Streaming (SSE, with a final usage chunk when ``stream_options.include_usage``) and
non-streaming responses are both supported. Run standalone with
``python tests/e2e/scripted_server.py --port 8765 --split bench`` or use ``ScriptedServer``.

Faults, per task (``ScriptedServer(rows, faults={(archetype, seed): fault})``), behave like
real endpoints that fail: ``http500`` answers every request for that task with HTTP 500
"Failed to parse tool call arguments as JSON" (llama.cpp's reply when the model wrote bad
tool-call JSON); ``flaky500`` does so only on the task's first request; ``timeout`` sleeps
past the client's timeout before answering; ``garbage`` answers 200 with a body that is not
a chat completion; ``malformed-args`` plays the ``malformed`` policy for that task (tool-call
arguments that are not JSON, then a retry); ``raw-args`` plays the ``rawargs`` policy (its
first program sent as bare source, which the engine repairs). ``faults`` may be changed
between runs.

``strict_history=True`` answers HTTP 500 to any request whose history holds tool-call
arguments that are not a JSON object, as llama.cpp and vLLM's chat preprocessing do.

Routes let several clients of one run share the endpoint with their own policies and
strictness (``ScriptedServer(rows, routes={"strict": Route(policies, strict_history=True)})``):
a request whose ``extra_body`` carries ``"bs4_route": NAME`` (prime-rl forwards a source's
``sampling.extra_body`` there) is played by route NAME instead of the server's own settings.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bs4_env.episode.prompt import user_prompt
from bs4_env.evaluation.scripted import (
    AbstainPolicy,
    MalformedThenReferencePolicy,
    NoCodePolicy,
    RawArgumentsThenReferencePolicy,
    ReferencePolicy,
)
from bs4_env.evaluation.turns import AssistantTurn, Message, Policy
from bs4_env.real.reference import reference_program
from bs4_env.tasks.model import Task
from bs4_env.tasks.modes import DatasetConfig, build_rows
from bs4_env.tasks.registry import build_task
from bs4_env.tasks.splits import Row

POLICY_NAMES = ("reference", "abstain", "malformed", "nocode", "rawargs")
FAULTS = ("http500", "flaky500", "timeout", "garbage", "malformed-args", "raw-args")
TOOL_JSON_ERROR = "Failed to parse tool call arguments as JSON"
TIMEOUT_SLEEP_S = 30.0
ROUTE_FIELD = "bs4_route"
"""The ``extra_body`` key that names a request's route."""


@dataclass(frozen=True)
class Route:
    """A client's own view of the server: per-task policies (else the model name's policy)
    and whether histories with non-JSON tool-call arguments get HTTP 500."""

    policies: Mapping[tuple[str, int], str] = field(default_factory=dict)
    strict_history: bool = False


def policy_for(name: str, task: Task) -> Policy:
    """The scripted policy ``name`` for ``task`` (the same objects the engine path uses)."""
    if name == "reference":
        program = reference_program(task)
        return ReferencePolicy(lambda _messages: program)
    if name == "malformed":
        program = reference_program(task)
        return MalformedThenReferencePolicy(lambda _messages: program)
    if name == "rawargs":
        program = reference_program(task)
        return RawArgumentsThenReferencePolicy(lambda _messages: program)
    if name == "abstain":
        return AbstainPolicy()
    if name == "nocode":
        return NoCodePolicy(lambda _messages: task.truth)
    raise ValueError(f"unknown scripted model {name!r}; valid: {list(POLICY_NAMES)}")


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def normalize(messages: Iterable[dict[str, Any]]) -> list[Message]:
    """Request messages in the plain form ``run_rollout`` builds (text content, tool calls)."""
    out: list[Message] = []
    for message in messages:
        role = message.get("role")
        item: Message = {"role": role, "content": _text(message.get("content"))}
        if role == "assistant" and message.get("tool_calls"):
            item["tool_calls"] = [
                {
                    "id": call["id"],
                    "type": "function",
                    "function": {
                        "name": call["function"]["name"],
                        "arguments": call["function"].get("arguments") or "",
                    },
                }
                for call in message["tool_calls"]
            ]
        if role == "tool":
            item["tool_call_id"] = message.get("tool_call_id")
        out.append(item)
    return out


class ScriptedServer:
    """Serves the scripted policies for ``rows`` on 127.0.0.1 (port 0 = any free port)."""

    def __init__(
        self,
        rows: Sequence[Row],
        port: int = 0,
        faults: dict[tuple[str, int], str] | None = None,
        strict_history: bool = False,
        policies: dict[tuple[str, int], str] | None = None,
        tasks: Sequence[Task] = (),
        routes: Mapping[str, Route] | None = None,
    ) -> None:
        self.tasks: dict[str, Task] = {}
        # One row may come from several configs' sources; two *different* tasks must not share a
        # prompt, since the prompt is how a request finds its task.
        distinct = dict.fromkeys(rows)
        built = [build_task(row.archetype_id, row.seed, row.split) for row in distinct]
        for task in [*built, *tasks]:  # ``tasks``: labelled pages (their prompts must differ)
            prompt = user_prompt(task)
            if prompt in self.tasks:
                raise ValueError(f"two tasks share one user prompt: {prompt[:120]!r}")
            self.tasks[prompt] = task
        self.faults: dict[tuple[str, int], str] = dict(faults or {})
        self.strict_history = strict_history
        self.policies: dict[tuple[str, int], str] = dict(policies or {})
        """Per-task policy, overriding the requested model name (one run, several policies)."""
        self.routes: dict[str, Route] = dict(routes or {})
        named = [*self.policies.values()]
        named += [name for route in self.routes.values() for name in route.policies.values()]
        wrong = sorted(set(named) - set(POLICY_NAMES))
        if wrong:
            raise ValueError(f"unknown policies {wrong}; valid: {list(POLICY_NAMES)}")
        unknown = sorted(set(self.faults.values()) - set(FAULTS))
        if unknown:
            raise ValueError(f"unknown faults {unknown}; valid: {list(FAULTS)}")
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        """Every chat-completions request body, in arrival order (request-format tests)."""
        self.requests_by_task: dict[tuple[str, int], int] = {}
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def task_of(self, raw_messages: list[dict[str, Any]]) -> Task:
        """The task whose user prompt opens this conversation (``KeyError`` if none)."""
        messages = normalize(raw_messages)
        prompt = next((m["content"] for m in messages if m["role"] == "user"), "")
        task = self.tasks.get(prompt)
        if task is None:
            raise KeyError(f"no task with this user prompt: {prompt[:120]!r}")
        return task

    def fault_for(self, task: Task) -> str | None:
        """The fault to play on this request for ``task`` (counts the request)."""
        key = (task.archetype_id, task.seed)
        with self._lock:
            self.requests_by_task[key] = self.requests_by_task.get(key, 0) + 1
            first = self.requests_by_task[key] == 1
        fault = self.faults.get(key)
        if fault == "flaky500":
            return "http500" if first else None
        return fault

    def route_of(self, body: dict[str, Any]) -> Route:
        """The route a request body names (``ValueError`` for an unknown one), else the
        server's own policies and strictness."""
        extra = body.get("extra_body")
        name = extra.get(ROUTE_FIELD) if isinstance(extra, dict) else None
        if name is None:
            return Route(self.policies, self.strict_history)
        if name not in self.routes:
            raise ValueError(f"unknown route {name!r}; known: {sorted(self.routes)}")
        return self.routes[name]

    def reply(
        self, model: str, raw_messages: list[dict[str, Any]], route: Route | None = None
    ) -> AssistantTurn:
        with self._lock:
            self.requests += 1
        messages = normalize(raw_messages)
        task = self.task_of(raw_messages)
        policies = self.policies if route is None else route.policies
        name = policies.get((task.archetype_id, task.seed), model.rsplit("/", 1)[-1])
        fault = self.faults.get((task.archetype_id, task.seed))
        if fault in ("malformed-args", "raw-args"):
            name = "malformed" if fault == "malformed-args" else "rawargs"
        return asyncio.run(policy_for(name, task).next_turn(messages, []))


def _non_json_arguments(messages: list[dict[str, Any]]) -> bool:
    """Whether any earlier tool call's arguments are not a JSON object."""
    for message in messages:
        for call in message.get("tool_calls") or ():
            try:
                parsed = json.loads(call["function"].get("arguments") or "")
            except ValueError:
                return True
            if not isinstance(parsed, dict):
                return True
    return False


def _completion(turn: AssistantTurn, model: str, n_messages: int) -> tuple[dict[str, Any], ...]:
    """(message, usage, finish_reason-wrapped) pieces shared by both response styles."""
    message: dict[str, Any] = turn.as_message()
    usage = {
        "prompt_tokens": 10 * n_messages,
        "completion_tokens": 5,
        "total_tokens": 10 * n_messages + 5,
    }
    meta = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time()), "model": model}
    return message, usage, meta


def _handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _json(self, code: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                data = [{"id": n, "object": "model"} for n in POLICY_NAMES]
                self._json(200, {"object": "list", "data": data})
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            with server._lock:
                server.bodies.append(body)
            model = str(body.get("model", "reference"))
            messages = body.get("messages", [])
            try:
                route = server.route_of(body)
            except ValueError as error:
                self._json(400, {"error": {"message": str(error), "type": "invalid_request"}})
                return
            if route.strict_history and _non_json_arguments(messages):
                error = {"message": TOOL_JSON_ERROR, "type": "server_error", "code": 500}
                self._json(500, {"error": error})
                return
            try:
                fault = server.fault_for(server.task_of(messages))
                if fault is not None and self._play(fault):
                    return
                turn = server.reply(model, messages, route)
            except (KeyError, ValueError) as error:
                self._json(400, {"error": {"message": str(error), "type": "invalid_request"}})
                return
            message, usage, meta = _completion(turn, model, len(messages))
            finish = "tool_calls" if turn.tool_calls else "stop"
            if not body.get("stream"):
                choice = {"index": 0, "message": message, "finish_reason": finish}
                self._json(
                    200,
                    {**meta, "object": "chat.completion", "choices": [choice], "usage": usage},
                )
                return
            self._stream(turn, meta, finish, usage, body)

        def _play(self, fault: str) -> bool:
            """Answer with ``fault`` if it replaces the reply; ``False`` to reply normally."""
            if fault == "http500":
                error = {"message": TOOL_JSON_ERROR, "type": "server_error", "code": 500}
                self._json(500, {"error": error})
                return True
            if fault == "timeout":
                server.stopping.wait(TIMEOUT_SLEEP_S)  # the client has given up by then
                self.close_connection = True
                return True
            if fault == "garbage":
                data = b"<html>502 Bad Gateway</html>"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return True
            return False

        def _stream(
            self,
            turn: AssistantTurn,
            meta: dict[str, Any],
            finish: str,
            usage: dict[str, int],
            body: dict[str, Any],
        ) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()

            def send(choices: list[dict[str, Any]], **extra: Any) -> None:
                chunk = {**meta, "object": "chat.completion.chunk", "choices": choices, **extra}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())

            def delta(d: dict[str, Any], finish_reason: str | None = None) -> None:
                send([{"index": 0, "delta": d, "finish_reason": finish_reason}])

            delta({"role": "assistant", "content": ""})
            if turn.content:  # split in two chunks to exercise reassembly
                half = len(turn.content) // 2
                delta({"content": turn.content[:half]})
                delta({"content": turn.content[half:]})
            for index, call in enumerate(turn.tool_calls):
                head = {"name": call.name, "arguments": ""}
                delta({"tool_calls": [{"index": index, "id": call.id, "type": "function",
                                       "function": head}]})  # fmt: skip
                delta({"tool_calls": [{"index": index, "function": {"arguments": call.arguments}}]})
            delta({}, finish)
            if (body.get("stream_options") or {}).get("include_usage"):
                send([], usage=usage)
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--split", default="bench")
    parser.add_argument("--archetypes", help="comma-separated archetype ids")
    parser.add_argument("--num", type=int, help="number of rows (prefix)")
    args = parser.parse_args()
    config = DatasetConfig.from_kwargs(
        split=args.split, archetypes=args.archetypes, num_examples=args.num
    )
    with ScriptedServer(build_rows(config), args.port) as server:
        print(f"scripted policies at {server.base_url} (models: {', '.join(POLICY_NAMES)})")
        threading.Event().wait()


if __name__ == "__main__":
    main()
