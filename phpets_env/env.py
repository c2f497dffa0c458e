"""Power Hungry Pets, a PettingZoo AEC environment (``cardgym/power_hungry_pets-v2``).

Two to six players; an episode is a whole match of rounds, won at 3 tokens with
2-3 players and 2 tokens with 4-6 (docs/rules/power_hungry_pets.md). Each turn the player to act has
drawn a second card and plays one of the two; Grave Digger and Mouse Trapper open
a follow-up decision of the same player. Eliminated players sit out the rest of
the round but stay agents until the match ends.

Usage::

    from phpets_env import env
    game = env(num_players=4, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

Arguments of ``env()`` / ``raw_env()``:

| argument | values | default | meaning |
|---|---|---|---|
| `num_players` | 2..6 | 2 | seats at the table |
| `robovac` | `"dethrone"`, `"duel_only"` | `"dethrone"` | Royal Robovac at the showdown: with `dethrone`, King Cat cannot win a showdown that Robovac reaches; with `duel_only`, Robovac beats King Cat only when they are the last two |
| `final_tie` | `"shared"`, `"nobody"` | `"shared"` | players still tied after comparing rows all take a token, or nobody does |
| `start_player` | `"winner"`, `"rotate"`, `"random"` | `"winner"` | who starts rounds after the first (random in round 1) |
| `reward` | `"match"`, `"round"` | `"match"` | +1/-1 at match end, or +1 to each round winner and -1 to the others at each round end |
| `render_mode` | `None`, `"ansi"`, `"human"` | `None` | `"ansi"`: `render()` returns the table as text; `"human"`: `reset()` and `step()` print it by themselves (as Gymnasium and PettingZoo envs do), and so does `render()` |
| `render_seat` | seat, `None`, `"full"` | `None` | whose view `render()` shows: a seat, the agent to act, or everything |
| `illegal_action` | `"raise"`, `"lose"` | `"raise"` | an illegal action raises `IllegalMoveError`, or ends the match with -1 for the offender |
| `version` | `2`, `1` | `2` | the env version: 2 deals from the game's shared stream (`cardgym.chance`, the games the batched engine deals for a seed); 1 (deprecated) from numpy's PCG64 generator, as before |
| `engine` | `"auto"`, `"compiled"`, `"python"` | `"auto"` | the rules the game is played by: the compiled ones (the batched engine's kernels, one row; the `vector` extra) or the Python engine; `auto` takes the compiled rules when numba is installed. Both play the same game, step for step; what the kernels do not keep (the record, positions, table views) comes from the Python engine when asked for |

Settled points (docs/rules/power_hungry_pets.md and this implementation): after a shared round win the
first winner clockwise from the previous start player (that player included)
starts; with `final_tie="nobody"` and no winner, the next seat clockwise starts.
The 7 tokens can run short only in a match-deciding shared win; a tied player who
would reach the target without a token left still wins the match. Whether Grave
Digger's player swapped is seen by all; the cards are not.

Rewards: by default +1 to each match winner and -1 to the others when the match
ends (several winners are possible after a shared round win); nothing before.

Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The
mask is 1 for the legal actions of the agent to act and all zero for the others.
The vector holds only what the agent may know (docs/rules/README.md): public cards and
facts, its own hand, and what it saw or can follow: a card compared in Battle
Bunny, received or given in a swap, the set-aside card seen with Grave Digger, the
pile position where it put a card with Mouse Trapper (and who then drew it). A
known card goes stale when a shuffle or a secret placement could have moved it,
or when its holder plays a card of the same value. Per-seat fields are relative:
index 0 is the observer, then the other seats clockwise.

The public record (:mod:`phpets_env.display.record`): the engine logs every public
happening as an event, kept for the whole match: each play with its target, the
value Crystal Bowl named and whether it hit, who lost a Battle Bunny (or a tie),
the card Snake Sorcerer showed, whether Not A Pet! swapped (and with whom, which
shows the King Cat's holder), Hermit Swap, and a card played without effect;
whether Grave Digger swapped (the cards stay secret to its player); a Mouse Trapper
placement (the depth is secret to its player); every draw (the card is secret to
the drawer; Jittery Juggler's affected seats each draw); eliminations with the
card put face up; showdown reveals; round and match winners and each new round.
`recent_moves` holds the public part of the last 10 events, newest first, less the
draw that starts every turn (the seat that starts a turn always draws first, so
that draw tells nothing the next play does not; it stays in the record and the
narration, and Snake Sorcerer's and Jittery Juggler's draws stay in `recent_moves`).
At six players a seat usually sees everything since its own previous play of the
round (a play, sometimes a follow-up decision, a draw or an elimination, per turn):
under random play that play is 7 events back at the median and 11 at the 90th
percentile, and within the last 10 in 89% of the turns that follow one. Older
events drop out. `ruled_out` holds what the public events imply an opponent does
*not* hold: the value a missed Crystal Bowl named; every value up to the revealed card for
the winner of a Battle Bunny; after a tie, for both sides, the values with fewer
than two copies not yet face up; King Cat for every unprotected opponent in the
round after a Not A Pet! without a swap. It goes stale when that opponent gets a new
card (a draw, Jittery Juggler, Grave Digger's swap, Snake Sorcerer) and moves with
the hand in a Hermit Swap or Not A Pet! swap; it is cleared at each new round.
`env.narrate(seat, start)` tells the record in words as a seat saw it, and the
`ansi` render ends with what happened since the seat's last move.

<!-- observation-table -->
| offsets | field | shape | range | meaning |
|---|---|---|---|---|
| 0..10 | `my_hand` | 11 | 0..2 | count of each value 0..10 in my hand |
| 11..14 | `phase` | 4 | 0..1 | one-hot: play, grave_digger (keep or swap), mouse_trapper (place), match_over |
| 15..20 | `to_act` | 6 | 0..1 | one-hot: the seat to act (relative) |
| 21..26 | `seat_present` | 6 | 0..1 | 1 for seats at this table (relative) |
| 27..32 | `in_round` | 6 | 0..1 | 1 if the seat is still in the round |
| 33..38 | `protected` | 6 | 0..1 | 1 if the seat is protected by Shell Shield |
| 39..44 | `tokens` | 6 | 0..3 | tokens won by each seat |
| 45..50 | `round_start` | 6 | 0..1 | one-hot: the seat that started this round |
| 51..116 | `rows` | 6x11 | 0..5 | count of each value in each seat's row of played and revealed cards |
| 117..171 | `known_hands` | 5x11 | 0..2 | count of each value I know to be in each opponent's hand (seen, given, compared, or watched moving) |
| 172..182 | `face_up_aside` | 11 | 0..2 | count of each value set aside face up (two players) |
| 183..193 | `known_aside` | 11 | 0..1 | one-hot value of the face-down set-aside card if I have seen it (Grave Digger) |
| 194..194 | `aside_present` | 1 | 0..1 | 1 while the face-down set-aside card is set aside |
| 195..381 | `known_deck` | 17x11 | 0..1 | one-hot value at each depth of the draw pile (0 = top) that I know (Mouse Trapper), until a shuffle or another Mouse Trapper makes it stale |
| 382..392 | `pending_card` | 11 | 0..1 | one-hot value of the card I am putting back with Mouse Trapper |
| 393..393 | `deck_size` | 1 | 0..17 | cards in the draw pile |
| 394..394 | `tokens_to_win` | 1 | 2..3 | tokens that win the match |
| 395..904 | `recent_moves` | 10x51 | 0..1 | the public part of the last 10 events of the record, newest first, leaving out the draw that starts every turn (implied: each turn's player draws first); each is 51 one-hot columns: actor (6, relative seat; none for the table), what (19: a play of value 0..10, grave_digger, mouse_trapper, draw (after Snake Sorcerer or Jittery Juggler), eliminated, reveal, round_won, match_won, new_round), target (6, relative seat), card value (11: named by Crystal Bowl, shown by Snake Sorcerer, put face up, revealed), result (9: no_effect, hit, miss, tie, actor_lost, target_lost, swapped, kept, from_aside); all zero where there is no event |
| 905..959 | `ruled_out` | 5x11 | 0..1 | 1 for each value the table knows an opponent does not hold (a missed Crystal Bowl, the winner of a Battle Bunny holds more than the revealed card, a tie rules out values with fewer than two copies left, Not A Pet! without a swap rules out King Cat), until that opponent gets a new card |
<!-- /observation-table -->

Actions: one ``Discrete`` space; seats are offsets clockwise from the actor
(``+0`` is the actor). Cards by value: 0 royal_robovac, 1 crystal_bowl,
2 mouse_trapper, 3 battle_bunny, 4 shell_shield, 5 snake_sorcerer, 6 grave_digger,
7 jittery_juggler, 8 hermit_swap, 9 not_a_pet, 10 king_cat. ``env.action_name(i)``
and ``env.action_index(name)`` convert between indices and names.

<!-- action-table -->
| index | name | meaning |
|---|---|---|
| 0 | `play:royal_robovac` | play royal_robovac |
| 1 | `play:crystal_bowl:none` | play crystal_bowl without effect (no player can be chosen) |
| 2..51 | `play:crystal_bowl:+1:royal_robovac` .. `play:crystal_bowl:+5:king_cat` | play crystal_bowl on seat +k naming value g: index = 2 + 10*(k-1) + position of g in (0, 2, 3, ..., 10) |
| 52 | `play:mouse_trapper` | play mouse_trapper |
| 53 | `play:battle_bunny:none` | play battle_bunny without effect (no player can be chosen) |
| 54 | `play:battle_bunny:+1` | play battle_bunny on seat +1 clockwise |
| 55 | `play:battle_bunny:+2` | play battle_bunny on seat +2 clockwise |
| 56 | `play:battle_bunny:+3` | play battle_bunny on seat +3 clockwise |
| 57 | `play:battle_bunny:+4` | play battle_bunny on seat +4 clockwise |
| 58 | `play:battle_bunny:+5` | play battle_bunny on seat +5 clockwise |
| 59 | `play:shell_shield` | play shell_shield |
| 60 | `play:snake_sorcerer:+0` | play snake_sorcerer on seat +0 clockwise (myself) |
| 61 | `play:snake_sorcerer:+1` | play snake_sorcerer on seat +1 clockwise |
| 62 | `play:snake_sorcerer:+2` | play snake_sorcerer on seat +2 clockwise |
| 63 | `play:snake_sorcerer:+3` | play snake_sorcerer on seat +3 clockwise |
| 64 | `play:snake_sorcerer:+4` | play snake_sorcerer on seat +4 clockwise |
| 65 | `play:snake_sorcerer:+5` | play snake_sorcerer on seat +5 clockwise |
| 66 | `play:grave_digger` | play grave_digger |
| 67 | `play:jittery_juggler` | play jittery_juggler |
| 68 | `play:hermit_swap:none` | play hermit_swap without effect (no player can be chosen) |
| 69 | `play:hermit_swap:+1` | play hermit_swap on seat +1 clockwise |
| 70 | `play:hermit_swap:+2` | play hermit_swap on seat +2 clockwise |
| 71 | `play:hermit_swap:+3` | play hermit_swap on seat +3 clockwise |
| 72 | `play:hermit_swap:+4` | play hermit_swap on seat +4 clockwise |
| 73 | `play:hermit_swap:+5` | play hermit_swap on seat +5 clockwise |
| 74 | `play:not_a_pet` | play not_a_pet |
| 75 | `play:king_cat` | play king_cat |
| 76 | `grave_digger:keep` | keep the hand card |
| 77 | `grave_digger:swap` | swap the hand card with the set-aside card |
| 78..94 | `mouse_trapper:depth=0` .. `mouse_trapper:depth=16` | put the card back with d cards above it: index = 78 + d |
<!-- /action-table -->

Scenarios and positions: ``reset(options={"scenario": {...}})`` sets up any position
of a match; cards by value or name, whatever is left out dealt at random or at its
default. Without ``to_act`` a round is about to begin (``hands`` of one card each,
``deck`` or ``deck_top`` top first, ``set_aside``, ``face_up``, ``first_player``,
``tokens``, ``round``), and its start player draws first. With ``to_act`` the position
is taken as it is: ``phase``, ``rows``, ``eliminated``, ``protected``, a short ``deck``,
Mouse Trapper's ``pending`` card, ``ruled_out``, what each seat knows (``known``),
``round_winners``, ``match_winners`` and the ``log``. ``env.position()`` writes the
current state as such a scenario, and resetting to it goes on exactly as from here.
Every key is in :mod:`phpets_env.positions.scenario` and docs/positions.md. Example::

    game.reset(seed=0, options={"scenario": {
        "hands": ["crystal_bowl", "king_cat"], "deck_top": ["battle_bunny"],
        "first_player": 0}})
    game.reset(options={"scenario": {
        "to_act": 0, "hands": [["crystal_bowl", "battle_bunny"], ["shell_shield"], []],
        "rows": [[], [], ["king_cat"]], "protected": [1]}})

Version history: v0, first release. v1: the public record in every observation
(`recent_moves`, the last 10 events less the turn-start draws; `ruled_out`, the
values the table knows a seat does not hold), 395 -> 960 floats; `cardgym play` and
the ansi render tell what happened since a seat's last move. v2: the game's chance comes from one
SplitMix64 stream (:mod:`cardgym.chance`), so that a seed deals the same game here
and in row 0 of the batched engine; actions and observations
did not change (policies trained on v1 play v2). v1 stays registered
(`version=1`, or `pettingzoo.make` with `-v1`) and deals from numpy's PCG64
generator as before, with a deprecation warning.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

from cardgym.aec import RENDER_FPS, RENDER_MODES, CardGameEnv
from phpets_env.encoding.encoding import (
    ACTION_TABLE,
    OBSERVATION_SPEC,
)
from phpets_env.engine.state import Config, State
from phpets_env.game import GAME

ENV_ID = GAME.env_id

#: Runs of actions collapsed into one row of the docs table.
DOC_GROUPS = [
    ("play:crystal_bowl:+",
     "play crystal_bowl on seat +k naming value g: index = 2 + 10*(k-1) + position of g "
     "in (0, 2, 3, ..., 10)"),
    ("mouse_trapper:depth=", "put the card back with d cards above it: index = 78 + d"),
]


class raw_env(CardGameEnv[State]):  # noqa: N801 (PettingZoo naming)
    """Power Hungry Pets AEC environment; see the module docstring."""

    game = GAME
    action_table = ACTION_TABLE
    observation_spec = OBSERVATION_SPEC
    metadata: ClassVar[dict[str, Any]] = {
        "name": "power_hungry_pets_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        robovac: str = "dethrone",
        final_tie: str = "shared",
        start_player: str = "winner",
        reward: str = "match",
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        self.config = Config(num_players, robovac, final_tie, start_player, reward)
        super().__init__(num_players, render_mode, render_seat, illegal_action, version,
                         engine)


def env(**kwargs: Any) -> raw_env:
    """Power Hungry Pets with the safety of PettingZoo's standard wrappers built in.

    Order checks, action bounds and illegal-action handling are done inline by the
    base class, so no wrapper chain is applied (see :mod:`cardgym.aec`).
    """
    return raw_env(**kwargs)


# The package's ``env`` (this function) shadows the module of the same name, so
# ``help(<package>.env)`` and ``<package>.env.__doc__`` find the function: give it the
# page, then its own note.
if __doc__ and env.__doc__:
    env.__doc__ = f"{__doc__}\n``env(**kwargs)``: {inspect.cleandoc(env.__doc__)}\n"
