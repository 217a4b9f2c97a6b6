"""The ``bs4-env`` command."""
