"""Tournaments (issue 52): a decider over each tournament's own stream, its pairing and its standings."""
