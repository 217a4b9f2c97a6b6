"""Archetype generators, one module per archetype, grouped by category."""
