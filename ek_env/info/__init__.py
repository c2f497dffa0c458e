"""ek_env: what a seat may know: its view of the state and the samples of what it cannot see."""
