"""Archetypes of the 'tables' category."""
