"""Proofs run over the registry: solvability of every archetype through the real engine."""
