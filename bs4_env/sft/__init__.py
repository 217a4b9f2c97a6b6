"""Supervised warm-start data: whole episodes that read the request and the page.

``bs4-env sft-data`` writes them. Each episode is planned on the host from one train-split task
(its request, its page and, to check the plan, its truth), played through the real episode
engine and sandbox, and kept only when the replay scores the best reward.
"""
