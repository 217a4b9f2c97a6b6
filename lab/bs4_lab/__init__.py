"""CPU learning runs on this environment: LoRA warm start, RL, evals (``bs4-env learn``)."""
