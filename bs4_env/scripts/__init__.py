"""Runnable scripts shipped with the package."""
