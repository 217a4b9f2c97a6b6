"""Archetypes of the 'aggregation' category."""
