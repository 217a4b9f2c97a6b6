"""Task model, seeded archetype generators, registry and splits."""
