"""Archetypes of the 'gotchas' category."""
