"""τ²-bench (tau2-bench 1.0.1): its domains' tools and databases, its evaluator and pass^k."""
