"""Evaluation: policies (LLM endpoints, scripted), the chat rollout loop, and reports."""
