"""Archetypes of the 'encoding' category."""
