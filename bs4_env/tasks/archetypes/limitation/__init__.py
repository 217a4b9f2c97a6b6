"""Archetypes of the 'limitation' category."""
