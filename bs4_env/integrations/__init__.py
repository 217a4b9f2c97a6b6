"""Adapters from the framework-free episode engine to RL frameworks.

Each subpackage may import its framework; nothing else in ``bs4_env`` imports one.
"""
