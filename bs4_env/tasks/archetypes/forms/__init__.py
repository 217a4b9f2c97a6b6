"""Archetypes of the 'forms' category."""
