"""Archetypes of the 'media' category."""
