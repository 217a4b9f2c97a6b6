"""Archetypes of the 'traversal' category."""
