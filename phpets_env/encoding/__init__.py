"""phpets_env: the observation vector and its layout."""
