"""Archetypes of the 'app_state' category."""
