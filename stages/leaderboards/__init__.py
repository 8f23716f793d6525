"""Leaderboards as their own tools publish them: each one's files read, its verdicts' rules and its figures computed
the way its scoring script computes them."""
