"""Archetypes of the 'structured' category."""
