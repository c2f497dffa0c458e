"""Agents that play cardgym environments.

- :mod:`agents.policy`: the one-method ``Policy`` protocol and the random policy;
- :mod:`agents.heuristics`: a hand-written policy per game, from the observation alone;
- :mod:`agents.specs`: agents by name (``random``, ``heuristic``, ``baseline``,
  ``model:PATH``, ``ismcts:key=value,...``; ``+pickle`` kinds for files that must be unpickled);
- :mod:`agents.ismcts`, :mod:`agents.engines`: information-set Monte Carlo tree search
  over the game engines, and the engine adapters it searches with;
- :mod:`agents.single_agent`: a Gymnasium env for Stable-Baselines3, the learner in one seat;
- :mod:`agents.train`, :mod:`agents.sb3`: MaskablePPO self-play training and loading;
- :mod:`agents.policy_file`: the safe model format (safetensors and the JSON card), loaded
  without unpickling, and the converter from SB3 zips;
- :mod:`agents.evaluate`, :mod:`agents.play`: seeded evaluation, and play in the terminal.
"""
