"""Archetypes of the 'locale' category."""
