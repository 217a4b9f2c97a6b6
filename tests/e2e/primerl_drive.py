"""Drive running prime-rl env servers the way its orchestrator does (run with the prime-rl venv).

    python primerl_drive.py BASE_URL KEY_VAR MODEL N OUT_JSONL ORCHESTRATOR_JSON...

Loads each resolved orchestrator config ``rl --dry-run`` wrote, and for every train and eval
source drives its env server concurrently with prime-rl's own ``prime_rl.orchestrator.envs``
classes:
``Env.start`` waits for the env server at the address the launcher derived and loads the taskset
client-side (streamed when its class is ``INFINITE``, else materialized; eval sources keep their
``num_examples``), then ``Env.run`` sends the first N tasks' data to the server with a
chat-completions client (prime-rl's eval client; training's token client needs vLLM's
``/inference/v1/generate``) and the source's own sampling arguments. Writes one JSON line per
source to OUT_JSONL (stdout carries prime-rl's logs): how the taskset loaded, every trace.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from pathlib import Path
from typing import Any


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def _trace(trace: Any) -> dict[str, Any]:
    dumped = trace.model_dump(mode="json")
    messages = [node["message"] for node in dumped["nodes"]]
    finals = [m for m in messages if m["role"] == "assistant"]
    return {
        "archetype": dumped["task"]["data"]["archetype"],
        "seed": dumped["task"]["data"]["seed"],
        "split": dumped["task"]["data"]["split"],
        "ok": dumped["ok"],
        "errors": dumped["errors"],
        "reward": sum(r["score"] * r["weight"] for r in dumped["rewards"].values() if r),
        "metrics": dumped["metrics"],
        "tool_replies": [_text(m["content"]) for m in messages if m["role"] == "tool"],
        "final": _text(finals[-1]["content"]) if finals else "",
    }


async def drive_source(
    path: Path, split: str, source: Any, address: str, client: Any, model: str, n: int
) -> dict[str, Any]:
    from prime_rl.orchestrator.envs import Env, EvalEnv

    env = EvalEnv(source, address) if split == "eval" else Env(source, address)
    env.sampling_args = source.sampling.to_sampling_args()
    await env.start()
    tasks = env.examples[:n] if split == "eval" else list(itertools.islice(env.tasks, n))
    runs = (env.run(client, model, None, task.data.model_dump(mode="json")) for task in tasks)
    episodes = await asyncio.gather(*runs)
    await env.env_client.close()
    return {
        "config": str(path),
        "split": split,
        "source": source.resolved_name,
        "infinite": env.num_tasks is None,
        "num_tasks": env.num_tasks,
        "example_keys": [t.key for t in env.examples] if split == "eval" else None,
        "traces": [_trace(trace) for episode in episodes for trace in episode.traces],
    }


async def drive(
    paths: list[Path], base_url: str, key_var: str, model: str, n: int, out: Path
) -> None:
    from prime_rl.configs.orchestrator import OrchestratorConfig
    from prime_rl.configs.shared import ClientConfig
    from prime_rl.utils.client import setup_client

    client = setup_client(ClientConfig(base_url=base_url, api_key_var=key_var))
    jobs = []
    for path in paths:
        config = OrchestratorConfig.model_validate(json.loads(path.read_text(encoding="utf-8")))
        for split, source in config.env_sources:
            address = config.env_addresses[(split, source.resolved_name)]
            jobs.append(drive_source(path, split, source, address, client, model, n))
    records = await asyncio.gather(*jobs)
    out.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")


def main() -> None:
    base_url, key_var, model, n, out, *paths = sys.argv[1:]
    asyncio.run(drive([Path(p) for p in paths], base_url, key_var, model, int(n), Path(out)))


if __name__ == "__main__":
    main()
