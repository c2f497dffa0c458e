"""Agents that play cardgym environments."""
