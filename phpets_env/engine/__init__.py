"""phpets_env: the rules: cards, the state, the moves and what they do, new games."""
