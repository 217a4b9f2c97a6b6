"""Archetypes of the 'metadata' category."""
