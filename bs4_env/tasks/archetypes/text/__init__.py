"""Archetypes of the 'text' category."""
