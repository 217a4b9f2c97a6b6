"""Archetypes of the 'core' category."""
