"""Agents that play cardgym environments, written once against the game contract
(:class:`cardgym.game.Game`): no module here names a game.

- :mod:`agents.policy`: the one-method ``Policy`` protocol and the random policy;
- :mod:`agents.specs`: agents by name (``random``, ``heuristic`` (the game's
  ``GAME.heuristic``), ``baseline``, ``model:PATH``, ``ismcts:key=value,...``; ``+pickle``
  kinds for files that must be unpickled);
- :mod:`agents.ismcts`, :mod:`agents.engines`: information-set Monte Carlo tree search,
  and the one engine adapter it searches any game with;
- :mod:`agents.single_agent`: a Gymnasium env for Stable-Baselines3, the learner in one seat;
- :mod:`agents.train`, :mod:`agents.sb3`, :mod:`agents.runs`: MaskablePPO self-play
  training, loading, and run folders;
- :mod:`agents.policy_file`, :mod:`agents.model_card`: the safe model format (safetensors
  and the JSON card), loaded without unpickling, and the converter from SB3 zips;
- :mod:`agents.evaluate`, :mod:`agents.play`, :mod:`agents.outcomes`: seeded evaluation,
  play in the terminal, winners and intervals;
- :mod:`agents.arguments`, :mod:`agents.options`: command-line arguments and rule options;
- :mod:`agents.rllib`: training on Ray RLlib.
"""
