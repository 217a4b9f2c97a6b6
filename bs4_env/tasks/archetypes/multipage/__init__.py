"""Archetypes of the 'multipage' category."""
