"""phpets_env: positions: a state written as a scenario, and scenarios read and checked."""
