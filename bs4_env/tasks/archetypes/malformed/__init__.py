"""Archetypes of the 'malformed' category."""
