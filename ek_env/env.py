"""Exploding Kittens, a PettingZoo AEC environment (``cardgym/exploding_kittens-v2``).

Two to nine players (two base decks from six on), docs/rules/exploding_kittens.md. On your turn you
play any number of cards, one play at a time, then end the turn by drawing; draw
an Exploding Kitten without a Defuse and you are out. The last player standing
wins. Every decision of the rules is a step of the agent who makes it: the turn
holder's plays and targets, the card named in three of a kind, the kinds of five
different, every player's answer in a Nope window, the card given on a Favor, the
depth a defused kitten goes back to, and the card taken from the discard pile.

Usage::

    from ek_env import env
    game = env(num_players=3, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

Arguments of ``env()`` / ``raw_env()``:

| argument | values | default | meaning |
|---|---|---|---|
| `num_players` | 2..9 | 2 | seats at the table; two base decks from 6 |
| `hand_size` | `7`, `4` | `7` | cards dealt to each player besides their Defuse (4: 2015 edition) |
| `deck_defuses` | `"seed"`, `"2024"` | `"seed"` | leftover Defuses in the draw pile: all (2 with two players), or at most 2; with two decks all |
| `attack_stacking` | `"reset"`, `"stack"` | `"reset"` | an attacked player's Attack: the next player owes 2, or the attacker's owed turns (current one included) plus 2 |
| `combos` | `True`, `False` | `True` | special combos (two and three of any name, five different); `False` keeps cat pairs only |
| `empty_hand_target` | `"allowed"`, `"forbidden"` | `"allowed"` | may Favor and pairs target a player without cards (to no effect)? Three of a kind may always target anyone |
| `eliminated_cards` | `"discard"`, `"out_of_play"` | `"discard"` | an exploded player's hand and kitten go to the discard pile, or are shown and set aside |
| `expansions` | `()`, `("streaking",)` | `()` | the Streaking Kittens expansion (docs/rules/exploding_kittens.md, Streaking Kittens; see below); a single name or a list is accepted too |
| `fast` | `False`, `True` | `False` | Streaking Kittens only: a third of the undealt cards (rounded down) go back to the box unseen before the kittens and Defuses go in |
| `render_mode` | `None`, `"ansi"`, `"human"` | `None` | `"ansi"`: `render()` returns the table as text; `"human"`: `reset()` and `step()` print it by themselves (as Gymnasium and PettingZoo envs do), and so does `render()` |
| `render_seat` | seat, `None`, `"full"` | `None` | whose view `render()` shows: a seat, the agent to act, or everything |
| `illegal_action` | `"raise"`, `"lose"` | `"raise"` | an illegal action raises `IllegalMoveError`, or ends the game with -1 for the offender |
| `version` | `2`, `1` | `2` | the env version: 2 deals from the game's shared stream (`cardgym.chance`); 1 (deprecated) from numpy's PCG64 generator, as before |
| `engine` | `"auto"`, `"python"` | `"auto"` | the rules the game is played by; this game has no compiled rules yet, so both mean the Python engine (`"compiled"` is refused saying so) |

Turns: the turn holder owes a number of turns (1 normally, 2 after an Attack);
a draw, a Skip and a Defuse each settle one. Attack ends the turn holder's turns
without a draw and the next living player owes 2 (see `attack_stacking`).

Nope windows: after every Nope-able play is announced with its choices (all plays
except drawing; a Defuse is never played by choice and a kitten never), every living
player is asked in turn, clockwise from the next seat, the player who made the play
last, whether to Nope. A Nope opens a new window answering it, asked in the same
way clockwise after the Noper. When a whole window passes, the play happens if the
number of Nopes is even. Everyone is asked whether they hold a Nope or not (with
`pass` the only legal action without one), so that being asked tells nobody
anything (docs/rules/README.md). Noped cards stay in the discard pile.

Compound choices are phases of the turn holder: three of a kind is played with
its target, then the card is named (`name_card`), then the Nope window; five
different is started with `five`, then its five kinds are chosen one at a time in
ascending kind order (`choose_five`), then the Nope window, then the card is taken
from the discard pile (`take`, any card but an Exploding Kitten, including those
just played). A Favor that resolves against a player with cards opens `give` for
that player. A drawn kitten with a Defuse in hand is defused at once (the Defuse
is played automatically, as the rules require) and the drawer chooses the depth
(`insert`, 0 = top .. deck size = bottom).

Settled points (docs/rules/exploding_kittens.md and this implementation): targets are living players
other than the turn holder; a Defuse never joins a combo; a Nope may be one of
the cards of a pair, three of a kind or five different; the five different kinds
exclude Exploding Kitten and Defuse; three of a kind may name any card, the
Exploding Kitten included (to no effect in the base game); whether the target had
the named card is public, as the card changes hands face up. A card given on a
Favor or stolen by a pair is seen by the two players only. With
`eliminated_cards="out_of_play"` the exploded hand is shown before it is set
aside, so its cards are public.

Rewards: -1 to a player when they explode (they then leave the game, the
PettingZoo way: terminated, stepping with `None`), +1 to the winner when the game
ends. Nothing else.

Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The
mask is 1 for the legal actions of the agent to act and all zero for the others.
The vector holds only what the agent may know (docs/rules/README.md): public facts (hand
sizes, discard pile, deck size, kittens in the deck, owed turns, the phase and the
pending play with its Nope count), its own hand, the depths of the draw pile it
saw with See the Future or chose for its own Defuse (until a shuffle or another
player's insertion makes them stale; a draw shifts them up), and the cards it
knows to be in each opponent's hand (lower bounds: cards it gave them, or saw them
steal, receive, be handed in three of a kind, take from the discard pile, or draw
from a top it knew; a card leaving that hand unseen makes the bound stale). Per-seat
fields are relative: index 0 is the observer, then the other seats clockwise.

The public record (issue 16; :mod:`ek_env.engine.record`). The engine logs every
happening at the table as an event (``game.narrate(seat)`` puts them in words):
each play with its target (a single card, a pair, three of a kind and the card it
names, each kind of five different), each Nope and whom it answers, the outcome of
every Nope window (the play goes ahead or is stopped; passes are not logged one by
one, as everyone is asked in a fixed order), and each result: a card given on a
Favor or stolen by a pair (which card: seen by the two players only; public if it
is a kitten or a marked copy; "nothing" for an empty hand), three of a kind hitting
or missing, the card five different takes, every draw (the card seen by the drawer
only, except an Exploding Kitten, which is shown), Defuses, the depth a kitten goes
back to (seen by its player only), eliminations, See the Future (how many cards;
which, only to the player) and a game ending on an empty draw pile. `recent_moves`
holds the public part of the last 8 events (K = 8), newest first, one row each:
one-hot event, actor and target (relative seats), public card and result; zeros
where there is none. One step logs at most 2 events in the base game (a Nope
window's outcome and its steal, a draw and its Defuse or elimination), so the
newest move of any seat at any table is always in view; with the expansion a step
logs more only when a blind player turns up cards looking for a Defuse or blind
players put cards in after a Garbage Collection (random play at 2, 5 and 9 players
logs at most 7). `ruled_out` is public negative knowledge: a missed three of a
kind tells the table that its target holds no card of the named kind; the flag is
cleared when that seat gains a card the table did not see (a draw, a Favor
received, a steal), or a card of that kind in plain sight.

<!-- observation-table -->
| offsets | field | shape | range | meaning |
|---|---|---|---|---|
| 0..12 | `my_hand` | 13 | 0..12 | count of each kind in my hand (kind order: exploding_kitten, defuse, attack, skip, favor, shuffle, see_the_future, nope, taco_cat, hairy_potato_cat, cattermelon, rainbow_ralphing_cat, beard_cat) |
| 13..20 | `phase` | 8 | 0..1 | one-hot: play, choose_five, name_card, nope_window, give, insert, take, game_over |
| 21..29 | `to_act` | 9 | 0..1 | one-hot: the seat deciding now (relative) |
| 30..38 | `turn_holder` | 9 | 0..1 | one-hot: whose turn it is (relative) |
| 39..47 | `seat_present` | 9 | 0..1 | 1 for seats at this table (relative) |
| 48..56 | `alive` | 9 | 0..1 | 1 if the seat has not exploded (relative) |
| 57..65 | `hand_sizes` | 9 | 0..112 | cards in each seat's hand (relative) |
| 66..66 | `owed_turns` | 1 | 0..64 | turns the turn holder owes, the current one included (capped at 64) |
| 67..67 | `attacked` | 1 | 0..1 | 1 if the turn holder's turns come from an Attack |
| 68..68 | `deck_size` | 1 | 0..79 | cards in the draw pile |
| 69..69 | `kittens_in_deck` | 1 | 0..8 | Exploding Kittens in the draw pile |
| 70..82 | `discard` | 13 | 0..12 | count of each kind in the discard pile |
| 83..95 | `out_of_play` | 13 | 0..12 | count of each kind set aside from exploded players (eliminated_cards='out_of_play') |
| 96..99 | `pending_play` | 4 | 0..1 | one-hot: the announced play awaiting its Nope window: single, pair, three, five |
| 100..112 | `pending_card` | 13 | 0..1 | one-hot: the card of the pending single play, pair or three of a kind |
| 113..125 | `pending_five` | 13 | 0..1 | kinds chosen so far for five different |
| 126..134 | `pending_target` | 9 | 0..1 | one-hot: the pending play's target (relative) |
| 135..147 | `pending_named` | 13 | 0..1 | one-hot: the card named in three of a kind |
| 148..148 | `nopes` | 1 | 0..10 | Nopes played on the pending play (it happens if even) |
| 149..157 | `window_opener` | 9 | 0..1 | one-hot: whose play or Nope the running Nope window answers (relative) |
| 158..1184 | `known_deck` | 79x13 | 0..1 | one-hot kind at each depth of the draw pile (0 = top) that I saw (See the Future) or placed (my Defuse), until a shuffle or another player's insertion makes it stale |
| 1185..1288 | `known_hands` | 8x13 | 0..12 | count of each kind I know to be in each opponent's hand (given, received, stolen, asked for, taken from the discard pile, or drawn from a top I knew) |
| 1289..1405 | `ruled_out` | 9x13 | 0..1 | 1 if the table knows the seat holds no card of the kind: a three of a kind asked for it and missed; cleared when the seat's hand gains a card that could be one (relative) |
| 1406..1869 | `recent_moves` | 8x58 | 0..1 | the last 8 events of the public record, newest first, one row each (zeros where there is none): one-hot event (play, pair, three, name, five, nope, window, give, steal, ask, take, draw, defuse, insert, out, saw, dry; 17), actor (9, relative), target (9, relative), card (13, the public card: played, named, shown, taken), result (10: 0 nothing/miss/stopped/lost, 1 done/hit/allowed/played, 2 a marked copy or already marked, 3 exploded; a count for saw, altered, bomb, and the Nopes so far for nope); see ek_env.engine.record for what each event holds |
<!-- /observation-table -->

Actions (one `Discrete` space; seat offsets are clockwise from the turn holder,
`+1` the next seat; offsets beyond the table size are never legal):

<!-- action-table -->
| index | name | meaning |
|---|---|---|
| 0 | `draw` | end the turn by drawing the top card |
| 1 | `play:attack` | play attack |
| 2 | `play:skip` | play skip |
| 3..10 | `play:favor:+1` .. `play:favor:+8` | play favor on seat +k: index = 2 + k |
| 11 | `play:shuffle` | play shuffle |
| 12 | `play:see_the_future` | play see_the_future |
| 13..100 | `pair:attack:+1` .. `pair:beard_cat:+8` | pair of kind c against seat +k: index = 13 + 8 * (position of c among the 11 combo kinds) + (k - 1) |
| 101..188 | `three:attack:+1` .. `three:beard_cat:+8` | three of kind c against seat +k: index = 101 + 8 * (position of c among the 11 combo kinds) + (k - 1) |
| 189 | `five` | start five different (choose the kinds next) |
| 190 | `five:attack` | add attack to five different |
| 191 | `five:skip` | add skip to five different |
| 192 | `five:favor` | add favor to five different |
| 193 | `five:shuffle` | add shuffle to five different |
| 194 | `five:see_the_future` | add see_the_future to five different |
| 195 | `five:nope` | add nope to five different |
| 196 | `five:taco_cat` | add taco_cat to five different |
| 197 | `five:hairy_potato_cat` | add hairy_potato_cat to five different |
| 198 | `five:cattermelon` | add cattermelon to five different |
| 199 | `five:rainbow_ralphing_cat` | add rainbow_ralphing_cat to five different |
| 200 | `five:beard_cat` | add beard_cat to five different |
| 201 | `name:exploding_kitten` | three of a kind: ask for exploding_kitten |
| 202 | `name:defuse` | three of a kind: ask for defuse |
| 203 | `name:attack` | three of a kind: ask for attack |
| 204 | `name:skip` | three of a kind: ask for skip |
| 205 | `name:favor` | three of a kind: ask for favor |
| 206 | `name:shuffle` | three of a kind: ask for shuffle |
| 207 | `name:see_the_future` | three of a kind: ask for see_the_future |
| 208 | `name:nope` | three of a kind: ask for nope |
| 209 | `name:taco_cat` | three of a kind: ask for taco_cat |
| 210 | `name:hairy_potato_cat` | three of a kind: ask for hairy_potato_cat |
| 211 | `name:cattermelon` | three of a kind: ask for cattermelon |
| 212 | `name:rainbow_ralphing_cat` | three of a kind: ask for rainbow_ralphing_cat |
| 213 | `name:beard_cat` | three of a kind: ask for beard_cat |
| 214 | `nope` | Nope the pending play or Nope |
| 215 | `pass` | let the pending play or Nope stand |
| 216 | `give:defuse` | Favor: give defuse |
| 217 | `give:attack` | Favor: give attack |
| 218 | `give:skip` | Favor: give skip |
| 219 | `give:favor` | Favor: give favor |
| 220 | `give:shuffle` | Favor: give shuffle |
| 221 | `give:see_the_future` | Favor: give see_the_future |
| 222 | `give:nope` | Favor: give nope |
| 223 | `give:taco_cat` | Favor: give taco_cat |
| 224 | `give:hairy_potato_cat` | Favor: give hairy_potato_cat |
| 225 | `give:cattermelon` | Favor: give cattermelon |
| 226 | `give:rainbow_ralphing_cat` | Favor: give rainbow_ralphing_cat |
| 227 | `give:beard_cat` | Favor: give beard_cat |
| 228..306 | `insert:depth=0` .. `insert:depth=78` | put the kitten back with d cards above it: index = 228 + d |
| 307 | `take:defuse` | five different: take defuse from the discard pile |
| 308 | `take:attack` | five different: take attack from the discard pile |
| 309 | `take:skip` | five different: take skip from the discard pile |
| 310 | `take:favor` | five different: take favor from the discard pile |
| 311 | `take:shuffle` | five different: take shuffle from the discard pile |
| 312 | `take:see_the_future` | five different: take see_the_future from the discard pile |
| 313 | `take:nope` | five different: take nope from the discard pile |
| 314 | `take:taco_cat` | five different: take taco_cat from the discard pile |
| 315 | `take:hairy_potato_cat` | five different: take hairy_potato_cat from the discard pile |
| 316 | `take:cattermelon` | five different: take cattermelon from the discard pile |
| 317 | `take:rainbow_ralphing_cat` | five different: take rainbow_ralphing_cat from the discard pile |
| 318 | `take:beard_cat` | five different: take beard_cat from the discard pile |
<!-- /action-table -->

Scenarios: ``reset(options={"scenario": {...}})`` starts from a chosen position,
cards by name, the deck top first::

    game.reset(seed=0, options={"scenario": {
        "hands": [["defuse", "attack"], ["nope", "skip"]],
        "deck": ["exploding_kitten", "taco_cat"],
        "turn_holder": 0}})

`hands` and `deck` are required (in the base game the deck holds one kitten fewer
than the players still in; at most 79 cards, the largest pile a game deals, or 126
with the expansion); every other key has a default: `discard`, `out_of_play`, `eliminated`,
`turn_holder` (old name `first_player`), `owed_turns`, `attacked`, `turns_played`,
`phase`, `to_act`, `pending`, `kittens_to_insert`, `resume`, `winner`, `known`,
`ruled_out`, `log`, and with the expansion `explode_queue`, `alter`, `garbage`,
`blind`, `marked`. A scenario can so describe any position of a game: mid Nope window,
a kitten to put back, players already out. ``game.position()`` writes the current
state as a scenario naming everything, from which ``reset`` sets up the same state
again (:data:`ek_env.positions.position.FORMAT` declares the keys; docs/positions.md).

Streaking Kittens (``expansions=("streaking",)``, docs/rules/exploding_kittens.md, Streaking Kittens). The 15 cards
join the base deck(s): setup as above with the 14 non-kitten cards shuffled in
before dealing, as many Exploding Kittens as players, and 2 leftover Defuses with
2-4 players, 1 with 5, all with 6-9 (`deck_defuses` does not apply). The rules as
implemented, with the points the rule texts leave open settled:

- *Streaking Kitten.* Drawing a kitten while holding the Streaking Kitten and no
  kitten, you keep it, unrevealed (no choice). A second one is defused or you are
  out. If the Streaking Kitten leaves your hand (given, stolen, named in three of a
  kind, put in by Garbage Collection, turned up blind) while you hold a kitten, it
  explodes at once: your Defuse is played and you put it back (`insert`, asked of
  you even outside your turn; it settles none of your owed turns), or you are out
  and the turn holder plays on. Whoever receives a kitten from a hand (Favor, a
  steal, three of a kind) explodes, Streaking Kitten or not. A Favor's giver may
  give a held kitten. Neither kitten card is ever played by choice, nor part of a
  combo, nor taken by five different.
- *Catomic Bomb*: every kitten out of the draw pile, the rest shuffled, the kittens
  on top (everyone then knows the top cards are kittens); settles one owed turn.
  *Super Skip*: settles all owed turns. *See the Future 5x*: you see the top 5.
  *Alter the Future 5x*: the top 5 (fewer if the pile is smaller) come off the pile
  while you put them back one at a time, top first (`alter:<card>`; the last goes
  by itself); you know the new order, the others know only that it changed.
  *Swap Top and Bottom*: swapped unseen; whoever knew one of them knows where it
  went. *Garbage Collection*: every living player with cards, you first and then
  clockwise, puts one card of their choice into the draw pile, unseen by the others
  (`garbage:<card>`); a blind player's card is random (not asked). Then the pile is
  shuffled, and only then do kittens whose Streaking Kitten went in explode,
  clockwise from you (a Defuse placement before the shuffle would be undone). A
  kitten put in this way does not explode. *Mark*: a random card of the target's
  hand is marked, shown to all until it leaves that hand (a marked card stolen is
  unmarked at the thief; a card played, or handed over on three of a kind, is the
  marked copy first, as that card is shown anyway). A player who gives a card to a
  Favor or puts one in with Garbage Collection chooses the physical card: holding a
  marked and an unmarked copy of a kind, `give:<card>` gives an unmarked one and
  `give:<card>:marked` the marked one (`garbage:<card>` and
  `garbage:<card>:marked` likewise); the mask offers exactly the copies held, so
  the others learn only what the table shows (the mark leaving, or not). A blind
  player's random card is a marked copy as often as its share of the kind.
  *Curse of the Cat Butt*: the
  target becomes blind (no effect on a blind player). Every card can be Noped.
- *Blind.* A blind player cannot see their cards: their `my_hand` shows only the
  marked ones and the cards they saw arrive while blind (a Favor received), and
  they forget the rest of their hand when the curse strikes, so that neither their
  observation nor their mask depends on which cards they hold (issue text and
  docs/rules/README.md). On their turn they may draw or play a random card (`blind:play`):
  a card playable now is played, a Favor, Mark or Curse after its target is chosen
  (`target:+k`; lost if no target is valid); a kitten explodes them; anything else
  (Nope, Defuse, cats, the Streaking Kitten) is lost. No combos while blind. In a
  Nope window a blind player may turn a random card (`blind:nope`): a Nope Nopes,
  a kitten explodes them (then the window goes on), anything else is lost; they
  are offered this whatever they hold. A blind player who explodes turns random
  cards until each exploding kitten meets a Defuse (another kitten turned up, or a
  held one whose Streaking Kitten is turned up, must be defused too; the other
  cards are lost); with no cards left they are out. Asked for a Favor, a blind
  player gives a random card (both see which). Blindness ends when their own draw
  ends without their elimination (keeping a kitten with the Streaking Kitten, or
  defusing it).
- *Dry deck.* Two kittens can leave the game at once, so a player may have to draw
  from an empty draw pile: the game ends and the living players share a draw
  (reward 0 each).

With the expansion the observation adds `blind`, `marked`, `kittens_to_insert`,
`exploding`, `garbage_waiting` and the reorderer's own `alter_cards` and
`alter_placed`; `kittens_in_deck` then counts kittens in the draw pile or held in
hands (a held kitten is secret, so the two cannot be told apart). The record adds
the expansion's events: Mark (the card marked, public), Catomic Bomb (how many
kittens went on top), Alter the Future (how many cards; the new order only to the
player), each Garbage Collection put-in (the card seen by its owner only, unless
a marked copy), blind plays and blind Nopes with the card turned up and what came
of it, the target of a turned-up card, cards turned up looking for a Defuse, and
a held kitten going off. The expansion's layout (649 actions, 4327 floats) is a
superset of the base one built by the same code over 22 card kinds and a draw pile
of up to 126 cards:

<!-- observation-table:streaking -->
| offsets | field | shape | range | meaning |
|---|---|---|---|---|
| 0..21 | `my_hand` | 22 | 0..12 | count of each kind in my hand (kind order: exploding_kitten, defuse, attack, skip, favor, shuffle, see_the_future, nope, taco_cat, hairy_potato_cat, cattermelon, rainbow_ralphing_cat, beard_cat, streaking_kitten, catomic_bomb, super_skip, see_the_future_5x, alter_the_future_5x, swap_top_and_bottom, garbage_collection, mark, curse_of_the_cat_butt); while I am blind, only the cards I know: marked ones and those I saw arrive |
| 22..32 | `phase` | 11 | 0..1 | one-hot: play, choose_five, name_card, nope_window, give, insert, take, game_over, alter, garbage, target |
| 33..41 | `to_act` | 9 | 0..1 | one-hot: the seat deciding now (relative) |
| 42..50 | `turn_holder` | 9 | 0..1 | one-hot: whose turn it is (relative) |
| 51..59 | `seat_present` | 9 | 0..1 | 1 for seats at this table (relative) |
| 60..68 | `alive` | 9 | 0..1 | 1 if the seat has not exploded (relative) |
| 69..77 | `hand_sizes` | 9 | 0..127 | cards in each seat's hand (relative) |
| 78..78 | `owed_turns` | 1 | 0..64 | turns the turn holder owes, the current one included (capped at 64) |
| 79..79 | `attacked` | 1 | 0..1 | 1 if the turn holder's turns come from an Attack |
| 80..80 | `deck_size` | 1 | 0..126 | cards in the draw pile |
| 81..81 | `kittens_in_deck` | 1 | 0..9 | Exploding Kittens in the draw pile or held in hands (a Streaking Kitten keeps one secretly, so the two are not told apart) |
| 82..103 | `discard` | 22 | 0..12 | count of each kind in the discard pile |
| 104..125 | `out_of_play` | 22 | 0..12 | count of each kind set aside from exploded players (eliminated_cards='out_of_play') |
| 126..129 | `pending_play` | 4 | 0..1 | one-hot: the announced play awaiting its Nope window: single, pair, three, five |
| 130..151 | `pending_card` | 22 | 0..1 | one-hot: the card of the pending single play, pair or three of a kind |
| 152..173 | `pending_five` | 22 | 0..1 | kinds chosen so far for five different |
| 174..182 | `pending_target` | 9 | 0..1 | one-hot: the pending play's target (relative) |
| 183..204 | `pending_named` | 22 | 0..1 | one-hot: the card named in three of a kind |
| 205..205 | `nopes` | 1 | 0..10 | Nopes played on the pending play (it happens if even) |
| 206..214 | `window_opener` | 9 | 0..1 | one-hot: whose play or Nope the running Nope window answers (relative) |
| 215..2986 | `known_deck` | 126x22 | 0..1 | one-hot kind at each depth of the draw pile (0 = top) that I saw (See the Future) or placed (my Defuse), until a shuffle or another player's insertion makes it stale |
| 2987..3162 | `known_hands` | 8x22 | 0..12 | count of each kind I know to be in each opponent's hand (given, received, stolen, asked for, taken from the discard pile, or drawn from a top I knew) |
| 3163..3360 | `ruled_out` | 9x22 | 0..1 | 1 if the table knows the seat holds no card of the kind: a three of a kind asked for it and missed; cleared when the seat's hand gains a card that could be one (relative) |
| 3361..3968 | `recent_moves` | 8x76 | 0..1 | the last 8 events of the public record, newest first, one row each (zeros where there is none): one-hot event (play, pair, three, name, five, nope, window, give, steal, ask, take, draw, defuse, insert, out, saw, dry, mark, bomb, altered, garbage, blind_play, blind_nope, target, turned, explode; 26), actor (9, relative), target (9, relative), card (22, the public card: played, named, shown, taken), result (10: 0 nothing/miss/stopped/lost, 1 done/hit/allowed/played, 2 a marked copy or already marked, 3 exploded; a count for saw, altered, bomb, and the Nopes so far for nope); see ek_env.engine.record for what each event holds |
| 3969..3977 | `blind` | 9 | 0..1 | 1 if the seat is blind (relative) |
| 3978..4175 | `marked` | 9x22 | 0..12 | count of each kind of marked (public) cards in each seat's hand (relative) |
| 4176..4176 | `kittens_to_insert` | 1 | 0..9 | defused kittens the seat to act still puts back |
| 4177..4185 | `exploding` | 9 | 0..1 | 1 for seats whose held kitten explodes next (their Streaking Kitten went into the deck with Garbage Collection; relative) |
| 4186..4194 | `garbage_waiting` | 9 | 0..1 | 1 for seats still to put a card in for Garbage Collection (relative) |
| 4195..4216 | `alter_cards` | 22 | 0..5 | Alter the Future: the cards I still have to place (only mine) |
| 4217..4326 | `alter_placed` | 5x22 | 0..1 | Alter the Future: one-hot card I put at each depth so far (only mine) |
<!-- /observation-table:streaking -->

<!-- action-table:streaking -->
| index | name | meaning |
|---|---|---|
| 0 | `draw` | end the turn by drawing the top card |
| 1 | `play:attack` | play attack |
| 2 | `play:skip` | play skip |
| 3..10 | `play:favor:+1` .. `play:favor:+8` | play favor on seat +k: index = 2 + k |
| 11 | `play:shuffle` | play shuffle |
| 12 | `play:see_the_future` | play see_the_future |
| 13 | `play:catomic_bomb` | play catomic_bomb |
| 14 | `play:super_skip` | play super_skip |
| 15 | `play:see_the_future_5x` | play see_the_future_5x |
| 16 | `play:alter_the_future_5x` | play alter_the_future_5x |
| 17 | `play:swap_top_and_bottom` | play swap_top_and_bottom |
| 18 | `play:garbage_collection` | play garbage_collection |
| 19..26 | `play:mark:+1` .. `play:mark:+8` | play mark on seat +k: index = 18 + k |
| 27..34 | `play:curse_of_the_cat_butt:+1` .. `play:curse_of_the_cat_butt:+8` | play curse_of_the_cat_butt on seat +k: index = 26 + k |
| 35..186 | `pair:attack:+1` .. `pair:curse_of_the_cat_butt:+8` | pair of kind c against seat +k: index = 35 + 8 * (position of c among the 19 combo kinds) + (k - 1) |
| 187..338 | `three:attack:+1` .. `three:curse_of_the_cat_butt:+8` | three of kind c against seat +k: index = 187 + 8 * (position of c among the 19 combo kinds) + (k - 1) |
| 339 | `five` | start five different (choose the kinds next) |
| 340..358 | `five:attack` .. `five:curse_of_the_cat_butt` | add combo kind c to five different: index = 340 + position of c among the 19 combo kinds |
| 359..380 | `name:exploding_kitten` .. `name:curse_of_the_cat_butt` | three of a kind: ask for card c: index = 359 + c |
| 381 | `nope` | Nope the pending play or Nope |
| 382 | `pass` | let the pending play or Nope stand |
| 383..426 | `give:exploding_kitten` .. `give:curse_of_the_cat_butt:marked` | Favor: give card c: index = 383 + c for an unmarked copy, 405 + c for a marked one |
| 427..552 | `insert:depth=0` .. `insert:depth=125` | put the kitten back with d cards above it: index = 427 + d |
| 553..572 | `take:defuse` .. `take:curse_of_the_cat_butt` | five different: take card c from the discard pile: index = 553 + position of c among the 20 takeable kinds |
| 573 | `blind:play` | blind: play a random card of my hand |
| 574 | `blind:nope` | blind: try to Nope with a random card of my hand |
| 575..582 | `target:+1` .. `target:+8` | aim my turned-up card at seat +k: index = 574 + k |
| 583..604 | `alter:exploding_kitten` .. `alter:curse_of_the_cat_butt` | Alter the Future: put card c next, top first: index = 583 + c |
| 605..648 | `garbage:exploding_kitten` .. `garbage:curse_of_the_cat_butt:marked` | Garbage Collection: put card c into the draw pile: index = 605 + c for an unmarked copy, 627 + c for a marked one |
<!-- /action-table:streaking -->

Version history: v0, first release; the Streaking Kittens expansion was added as
an option (the base layout did not change). v1 (issue 16): the public record
(`recent_moves`, `ruled_out`; base 1289 -> 1870 floats, expansion 3521 -> 4327);
with the expansion, a Favor's or Garbage Collection's marked copy is its own action
(`give:<card>:marked`, `garbage:<card>:marked`; 605 -> 649 actions). The base
action table did not change (319 actions). v2: the game's chance comes from one
SplitMix64 stream (:mod:`cardgym.chance`), the one the batched engines of the other
games draw from, so that a seed names one game everywhere; actions and observations
did not change (policies trained on v1 play v2). v1 stays registered
(`version=1`, or `pettingzoo.make` with `-v1`) and deals from numpy's PCG64
generator as before, with a deprecation warning.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

from cardgym.aec import RENDER_FPS, RENDER_MODES, CardGameEnv
from ek_env.encoding.encoding import ACTION_TABLE, BASE, OBSERVATION_SPEC, STREAKING, Layout
from ek_env.engine.cards import CARD_NAMES
from ek_env.engine.state import Config, State
from ek_env.game import GAME

ENV_ID = GAME.env_id

def doc_groups(lay: Layout) -> list[tuple[str, str]]:
    """Runs of actions collapsed into one row of a layout's docs table, with the index
    formula of each run."""
    index = lay.action_table.index
    combos = len(lay.pair_shift)
    groups = [(f"play:{CARD_NAMES[card]}:+", f"play {CARD_NAMES[card]} on seat +k: "
               f"index = {shift} + k") for card, shift in lay.target_shift.items()]
    groups += [
        ("pair:", f"pair of kind c against seat +k: index = {index('pair:attack:+1')} + 8 * "
                  f"(position of c among the {combos} combo kinds) + (k - 1)"),
        ("three:", f"three of kind c against seat +k: index = {index('three:attack:+1')} + 8 * "
                   f"(position of c among the {combos} combo kinds) + (k - 1)"),
        ("insert:depth=", f"put the kitten back with d cards above it: index = {lay.insert_base} + d"),
    ]
    if lay.streaking:
        groups += [
            ("five:", f"add combo kind c to five different: index = {index('five:attack')} + "
                      f"position of c among the {combos} combo kinds"),
            ("name:", f"three of a kind: ask for card c: index = {lay.name_base} + c"),
            ("give:", f"Favor: give card c: index = {index('give:exploding_kitten')} + c for "
                      f"an unmarked copy, {index('give:exploding_kitten:marked')} + c for a "
                      "marked one"),
            ("take:", f"five different: take card c from the discard pile: index = "
                      f"{index('take:defuse')} + position of c among the {len(lay.take_index)} "
                      "takeable kinds"),
            ("target:+", f"aim my turned-up card at seat +k: index = {lay.target_base} + k"),
            ("alter:", f"Alter the Future: put card c next, top first: index = "
                       f"{index('alter:exploding_kitten')} + c"),
            ("garbage:", f"Garbage Collection: put card c into the draw pile: index = "
                         f"{index('garbage:exploding_kitten')} + c for an unmarked copy, "
                         f"{index('garbage:exploding_kitten:marked')} + c for a marked one"),
        ]
    return groups


#: Runs of actions collapsed into one row of the docs table.
DOC_GROUPS = doc_groups(BASE)
#: The expansion's tables, generated into the docstring below (cardgym.docs).
EXTRA_LAYOUTS = [("streaking", STREAKING.action_table, STREAKING.observation_spec,
                  doc_groups(STREAKING))]


class raw_env(CardGameEnv[State]):  # noqa: N801 (PettingZoo naming)
    """Exploding Kittens AEC environment; see the module docstring."""

    game = GAME
    action_table = ACTION_TABLE
    observation_spec = OBSERVATION_SPEC
    metadata: ClassVar[dict[str, Any]] = {
        "name": "exploding_kittens_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        hand_size: int = 7,
        deck_defuses: str = "seed",
        attack_stacking: str = "reset",
        combos: bool = True,
        empty_hand_target: str = "allowed",
        eliminated_cards: str = "discard",
        expansions: tuple[str, ...] = (),
        fast: bool = False,
        render_mode: str | None = None,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        version: int | None = None,
        engine: str = "auto",
    ) -> None:
        self.config = Config(num_players, hand_size, deck_defuses, attack_stacking, combos,
                             empty_hand_target, eliminated_cards, expansions, fast)
        super().__init__(num_players, render_mode, render_seat, illegal_action, version,
                         engine)


def env(**kwargs: Any) -> raw_env:
    """Exploding Kittens with the safety of PettingZoo's standard wrappers built in.

    Order checks, action bounds and illegal-action handling are done inline by the
    base class, so no wrapper chain is applied (see :mod:`cardgym.aec`).
    """
    return raw_env(**kwargs)


# The package's ``env`` (this function) shadows the module of the same name, so
# ``help(<package>.env)`` and ``<package>.env.__doc__`` find the function: give it the
# page, then its own note.
if __doc__ and env.__doc__:
    env.__doc__ = f"{__doc__}\n``env(**kwargs)``: {inspect.cleandoc(env.__doc__)}\n"
