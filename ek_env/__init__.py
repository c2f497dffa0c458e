"""Exploding Kittens (RULES.md §3-4): not implemented yet."""
