"""Archetypes of the 'robustness' category."""
