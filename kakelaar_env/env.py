"""Karel Kakelaar, a PettingZoo environment (``cardgym/karel_kakelaar-v2``), AEC and parallel.

Two to five players bid for worms over nine rounds (docs/rules/karel_kakelaar.md). Each round a row
of cards (one per player; 3 with two players) is turned up; everyone bids one hand
card face down; the highest bid takes position 1, the next position 2, and so on;
bids go to their owner's discard pile. Then each player may play a mother hen to
take two cards of their discard pile back into hand. After round 9 the worms in hand
score. With two players a robot chicken bids the top card of its own deck.

Usage::

    from kakelaar_env import env, parallel_env
    game = env(num_players=4, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

Arguments of ``env()`` / ``raw_env()`` / ``parallel_env()``:

| argument | values | default | meaning |
|---|---|---|---|
| `num_players` | 2..5 | 2 | seats at the table; with 2 a robot chicken bids too |
| `worm_counts` | 8 integers >= 0 summing to 36 | `(5, 5, 5, 5, 4, 4, 4, 4)` | worms of value 1..8 (the printed rules do not give them) |
| `reward` | `"win_loss"`, `"score_difference"` | `"win_loss"` | +1 to each winner and -1 to every other player, or own worm total minus the mean of the other players' totals |
| `final_tie` | `"shared"`, `"draw"` | `"shared"` | players tied on worms and on hand size all win (+1), or draw (0; the others -1) |
| `render_mode` | `None`, `"ansi"`, `"human"` | `None` | `"ansi"`: `render()` returns the table as text; `"human"`: `reset()` and `step()` print it by themselves (as Gymnasium and PettingZoo envs do), and so does `render()` |
| `render_seat` | seat, `None`, `"full"` | `None` | whose view `render()` shows: a seat, the agent to act (in the parallel env the seat whose commit is next), or everything |
| `illegal_action` | `"raise"`, `"lose"` | `"raise"` | an illegal action raises `IllegalMoveError`, or ends the game with -1 for the offender(s) and 0 for the others |
| `version` | `2`, `1` | `2` | the env version: 2 deals from the game's shared stream (`cardgym.chance`, the games the batched engine deals for a seed); 1 (deprecated) from numpy's PCG64 generator, as before |
| `engine` | `"auto"`, `"compiled"`, `"python"` | `"auto"` | the rules the game is played by: the compiled ones (the batched engine's kernels, one row; the `vector` extra) or the Python engine; `auto` takes the compiled rules when numba is installed. Both play the same game, step for step; what the kernels do not keep (the record, positions, table views) comes from the Python engine when asked for |

Stages and turn order. A round has up to four stages; in each, every seat with a
decision commits one choice, and nothing a seat commits is shown to any other seat
until the stage resolves, when all choices are revealed together:

1. ``bid``: each seat holding a worm or chicken bids one (never a mother hen). The
   robot's bid (two players) is its top card, turned up at the reveal.
2. ``hen``: each seat holding a mother hen plays one or not. A seat with only hens in
   hand must play one (rounds 1-8; after round 9 there is no next bid).
3. ``take_first`` and ``take_second``: each seat that played a hen and has more than
   two cards in its discard pile picks a card to take back, twice. With two cards or
   fewer it takes them all without choosing (at the hen reveal).

The AEC env asks the seats with a decision one at a time, the tractor holder first,
then clockwise; seats with nothing to decide are not asked (who has a decision is
public: hands are public, see below). The parallel env (``parallel_env()``,
registered as ``pettingzoo.make("parallel", "cardgym/karel_kakelaar-v2")``) takes one
step per stage in which every agent acts at once: a seat with nothing to decide has
one legal action, ``hen:none`` in the hen stage and ``pass`` in the others. Both envs
play the same game: a stage's commits are hidden until it resolves, so their order
carries no information.

Settled points (docs/rules/karel_kakelaar.md and this implementation): equal bids rank by
closeness to the tractor clockwise, the holder first; with two players the circle is
first holder, other player, robot. A seat with no card to bid (only possible with a
scenario) bids nothing and ranks below every bid. After round 9 and its mother-hen
step the worms in hand score; ties go to fewer hand cards, then ``final_tie``. Cards
taken back from the face-up discard pile are public when the stage resolves.

Information (docs/rules/README.md): every card enters and leaves a hand face up (the five
chickens dealt, the row cards won, the bids revealed, hens played, cards taken back
from a face-up discard pile), so every hand is public and the observation shows them
all. Hidden: the draw pile's order, which cards were removed unseen (their union is
public: ``unseen``), the robot deck's order (its contents are public), and what the
other seats have committed in the current stage.

Public record. The game keeps a log of what happens at the table
(:mod:`kakelaar_env.display.record`): each face-down commit (who bid, chose a hen or picked
a card, the choice itself seen only by that seat), each reveal (every bid, the robot's
included, and which row position and card each participant took), the mother hens
played (and whether a seat had to, holding only hens), each card taken back, the
start of each round with its tractor holder, and the final scores and winners.
``env.narrate(seat, start)`` tells it in words as that seat saw it, and the ``ansi``
render of a seat ends with what happened since that seat's last move. The observation
holds the record of one round (K = 1 round) in ``recent_moves``: for the newest round
whose bids are revealed, one row per participant (the observer first, then clockwise;
row 5 the robot) with the row position and card it took, whether it bid nothing,
played a mother hen (and had to), and the cards it took back; its bids are in
``last_bids``. It is the current round's from its reveal on (filled in as the hens and
take-backs resolve) and the previous round's during the bids, so it goes stale at the
next reveal. One round is enough: everything public between two bid stages is in it,
and every seat observes at each bid stage. The face-down commits are not in it (who
commits is public through ``to_act``; what, nobody else sees). No public event implies
knowledge beyond itself (hands are public, so there is nothing to rule out): the
observation has no ``ruled_out`` field.

Rewards: at the end of the game only, per ``reward`` (nothing before). ``win_loss``:
+1 to each winner, -1 to every other player; ``final_tie="draw"`` gives tied winners
0 instead. ``score_difference``: own worm total minus the mean of the other players'.

Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The
mask is 1 for the legal actions of the agent to act (AEC) or of every agent
(parallel) and all zero for agents not to act. Per-seat fields are relative:
index 0 is the observer, then the other seats clockwise; absent seats are zero.
Card types are worm_1..worm_8, chicken_3..chicken_7, hen, in that order.

<!-- observation-table -->
| offsets | field | shape | range | meaning |
|---|---|---|---|---|
| 0..4 | `phase` | 5 | 0..1 | one-hot stage: bid, hen (play a mother hen or not), take_first, take_second (cards taken back after a mother hen), game_over |
| 5..5 | `round` | 1 | 1..9 | the round, 1..9 |
| 6..10 | `seat_present` | 5 | 0..1 | 1 for seats at this table |
| 11..55 | `row` | 5x9 | 0..1 | one-hot card at each row position 1..5 (worm_1..worm_8, hen); empty positions and the stages after the bids are all zero |
| 56..60 | `robot_remaining` | 5 | 0..3 | count of chicken_3..chicken_7 left in the robot deck (two players) |
| 61..69 | `unseen` | 9 | 0..36 | count of worm_1..worm_8 and hens nobody has seen (in the draw pile or removed unseen) |
| 70..70 | `draw_pile` | 1 | 0..40 | cards left in the draw pile |
| 71..75 | `to_act` | 5 | 0..1 | one-hot: the seat whose commit is next (the AEC env's agent to act; in the parallel env the first deciding seat) |
| 76..80 | `deciding` | 5 | 0..1 | 1 for each seat with a decision in this stage (public: who holds a biddable card, a mother hen, or more than two cards in the discard pile after a hen) |
| 81..86 | `tractor` | 6 | 0..1 | one-hot: the tractor holder; index 5 is the robot chicken (two players) |
| 87..92 | `tie_rank` | 6 | 0..5 | rank of each participant among equal bids this round: 1 for the tractor holder, then 2, 3, ... clockwise (with two players the circle is first holder, other player, robot); index 5 is the robot; 0 = not at the table |
| 93..106 | `my_hand` | 14 | 0..9 | count of each type in my hand: worm_1..worm_8, chicken_3..chicken_7, hen (a bid I committed stays in it until the bids are revealed) |
| 107..119 | `my_bid` | 13 | 0..1 | one-hot: the card I bid, before the reveal |
| 120..120 | `my_hen` | 1 | 0..1 | 1 if I chose to play a mother hen, before the reveal |
| 121..133 | `my_picks` | 13 | 0..2 | count of each type I chose to take back, before the reveal |
| 134..189 | `opponent_hands` | 4x14 | 0..9 | count of each type in each opponent's hand (public: every card enters and leaves a hand face up) |
| 190..254 | `discards` | 5x13 | 0..9 | count of each type (worm_1..worm_8, chicken_3..chicken_7) in each seat's discard pile |
| 255..259 | `hand_sizes` | 5 | 0..14 | cards in each seat's hand |
| 260..264 | `scores` | 5 | 0..72 | worm total in each seat's hand |
| 265..269 | `hen_played` | 5 | 0..1 | 1 for seats that played a mother hen in this mother-hen step (revealed) |
| 270..347 | `last_bids` | 6x13 | 0..1 | one-hot bid of each seat in the last resolved round (row 5: the robot chicken); all zero before round 1 resolves and for a seat that bid nothing |
| 348..527 | `recent_moves` | 6x30 | 0..2 | the public record of the newest round whose bids are revealed (the round of last_bids; the current round from its reveal on, the previous one during the bids), one row per participant (row 5: the robot chicken); columns: 0..4 one-hot row position taken (1..5), 5..13 one-hot row card taken (worm_1..worm_8, hen), 14 bid nothing (no card to bid), 15 played a mother hen, 16 had to (only hens in hand), 17..29 count of each type (worm_1..worm_8, chicken_3..chicken_7) taken back from the discard pile; all zero before round 1's reveal |
<!-- /observation-table -->

Actions: one ``Discrete`` space shared by the AEC and parallel envs.
``env.action_name(i)`` and ``env.action_index(name)`` convert between indices and
names.

<!-- action-table -->
| index | name | meaning |
|---|---|---|
| 0..12 | `bid:worm_1` .. `bid:chicken_7` | bid a card of type t face down: index = t (worm_1..worm_8 = 0..7, chicken_3..chicken_7 = 8..12) |
| 13 | `hen:none` | play no mother hen this round |
| 14 | `hen:play` | play a mother hen: it leaves the game and I take two cards of my discard pile back (all of them if it holds two or fewer) |
| 15..27 | `take:worm_1` .. `take:chicken_7` | take a card of type t back from my discard pile: index = 15 + t |
| 28 | `pass` | parallel env only: nothing to decide in this step (no card to bid, or no card to choose to take back) |
<!-- /action-table -->

Scenarios: ``reset(options={"scenario": {...}})`` sets up any position of a game, and
``env.position()`` writes the current one as such a scenario (JSON types; resetting
to it gives the same state, drawing nothing from the generator).
Keys: ``round``, ``phase`` (``bid``, ``hen``, ``take_first``, ``take_second``),
``to_act``, ``tractor`` (the holder in ``round``; with two players also ``circle``),
the cards (``hands``, ``discards``, ``row``, ``deck`` or ``deck_top`` top first,
``removed``, ``hens_out``; with two players ``robot_deck``, ``robot_discard``,
``robot_won``), the stage in progress (``bids``, ``hen_choices``, ``hen_played``,
``picks``, ``last_bids``), ``winners`` and ``log``; cards by name (``"worm_5"``,
``"w5"``, ``5``, ``"chicken_3"``, ``"c3"``, ``"hen"``). What a scenario leaves out is
dealt at random or takes its default; the seats asked in a stage and their order
follow from the rules. A scenario in which a seat could come to hold more than a
dealt game allows (9 of a kind, 14 cards, worms worth 72: the observation's bounds)
is refused. Every key, its value and its default: :mod:`kakelaar_env.positions.scenario` and
docs/positions.md. Example::

    duel = env(num_players=2)
    duel.reset(seed=0, options={"scenario": {
        "tractor": 0, "deck_top": ["w8", "hen", "w1"], "robot_deck": ["c5"]}})
    table = env(num_players=3)  # mid-stage: seat 1 has bid face down, seat 2 is next
    table.reset(seed=0, options={"scenario": {
        "round": 4, "tractor": 1, "row": ["w8", "w5", "w1"], "bids": [None, "c6", None]}})
    again = env(num_players=3)
    again.reset(options={"scenario": table.position()})  # the same state

Version history: v0, first release. v1: the public record of the round in every
observation (`recent_moves`: who took which row card, hens played or forced,
cards taken back), 348 -> 528 floats; `cardgym play` and the ansi render tell
what happened since a seat's last move. Later in v1 (no change of actions or
observations): scenarios reach any position, and the scenario key `tractor` names the
holder in the scenario's own round (it named the round-1 holder; the same for round 1). v2: the game's chance comes from one
SplitMix64 stream (:mod:`cardgym.chance`), so that a seed deals the same game here,
in the parallel env and in row 0 of the batched engine; actions and observations
did not change (policies trained on v1 play v2). v1 stays registered
(`version=1`, or `pettingzoo.make` with `-v1`) and deals from numpy's PCG64
generator as before, with a deprecation warning.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, ClassVar

from cardgym.aec import RENDER_FPS, RENDER_MODES, CardGameEnv
from kakelaar_env.encoding.encoding import (
    ACTION_TABLE,
    OBSERVATION_SPEC,
)
from kakelaar_env.engine.cards import DEFAULT_WORM_COUNTS
from kakelaar_env.engine.state import Config, State
from kakelaar_env.game import GAME
from kakelaar_env.parallel import parallel_env

ENV_ID = GAME.env_id

#: Runs of actions collapsed into one row of the docs table.
DOC_GROUPS = [
    ("bid:", "bid a card of type t face down: index = t (worm_1..worm_8 = 0..7, "
             "chicken_3..chicken_7 = 8..12)"),
    ("take:", "take a card of type t back from my discard pile: index = 15 + t"),
]


class raw_env(CardGameEnv[State]):  # noqa: N801 (PettingZoo naming)
    """Karel Kakelaar AEC environment; see the module docstring."""

    game = GAME
    action_table = ACTION_TABLE
    observation_spec = OBSERVATION_SPEC
    metadata: ClassVar[dict[str, Any]] = {
        "name": "karel_kakelaar_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        # A native parallel env exists; PettingZoo's aec_to_parallel would not fit
        # (the AEC env asks only the seats with a decision).
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        worm_counts: Sequence[int] = DEFAULT_WORM_COUNTS,
        reward: str = "win_loss",
        final_tie: str = "shared",
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        # Config validates worm_counts and stores it as a tuple.
        self.config = Config(num_players, worm_counts, reward, final_tie)  # type: ignore[arg-type]
        super().__init__(num_players, render_mode, render_seat, illegal_action, version,
                         engine)


def env(**kwargs: Any) -> raw_env:
    """Karel Kakelaar with the safety of PettingZoo's standard wrappers built in.

    Order checks, action bounds and illegal-action handling are done inline by the
    base class, so no wrapper chain is applied (see :mod:`cardgym.aec`).
    """
    return raw_env(**kwargs)


# The package's ``env`` (this function) shadows the module of the same name, so
# ``help(<package>.env)`` and ``<package>.env.__doc__`` find the function: give it the
# page, then its own note.
if __doc__ and env.__doc__:
    env.__doc__ = f"{__doc__}\n``env(**kwargs)``: {inspect.cleandoc(env.__doc__)}\n"


__all__ = ["DOC_GROUPS", "ENV_ID", "env", "parallel_env", "raw_env"]
