"""The search behind the strongest bots: a fast playout engine, a sampler of hidden hands and
exact solving of endgames. The rules engine in :mod:`fichaflow.core` stays the referee."""
