"""A hand-written policy for Power Hungry Pets (docs/rules/power_hungry_pets.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from cardgym.heuristic import checked_batch, legal_indices, pick_best, pick_rows
from cardgym.record import NONE
from phpets_env.encoding.encoding import ACTION_TABLE, OBSERVATION_SPEC
from phpets_env.engine.cards import CARD_NAMES, COPIES, NUM_VALUES
from phpets_env.engine.state import GRAVE_DIGGER, MOUSE_TRAPPER, Config

KING = 10
ROBOVAC = 0
_COPIES = np.array([COPIES[v] for v in sorted(COPIES)], dtype=np.float64)
_VALUE_BY_NAME = {name: value for value, name in enumerate(CARD_NAMES)}
#: How much a card is worth to whoever draws it next (Mouse Trapper placement).
_DRAW_QUALITY = (0.0, 0.5, 0.3, 0.5, 0.5, 0.6, 0.5, 0.6, 0.7, 0.7, 0.9)
_DRAW_QUALITY_ARRAY = np.array(_DRAW_QUALITY, dtype=np.float64)


def _parse(name: str) -> tuple[str, int, int, int]:
    """(kind, card, seat offset, guess or depth) of an action name (NONE: not given)."""
    parts = name.split(":")
    if parts[0] == "play":
        card = _VALUE_BY_NAME[parts[1]]
        offset = int(parts[2][1:]) if len(parts) > 2 and parts[2] != "none" else NONE
        guess = _VALUE_BY_NAME[parts[3]] if len(parts) > 3 else NONE
        return "play", card, offset, guess
    if parts[0] == "grave_digger":
        return parts[1], NONE, NONE, NONE
    return "place", NONE, NONE, int(parts[1].split("=")[1])


_ACTIONS = tuple(_parse(name) for name in ACTION_TABLE.names)


class PhpetsHeuristic:
    """Card counting and one-ply expected round-win estimates for Power Hungry Pets.

    Strategy, from the observation alone:

    - *Card counting.* The values whose whereabouts I do not know are the 21 copies
      minus my hand, every row, the face-up set-aside cards, the set-aside card if I saw
      it (Grave Digger), the known cards in opponents' hands and the known deck depths
      (Mouse Trapper). An opponent's hand card is that known card, or else drawn from
      this unknown pool.
    - *Showdown strength.* A kept card's strength is its chance to beat every opponent
      at a showdown (King Cat loses to Royal Robovac under ``dethrone``), blended with an
      even share by how early in the round it is (early, the kept card is likely to
      change anyway).
    - *One-ply evaluation.* Each legal play is scored as the estimated chance to win
      the round: Crystal Bowl names the likeliest value of the target (certain when the
      hand is known), Battle Bunny weighs the chance of the kept card winning against
      losing the comparison, Snake Sorcerer hunts a King Cat (never on myself while
      keeping it), Hermit Swap and Not A Pet! trade for a better card, Jittery Juggler
      and Grave Digger replace a weak card, Shell Shield protects, King Cat is never
      played voluntarily. Targets among equals prefer the opponent with the most
      tokens (the leader).
    - *Grave Digger:* swap when the set-aside card is stronger. *Mouse Trapper:* a good
      card goes where I will draw it next, a poor one to the next player.
    """

    name = "heuristic"

    def __init__(self, config: Config) -> None:
        self.num_players = num_players = config.num_players
        self.dethrone = config.robovac == "dethrone"
        # Cards in the draw pile at the start of a round (for "how early is it").
        self.full_deck = 21 - 1 - num_players - (2 if num_players == 2 else 0)

    # ---------------------------------------------------------------- helpers

    def beats(self, mine: int, theirs: int) -> float:
        """Chance that ``mine`` beats ``theirs`` at a showdown (a tie: even)."""
        if mine == KING and theirs == ROBOVAC:
            return 0.0 if self.dethrone else 1.0
        if mine == ROBOVAC and theirs == KING:
            return 1.0
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0

    def strength(self, card: int, dists: list[NDArray[np.float64]]) -> float:
        """Chance that ``card`` beats every opponent hand at a showdown."""
        win = 1.0
        for dist in dists:
            win *= sum(float(dist[x]) * self.beats(card, x) for x in range(NUM_VALUES) if dist[x])
        return win

    # ------------------------------------------------------------------ act

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        if len(legal) == 1:
            return legal[0]
        return pick_best(self.scores(observation, legal), rng)

    def scores(self, observation: NDArray[np.float32], legal: list[int]) -> dict[int, float]:
        """The score :meth:`act` gives each of the ``legal`` actions (the best is picked)."""
        read = _Reading(self, OBSERVATION_SPEC.unpack(observation))
        phase = int(np.argmax(read.o["phase"]))
        if phase == GRAVE_DIGGER:  # keep or swap
            return _grave_scores(read, legal)
        if phase == MOUSE_TRAPPER:  # place the card
            return _placement_scores(read, legal)
        return _play_scores(read, legal)

    def act_batch(self, observations: NDArray[np.float32], action_masks: NDArray[np.int8],
                  rng: np.random.Generator) -> NDArray[np.int64]:
        """The actions :meth:`act` picks for each row ``[M]`` of ``observations``
        ``[M, D]`` and ``action_masks`` ``[M, A]``, drawing from ``rng`` exactly as the
        calls of :meth:`act` row by row would (one draw per row with several tied best
        actions, in row order), so the generator ends in the same state.

        The scores come from compiled code (:mod:`phpets_env.batched.heuristic`); without
        numba the rows go through :meth:`act` one by one.
        """
        observations, action_masks = checked_batch(observations, action_masks,
                                                  OBSERVATION_SPEC.size, len(ACTION_TABLE))
        try:
            from phpets_env.batched.heuristic import batch_scores
        except ImportError:
            return np.fromiter((self.act(o, m, rng) for o, m in zip(observations, action_masks,
                                                                    strict=True)),
                               np.int64, count=len(observations))
        scores, best, actions, ties = batch_scores(observations, action_masks, self.dethrone,
                                                   self.full_deck, _DRAW_QUALITY_ARRAY)
        return pick_rows(scores, best, actions, ties, rng)

    def __repr__(self) -> str:
        return f"PhpetsHeuristic(num_players={self.num_players})"



class _Reading:
    """What one observation tells: the unknown pool, each opponent's likely hand, and
    the estimated chance of winning the round with a kept card."""

    def __init__(self, policy: PhpetsHeuristic, o: dict[str, NDArray[np.float32]]) -> None:
        self.policy = policy
        self.o = o
        self.hand = o["my_hand"].astype(np.float64)
        in_round = o["in_round"]
        n = int(o["seat_present"].sum())
        known_hands = o["known_hands"].astype(np.float64)
        known_deck = o["known_deck"].astype(np.float64)
        unknown = (_COPIES - self.hand - o["rows"].sum(axis=0) - o["face_up_aside"]
                   - o["known_aside"] - known_hands.sum(axis=0) - known_deck.sum(axis=0)
                   - o["pending_card"])
        unknown = np.clip(unknown, 0.0, None)
        self.pool = (unknown / unknown.sum() if unknown.sum() > 0
                     else np.full(NUM_VALUES, 1 / NUM_VALUES))
        self.opponents = [k for k in range(1, n) if in_round[k]]
        self.dists: dict[int, NDArray[np.float64]] = {}
        for k in self.opponents:
            known = known_hands[k - 1]
            self.dists[k] = known / known.sum() if known.sum() > 0 else self.pool
        deck_size = float(o["deck_size"][0])
        early = min(1.0, deck_size / max(1, policy.full_deck))
        self.weight = 0.45 + 0.55 * (1.0 - early)  # how much the kept card's rank matters now
        self.tokens = o["tokens"]

    def base(self, card: int, opp: list[int] | None = None) -> float:
        """Chance to win the round keeping ``card``, against ``opp`` (default: everyone)."""
        group = self.opponents if opp is None else opp
        share = 1.0 / (len(group) + 1)
        strength = self.policy.strength(card, [self.dists[k] for k in group])
        return self.weight * strength + (1 - self.weight) * share

    def base_pool(self, opp: list[int] | None = None) -> float:
        """The same, keeping a card drawn from the unknown pool."""
        pool = self.pool
        return sum(float(pool[x]) * self.base(x, opp) for x in range(NUM_VALUES) if pool[x])

    def after_elimination(self, card: int, victim: int) -> float:
        """The same once ``victim`` is out of the round."""
        rest = [k for k in self.opponents if k != victim]
        return 1.0 if not rest else self.base(card, rest)


def _grave_scores(read: _Reading, legal: list[int]) -> dict[int, float]:
    """Grave Digger: keep the hand card or swap it for the set-aside card."""
    mine = int(np.argmax(read.hand))
    aside = read.o["known_aside"]
    scores: dict[int, float] = {}
    for action in legal:
        kind = _ACTIONS[action][0]
        if kind == "keep":
            scores[action] = read.base(mine)
        elif aside.sum() > 0:
            scores[action] = read.base(int(np.argmax(aside)))
        else:
            scores[action] = read.base_pool() - 1e-6
    return scores


def _placement_scores(read: _Reading, legal: list[int]) -> dict[int, float]:
    """Mouse Trapper: a good card where I will draw it next, a poor one on top (the
    scores are whole numbers)."""
    card = int(np.argmax(read.o["pending_card"]))
    mine_depth = len(read.opponents)  # the others draw once each before me
    target = mine_depth if _DRAW_QUALITY[card] >= 0.6 else 0
    depths = {action: _ACTIONS[action][3] for action in legal}
    return {a: -abs(d - target) for a, d in depths.items()}


def _play_scores(read: _Reading, legal: list[int]) -> dict[int, float]:
    """Each legal play's estimated chance to win the round."""
    hand = read.hand
    cards = [v for v in range(NUM_VALUES) for _ in range(int(hand[v]))]
    scores = {}
    for action in legal:
        _, card, offset, guess = _ACTIONS[action]
        rest = list(cards)
        if card in rest:
            rest.remove(card)
        kept = rest[0] if rest else card
        play = _Play(kept, read.base(kept), offset, guess,
                     0.002 * float(read.tokens[offset]) if offset > 0 else 0.0)
        value = _PLAY_VALUE.get(card)
        scores[action] = play.keep_value if value is None else value(read, play)
    return scores


class _Play(NamedTuple):
    """One play as the scoring sees it."""

    kept: int  # the card kept in hand
    keep_value: float  # the chance to win keeping it, nothing else happening
    offset: int  # the seat offset chosen, or NONE
    guess: int  # the value Crystal Bowl names, or NONE
    lead: float  # a nudge towards the opponent with the most tokens


def _king_cat(read: _Reading, play: _Play) -> float:
    return -1.0  # never played voluntarily


def _crystal_bowl(read: _Reading, play: _Play) -> float:
    if play.offset <= 0:
        return play.keep_value
    hit = float(read.dists[play.offset][play.guess])
    return (hit * read.after_elimination(play.kept, play.offset)
            + (1 - hit) * play.keep_value + play.lead)


def _battle_bunny(read: _Reading, play: _Play) -> float:
    if play.offset <= 0:
        return play.keep_value
    dist = read.dists[play.offset]
    kept = play.kept
    bunny_kept = ROBOVAC if kept == ROBOVAC else kept
    win = float(sum(dist[x] for x in range(NUM_VALUES) if x < bunny_kept))
    lose = float(sum(dist[x] for x in range(NUM_VALUES) if x > bunny_kept))
    # After a tie or a win my card is known to the target; a small cost.
    return (win * read.after_elimination(kept, play.offset) + lose * 0.0
            + (1 - win - lose) * play.keep_value * 0.95 + play.lead)


def _shell_shield(read: _Reading, play: _Play) -> float:
    return play.keep_value + 0.03 + (0.03 if play.kept == KING else 0.0)


def _snake_sorcerer(read: _Reading, play: _Play) -> float:
    if play.offset == 0:
        return -1.0 if play.kept == KING else read.base_pool()
    if play.offset < 0:
        return play.keep_value
    king = float(read.dists[play.offset][KING])
    return (king * read.after_elimination(play.kept, play.offset)
            + (1 - king) * play.keep_value + play.lead)


def _grave_digger(read: _Reading, play: _Play) -> float:
    aside = read.o["known_aside"]
    if aside.sum() > 0:
        return max(play.keep_value, read.base(int(np.argmax(aside))))
    pool = read.pool
    return sum(float(pool[x]) * max(play.keep_value, read.base(x))
               for x in range(NUM_VALUES) if pool[x])


def _jittery_juggler(read: _Reading, play: _Play) -> float:
    return read.base_pool()


def _hermit_swap(read: _Reading, play: _Play) -> float:
    if play.offset <= 0:
        return play.keep_value
    dist = read.dists[play.offset]
    others = [k for k in read.opponents if k != play.offset]
    policy, weight = read.policy, read.weight
    got = 0.0
    for x in range(NUM_VALUES):
        if dist[x]:
            vs_them = policy.beats(x, play.kept)
            vs_rest = policy.strength(x, [read.dists[k] for k in others])
            share = 1.0 / (len(read.opponents) + 1)
            got += float(dist[x]) * (weight * vs_them * vs_rest + (1 - weight) * share)
    return got + play.lead


def _not_a_pet(read: _Reading, play: _Play) -> float:
    if play.kept == KING:
        return play.keep_value
    holders = [k for k in read.opponents if not read.o["protected"][k]]
    p_king = 0.0
    for k in holders:
        p_king += float(read.dists[k][KING])
    p_king = min(1.0, p_king)
    return p_king * read.base(KING) + (1 - p_king) * play.keep_value


#: The score of a play by card value; a card not named scores the card kept.
_PLAY_VALUE: dict[int, Callable[[_Reading, _Play], float]] = {
    KING: _king_cat,
    1: _crystal_bowl,
    3: _battle_bunny,
    4: _shell_shield,
    5: _snake_sorcerer,
    6: _grave_digger,
    7: _jittery_juggler,
    8: _hermit_swap,
    9: _not_a_pet,
}
