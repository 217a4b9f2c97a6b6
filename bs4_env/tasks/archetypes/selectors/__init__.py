"""Archetypes of the 'selectors' category."""
