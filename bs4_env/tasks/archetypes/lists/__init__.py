"""Archetypes of the 'lists' category."""
