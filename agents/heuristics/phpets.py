"""A hand-written policy for Power Hungry Pets (RULES.md §2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.heuristics import legal_indices, pick_best
from phpets_env.cards import CARD_NAMES, COPIES, NUM_VALUES
from phpets_env.encoding import ACTION_TABLE, OBSERVATION_SPEC

KING = 10
ROBOVAC = 0
_COPIES = np.array([COPIES[v] for v in sorted(COPIES)], dtype=np.float64)
_VALUE_BY_NAME = {name: value for value, name in enumerate(CARD_NAMES)}
#: How much a card is worth to whoever draws it next (Mouse Trapper placement).
_DRAW_QUALITY = (0.0, 0.5, 0.3, 0.5, 0.5, 0.6, 0.5, 0.6, 0.7, 0.7, 0.9)


def _parse(name: str) -> tuple[str, int, int, int]:
    """(kind, card, seat offset or -1, guess or depth or -1) of an action name."""
    parts = name.split(":")
    if parts[0] == "play":
        card = _VALUE_BY_NAME[parts[1]]
        offset = int(parts[2][1:]) if len(parts) > 2 and parts[2] != "none" else -1
        guess = _VALUE_BY_NAME[parts[3]] if len(parts) > 3 else -1
        return "play", card, offset, guess
    if parts[0] == "grave_digger":
        return parts[1], -1, -1, -1
    return "place", -1, -1, int(parts[1].split("=")[1])


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

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None) -> None:
        self.num_players = int(num_players)
        self.options = dict(options or {})
        self.dethrone = self.options.get("robovac", "dethrone") == "dethrone"
        # Cards in the draw pile at the start of a round (for "how early is it").
        self.full_deck = 21 - 1 - num_players - (2 if num_players == 2 else 0)

    # ---------------------------------------------------------------- helpers

    def _beats(self, mine: int, theirs: int) -> float:
        if mine == KING and theirs == ROBOVAC:
            return 0.0 if self.dethrone else 1.0
        if mine == ROBOVAC and theirs == KING:
            return 1.0
        if mine == theirs:
            return 0.5
        return 1.0 if mine > theirs else 0.0

    def _strength(self, card: int, dists: list[NDArray[np.float64]]) -> float:
        """Chance that ``card`` beats every opponent hand at a showdown."""
        win = 1.0
        for dist in dists:
            win *= sum(float(dist[x]) * self._beats(card, x) for x in range(NUM_VALUES) if dist[x])
        return win

    # ------------------------------------------------------------------ act

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.int8],
            rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        if len(legal) == 1:
            return legal[0]
        o = OBSERVATION_SPEC.unpack(observation)
        hand = o["my_hand"].astype(np.float64)
        in_round = o["in_round"]
        n = int(o["seat_present"].sum())
        known_hands = o["known_hands"].astype(np.float64)
        known_deck = o["known_deck"].astype(np.float64)
        unknown = (_COPIES - hand - o["rows"].sum(axis=0) - o["face_up_aside"]
                   - o["known_aside"] - known_hands.sum(axis=0) - known_deck.sum(axis=0)
                   - o["pending_card"])
        unknown = np.clip(unknown, 0.0, None)
        pool = unknown / unknown.sum() if unknown.sum() > 0 else np.full(NUM_VALUES, 1 / NUM_VALUES)
        opponents = [k for k in range(1, n) if in_round[k]]
        dists: dict[int, NDArray[np.float64]] = {}
        for k in opponents:
            known = known_hands[k - 1]
            dists[k] = known / known.sum() if known.sum() > 0 else pool
        deck_size = float(o["deck_size"][0])
        early = min(1.0, deck_size / max(1, self.full_deck))
        weight = 0.45 + 0.55 * (1.0 - early)  # how much the kept card's rank matters now
        tokens = o["tokens"]

        def base(card: int, opp: list[int] | None = None) -> float:
            group = opponents if opp is None else opp
            share = 1.0 / (len(group) + 1)
            return weight * self._strength(card, [dists[k] for k in group]) + (1 - weight) * share

        def base_pool(opp: list[int] | None = None) -> float:
            return sum(float(pool[x]) * base(x, opp) for x in range(NUM_VALUES) if pool[x])

        def after_elimination(card: int, victim: int) -> float:
            rest = [k for k in opponents if k != victim]
            return 1.0 if not rest else base(card, rest)

        phase = int(np.argmax(o["phase"]))
        if phase == 1:  # Grave Digger: keep or swap
            mine = int(np.argmax(hand))
            aside = o["known_aside"]
            scores: dict[int, float] = {}
            for action in legal:
                kind = _ACTIONS[action][0]
                if kind == "keep":
                    scores[action] = base(mine)
                elif aside.sum() > 0:
                    scores[action] = base(int(np.argmax(aside)))
                else:
                    scores[action] = base_pool() - 1e-6
            return pick_best(scores, rng)
        if phase == 2:  # Mouse Trapper: place the card
            card = int(np.argmax(o["pending_card"]))
            mine_depth = len(opponents)  # the others draw once each before me
            target = mine_depth if _DRAW_QUALITY[card] >= 0.6 else 0
            depths = {action: _ACTIONS[action][3] for action in legal}
            return pick_best({a: -abs(d - target) for a, d in depths.items()}, rng)

        cards = [v for v in range(NUM_VALUES) for _ in range(int(hand[v]))]
        scores = {}
        for action in legal:
            _, card, offset, guess = _ACTIONS[action]
            rest = list(cards)
            if card in rest:
                rest.remove(card)
            kept = rest[0] if rest else card
            keep_value = base(kept)
            value = keep_value
            lead = 0.002 * float(tokens[offset]) if offset > 0 else 0.0
            if card == KING:
                value = -1.0
            elif card == 1 and offset > 0:  # Crystal Bowl
                hit = float(dists[offset][guess])
                value = hit * after_elimination(kept, offset) + (1 - hit) * keep_value + lead
            elif card == 3 and offset > 0:  # Battle Bunny
                dist = dists[offset]
                bunny_kept = ROBOVAC if kept == ROBOVAC else kept
                win = float(sum(dist[x] for x in range(NUM_VALUES) if x < bunny_kept))
                lose = float(sum(dist[x] for x in range(NUM_VALUES) if x > bunny_kept))
                # After a tie or a win my card is known to the target; a small cost.
                value = (win * after_elimination(kept, offset) + lose * 0.0
                         + (1 - win - lose) * keep_value * 0.95 + lead)
            elif card == 4:  # Shell Shield
                value = keep_value + 0.03 + (0.03 if kept == KING else 0.0)
            elif card == 5:  # Snake Sorcerer
                if offset == 0:
                    value = -1.0 if kept == KING else base_pool()
                elif offset > 0:
                    king = float(dists[offset][KING])
                    value = king * after_elimination(kept, offset) + (1 - king) * keep_value + lead
            elif card == 6:  # Grave Digger
                aside = o["known_aside"]
                if aside.sum() > 0:
                    value = max(keep_value, base(int(np.argmax(aside))))
                else:
                    value = sum(float(pool[x]) * max(keep_value, base(x))
                                for x in range(NUM_VALUES) if pool[x])
            elif card == 7:  # Jittery Juggler
                value = base_pool()
            elif card == 8 and offset > 0:  # Hermit Swap
                dist = dists[offset]
                others = [k for k in opponents if k != offset]
                got = 0.0
                for x in range(NUM_VALUES):
                    if dist[x]:
                        vs_them = self._beats(x, kept)
                        vs_rest = self._strength(x, [dists[k] for k in others])
                        share = 1.0 / (len(opponents) + 1)
                        got += float(dist[x]) * (weight * vs_them * vs_rest + (1 - weight) * share)
                value = got + lead
            elif card == 9:  # Not A Pet!
                if kept != KING:
                    holders = [k for k in opponents if not o["protected"][k]]
                    p_king = 0.0
                    for k in holders:
                        p_king += float(dists[k][KING])
                    p_king = min(1.0, p_king)
                    value = p_king * base(KING) + (1 - p_king) * keep_value
            scores[action] = value
        return pick_best(scores, rng)

    def __repr__(self) -> str:
        return f"PhpetsHeuristic(num_players={self.num_players})"
