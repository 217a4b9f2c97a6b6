"""Archetypes of the 'i18n' category."""
