"""Information-set Monte Carlo tree search over the game engines (``ismcts`` agents).

ISMCTS with determinisation (Cowling, Powley and Whitehouse, *Information Set Monte
Carlo Tree Search*, IEEE TCIAIG 2012), for every game, table size and rule option,
through :mod:`agents.engines`: single-observer (one tree) or multiple-observer (one
tree per seat, for games with hidden moves), with an optional prior from the game's
heuristic policy (progressive bias, Chaslot et al. 2008).

The package: :mod:`~agents.ismcts.settings` (the spec's settings),
:mod:`~agents.ismcts.tree` (nodes; selection, expansion and backup),
:mod:`~agents.ismcts.rollout` (playouts and the prior), :mod:`~agents.ismcts.search`
(the iterations of one search) and :mod:`~agents.ismcts.policy` (the agent).

One search chooses one move of the ``seat`` to act, from a state the harness has
already resampled for that seat (:func:`agents.policy.decide`; the search never sees
the true state). Each iteration:

1. *determinise*: ``resample_hidden(state, seat, rng)``: everything ``seat`` cannot
   know is dealt anew (one clone per iteration; the moves below act on it in place);
2. *select*: from the root, while every action legal in this determinisation has a
   child, take the child maximising ``mean + c * sqrt(ln(availability) / visits)``
   among the legal ones (plus ``w / (visits + 1)`` for the prior's suggestion),
   then count one availability for each of them (the availability counts of the
   paper: a child is only compared when it could be played). The tree is the acting
   seat's own (multiple observers) or the one tree;
3. *expand*: add one untried legal action: the prior's suggestion if untried, else
   one drawn at random;
4. *play out* to the end of the game (episode), or, in a match of rounds with
   ``horizon=round``, to the end of the round being played, valued by the engine's
   ``round_value`` (the chance to win the match from the tokens, every coming round
   taken as even): uniformly random legal actions, or the game's heuristic policy
   (the game's ``GAME.heuristic``) at every seat, fed each seat's own observation;
5. *back up* the game's final returns (``rules.returns``), one value per seat,
   scaled into ``[0, 1]`` with the engine's reward bounds: each node adds the value
   of the seat that chose the action leading to it.

Tree nodes are keyed by ``(seat to act, action index)``, so that a path along which
different determinisations hand the move to different seats keeps their statistics
apart; with ``split=private`` also by what the acting seat holds in this
determinisation (the engine's ``private_key``), so that each seat, opponents
included, chooses as someone who knows its own cards rather than by statistics
pooled over every hand the determinisations dealt it. With ``tree=multi`` every seat
has its own tree; the other trees follow each move as their owner sees it: a move
hidden from them (the engine's ``hidden_move``: a bid face down, where a card is put
back) is one edge whatever it was, so an opponent's choices in the tree cannot
depend on it. The prior's suggestion is computed once per node and private key,
from the acting seat's observation in the determinisation that first reaches it. Chance inside a move (a shuffle, a random steal, the deal of the next round)
is drawn afresh in every iteration. The move returned is the root action visited
most (ties: the higher mean, then the lower index); a single legal action is
returned without searching.

Settings (spec ``ismcts:key=value,...``; see :func:`parse_settings`):

- ``iterations`` (default 1000): iterations per move;
- ``time``: seconds per move; with ``time`` alone the search stops on the clock
  only, with both on whichever comes first. A clock makes the choice depend on the
  machine's speed: only iteration budgets are reproducible;
- ``c`` (default 0.7): the exploration constant, for rewards in ``[0, 1]``;
- ``rollout`` (default ``random``): ``random``, ``heuristic``, or ``batched``:
  ``playouts`` (default 16) random playouts of the determinisation at once on the
  game's batched engine (:mod:`cardgym.vector`), valued by their mean return; they
  play to the end of the game, so a match of rounds needs ``horizon=game`` with it
  (and rewards at the end of the match);
- ``engine`` (default ``auto``), with ``rollout=random``: ``compiled`` plays each
  random playout on the game's compiled rules (:mod:`cardgym.vector`), the
  determinisation loaded into a one-row engine and played to the end of the game (or
  of the round) in one compiled call, its moves and chance drawn from the row's
  stream, seeded from the search's generator; ``python`` on the Python engine;
  ``auto``, the compiled rules where the game has them and numba is installed. The
  two engines draw different random moves, so one seed searches differently on each;
- ``prior`` (default ``heuristic``) and ``w`` (default 1): the progressive bias;
  ``prior=none`` for plain UCB; ``prior=policy``: a learned policy network gives
  every legal action a probability ``p`` (from the acting seat's observation in the
  determinisation that first reaches the node, once per node and chooser), the
  likeliest untried action is expanded first and each action gets
  ``w * p / (visits + 1)`` (policy-guided ISMCTS);
- ``select`` (default ``ucb``): ``puct``, with ``prior=policy``, selects as AlphaZero
  does, by ``mean + c * p * sqrt(N) / (1 + visits)`` over the legal actions (``N``
  their visits at the node), an action not yet tried scored at the tried ones' mean;
  choosing an untried action expands it. Unlikely actions need many visits before
  they are tried at all, where ``ucb`` tries every legal action once first, and the
  network's preference does not fade as ``w * p / (visits + 1)`` does;
- ``value`` (default ``rollout``): ``policy`` values the node an iteration expanded
  by the network's value head, each seat's estimated return from its own
  observation, instead of playing on (no playout, so ``rollout`` and ``horizon`` do
  not matter then);
- ``reading`` (default ``none``): ``heuristic`` or ``policy`` weighs each
  determinisation by how likely that model of the other seats makes the choices the
  determinisation gives them and ``seat`` has not seen (the game's
  ``hidden_choices``; Karel Kakelaar lists the bids, mother hens and picks committed
  face down in the open stage), and backs the iteration up with that weight
  (:mod:`agents.ismcts.reading`); ``epsilon`` (default 0.1) is the chance the
  heuristic model gives the moves the heuristic would not make;
- ``model`` (default ``baseline``): the network of the ``policy`` settings: ``baseline`` (the shipped model of the game at this table size)
  or the path of a model written by ``cardgym train`` (its policy file is loaded;
  nothing is unpickled), e.g. ``ismcts:iterations=200,prior=policy,value=policy``;
- ``horizon`` (default ``round``): ``round`` or ``game`` (matters in Power Hungry
  Pets only, with its default ``reward=match``);
- ``tree`` (default ``multi``): ``multi`` or ``single``;
- ``split`` (default ``private``): ``private`` or ``none``.

``ismcts:prior=none,horizon=game,tree=single,split=none`` is the plain
single-observer algorithm.

All randomness comes from the generator passed to :meth:`IsmctsPolicy.act_in`, so
that with an iteration budget a seeded evaluation replays exactly.

Known limits: with ``tree=single`` the tree holds the opponents' moves as if the
searching seat saw them, so moves that stay hidden until later (a bid face down in
Karel Kakelaar, where the kitten goes back in Exploding Kittens, a Mouse Trapper
placement) are answered in the tree by opponents who know them (``tree=multi``
removes this, at the price of merging, in each tree, whatever the hidden move later
reveals); the opponents' private knowledge is only what ``resample_hidden`` keeps
of it; and ``reading`` weighs only the choices a game lists as hidden: the cards the
opponents were dealt by chance (their hands in Power Hungry Pets and Exploding
Kittens) are not weighed by what their past moves suggest about them, which would
need the states before those moves. In
Exploding Kittens with three or more players that is not quite a function of the
searching seat's information: ``resample_hidden`` caps the other seats' lower bounds
on each other's hands against the new deal, so a sample's bounds still reflect the
true ones. Random rollouts never read them (the game's moves do not depend on them),
so with ``rollout=random`` and ``prior=none`` the move depends only on what the seat
may know in every game; heuristic rollouts and priors read them through the other
seats' observations.
"""

from agents.ismcts.policy import IsmctsPolicy
from agents.ismcts.settings import ROLLOUTS, IsmctsSettings, SettingsError, parse_settings

__all__ = ["ROLLOUTS", "IsmctsPolicy", "IsmctsSettings", "SettingsError", "parse_settings"]
