"""Building blocks for realistic pages: content pools, page chrome, noise and decoys."""
