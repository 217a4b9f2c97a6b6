"""Deterministic grading: answer parsing, normalization, evidence, safety and the rubric."""
