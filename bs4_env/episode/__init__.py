"""The framework-free episode engine every integration drives."""
