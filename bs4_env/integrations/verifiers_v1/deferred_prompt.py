"""The train stream's deferred request: rows drawn without generating a page.

prime-rl's orchestrator draws every train task inside its dispatcher's event loop, and a
resumed run replays ``next()`` as many times as its checkpoint cursor says, so a draw must cost
microseconds. The request a task asks (the user prompt) names values its generator draws
together with the page, so it cannot be written without generating the task. A stream row
therefore carries this placeholder, naming the task, as its prompt; the rollout's env worker
generates the task in ``BS4Task.setup`` (off its event loop) and, when the harness opens the
conversation, the request hook writes the real request over the placeholder (verifiers lets
a request hook rewrite a new user turn, in the pinned 0.3.1 snapshot and in 0.4). The model
never sees the placeholder, and the page and the truth never leave the worker, as before.
"""

from __future__ import annotations

import verifiers.v1 as vf

DEFERRED_PREFIX = "[beautiful-soup-env] deferred request of task "


def deferred_prompt(split: str, archetype: str, seed: int) -> str:
    """The placeholder prompt of a stream row (unique per task)."""
    return f"{DEFERRED_PREFIX}{split}/{archetype}/{seed}"


def is_deferred(prompt: object) -> bool:
    return isinstance(prompt, str) and prompt.startswith(DEFERRED_PREFIX)


def opens_deferred(request: vf.Request) -> bool:
    """Whether a user turn of ``request`` is a deferred prompt (the harness opening a stream
    row's conversation)."""
    return any(
        isinstance(message, vf.UserMessage) and is_deferred(message.content)
        for message in request.messages
    )


def write_request(request: vf.Request, placeholder: str, prompt: str) -> vf.Request | None:
    """``request`` with the user turn that is ``placeholder`` replaced by ``prompt`` (None when
    no user turn is the placeholder). Another task's placeholder is an error: it would mean a
    rollout state that belongs to another task."""
    messages = list(request.messages)
    changed = False
    for position, message in enumerate(messages):
        if not isinstance(message, vf.UserMessage) or not is_deferred(message.content):
            continue
        if message.content != placeholder:
            raise RuntimeError(
                f"the conversation opens with {message.content!r}, but this rollout's state "
                f"is for {placeholder!r}"
            )
        messages[position] = message.model_copy(update={"content": prompt})
        changed = True
    if not changed:
        return None
    result: vf.Request = request.model_copy(update={"messages": messages})
    return result
