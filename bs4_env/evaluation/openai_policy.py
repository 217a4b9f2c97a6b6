"""A policy backed by any OpenAI-compatible chat-completions endpoint.

Uses the ``openai`` client (connection handling) and ``tenacity`` (retries with exponential
backoff on rate limits, timeouts, connection and 5xx errors); both come with the ``eval`` extra.

A request that still fails after the retries raises ``EndpointRequestError``: the runner
records that one rollout as an error row and goes on. Failures that no retry and no other
rollout can get past (a rejected key, an unknown model) raise ``FatalEndpointError``, which
stops the run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from bs4_env.evaluation.turns import AssistantTurn, Message, ToolCall

KNOWN_ENDPOINTS = (
    ("OPENROUTER_API_KEY", "https://openrouter.ai/api/v1"),
    ("OPENAI_API_KEY", "https://api.openai.com/v1"),
)


class EndpointError(ValueError):
    """No usable endpoint or key; the message says what to set."""


class FatalEndpointError(EndpointError):
    """The endpoint refuses every request (bad key, no access, unknown model): stop the run."""


class EndpointRequestError(RuntimeError):
    """One request failed after the retries, or its response was no chat completion."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str


def resolve_endpoint(base_url: str | None, api_key_var: str | None) -> Endpoint:
    """Explicit ``--base-url``/``--api-key-var`` first, else OpenRouter, else OpenAI keys."""
    if api_key_var is not None:
        key = os.environ.get(api_key_var)
        if not key:
            raise EndpointError(f"environment variable {api_key_var} is not set")
        if base_url is None:
            known = dict(KNOWN_ENDPOINTS)
            if api_key_var not in known:
                raise EndpointError(f"--base-url is required with --api-key-var {api_key_var}")
            base_url = known[api_key_var]
        return Endpoint(base_url, key)
    for var, url in KNOWN_ENDPOINTS:
        if os.environ.get(var) and base_url in (None, url):
            return Endpoint(url, os.environ[var])
    if base_url is not None:
        raise EndpointError(f"--api-key-var is required with --base-url {base_url}")
    raise EndpointError(
        "no endpoint: set OPENROUTER_API_KEY or OPENAI_API_KEY, or pass "
        "--base-url and --api-key-var"
    )


class OpenAIChatPolicy:
    """Asks the endpoint for the next turn; retries transient failures with backoff.

    Safe to share between concurrent rollouts: each request gets its own retry state.
    """

    def __init__(
        self,
        model: str,
        endpoint: Endpoint,
        max_tokens: int = 4096,
        temperature: float = 0.0,
        max_retries: int = 4,
        timeout_s: float = 180.0,
        capture_token_ids: bool = False,
    ) -> None:
        import openai

        if max_retries < 0 or timeout_s <= 0:
            raise ValueError(
                f"need max_retries >= 0 and timeout_s > 0, got {max_retries}, {timeout_s}"
            )
        self._model = model
        self._max_tokens = max_tokens
        self._temperature = temperature
        self._attempts = max_retries + 1
        # llama.cpp returns each sampled token's id with its logprob (``top_logprobs`` >= 1;
        # with 0 it returns none): the learning run trains on exactly those tokens.
        self._logprobs: dict[str, Any] = (
            {"logprobs": True, "top_logprobs": 1} if capture_token_ids else {}
        )
        self._client = openai.AsyncOpenAI(
            base_url=endpoint.base_url, api_key=endpoint.api_key, max_retries=0, timeout=timeout_s
        )
        self._transient = (
            openai.APIConnectionError,  # includes APITimeoutError
            openai.RateLimitError,
            openai.InternalServerError,
        )
        self._fatal = (
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
        )

    async def _create(self, messages: list[Message], tools: list[dict[str, Any]]) -> Any:
        import tenacity

        retrying = tenacity.AsyncRetrying(
            retry=tenacity.retry_if_exception_type(self._transient),
            wait=tenacity.wait_exponential_jitter(initial=1, max=60),
            stop=tenacity.stop_after_attempt(self._attempts),
            reraise=True,
        )

        async def request() -> Any:
            return await self._client.chat.completions.create(
                model=self._model,
                messages=messages,  # type: ignore[arg-type]
                tools=tools,  # type: ignore[arg-type]
                max_tokens=self._max_tokens,
                temperature=self._temperature,
                **self._logprobs,
            )

        try:
            return await retrying(request)
        except self._fatal as error:
            raise FatalEndpointError(f"{type(error).__name__}: {error}") from error
        except self._transient as error:
            raise EndpointRequestError(
                f"{type(error).__name__} after {self._attempts} attempts: {error}"
            ) from error

    async def next_turn(
        self, messages: list[Message], tools: list[dict[str, Any]]
    ) -> AssistantTurn:
        response = await self._create(messages, tools)
        choices = getattr(response, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            shown = repr(response)[:200]
            raise EndpointRequestError(f"the endpoint answered with no chat completion: {shown}")
        choice = choices[0].message
        calls = tuple(
            ToolCall(call.id, call.function.name, call.function.arguments or "")
            for call in choice.tool_calls or ()
            if call.type == "function"
        )
        usage = response.usage
        return AssistantTurn(
            content=choice.content or "",
            tool_calls=calls,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            token_ids=self._token_ids(choices[0]) if self._logprobs else (),
        )

    @staticmethod
    def _token_ids(choice: Any) -> tuple[int, ...]:
        """The sampled ids from the choice's logprobs (llama.cpp's ``id`` field)."""
        content = getattr(getattr(choice, "logprobs", None), "content", None)
        if content is None:
            raise EndpointRequestError("token ids were asked for, but the reply has no logprobs")
        ids = [getattr(item, "id", None) for item in content]
        if any(not isinstance(i, int) for i in ids):
            raise EndpointRequestError(
                "the endpoint's logprobs carry no token ids (llama.cpp's server gives them)"
            )
        return tuple(ids)  # type: ignore[arg-type]

    async def aclose(self) -> None:
        await self._client.close()
