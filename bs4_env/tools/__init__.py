"""Tool-call helpers shared by the agent tools (argument repair)."""
