"""MT-Bench: FastChat's llm_judge, each turn rated 1–10 (or judged against a baseline in pairwise mode)."""
