"""The flow of a Power Hungry Pets match: rounds dealt, turns begun and ended, tokens
awarded, until a player holds enough tokens (docs/rules/power_hungry_pets.md).

A turn begins with the draw of the seat to act (:func:`begin_turn`), or with the
showdown when the pile is empty; what the player then plays is resolved by
:mod:`phpets_env.engine.plays`, which hands the turn on through :func:`end_turn`.
Randomness comes only from the ``Chance`` passed in.
"""

from __future__ import annotations

from cardgym.chance import Chance
from cardgym.record import TABLE
from phpets_env.engine.cards import CARD_VALUES, NUM_CARDS, NUM_VALUES, face_up_aside
from phpets_env.engine.events import MATCH_WON, NEW_ROUND, ROUND_WON, TURN_DRAW_EVENTS, make_event
from phpets_env.engine.showdown import showdown
from phpets_env.engine.state import MATCH_OVER, NO_CARD, PLAY, Config, State


def new_game(config: Config, rng: Chance) -> State:
    """A new match: tokens at zero, a random first player, round 1 dealt and started
    (``rules.new_game`` also sets up a scenario's position).

    Args:
        config: rule options.
        rng: the only source of randomness.
    """
    state = State(config)
    start_round(state, int(rng.integers(config.num_players)), rng)
    return state


def open_round(state: State, rng: Chance) -> None:
    """Log the new round of a state set up at its start and begin ``round_start``'s turn."""
    state.log.append(make_event(TABLE, NEW_ROUND, state.round_start))
    begin_turn(state, state.round_start, rng)


def start_round(state: State, start: int, rng: Chance) -> None:
    """Deal a new round from a shuffled deck and begin the turn of ``start``."""
    n = state.num_players
    deck = rng.permutation(NUM_CARDS).tolist()
    state.aside = deck.pop()
    state.face_up = [deck.pop() for _ in range(face_up_aside(n))]
    state.hands = [[deck.pop()] for _ in range(n)]
    state.deck = deck
    state.rows = [[] for _ in range(n)]
    state.in_round = [True] * n
    state.protected = [False] * n
    state.pending = NO_CARD
    state.known = [1 << hand[0] for hand in state.hands]
    state.trapped = [0] * n
    state.ruled_out = [0] * n
    state.deck_watchers = 0
    state.round_start = start
    state.round_number += 1
    state.log.append(make_event(TABLE, NEW_ROUND, start))
    begin_turn(state, start, rng)


def begin_turn(state: State, seat: int, rng: Chance) -> None:
    """Start ``seat``'s turn: protection ends, then draw, or the showdown if the deck is empty."""
    state.to_act = seat
    state.protected[seat] = False
    state.phase = PLAY
    if not state.deck:
        end_round(state, showdown(state), rng)
        return
    # effects.draw_into, inlined (every turn starts here), but logged as a TURN_DRAW.
    card = state.deck.pop()
    state.hands[seat].append(card)
    bit = 1 << card
    state.known[seat] |= bit
    state.trapped[seat] &= ~bit
    state.ruled_out[seat] = 0
    state.log.append(TURN_DRAW_EVENTS[seat * NUM_VALUES + CARD_VALUES[card]])


def end_turn(state: State, rng: Chance) -> None:
    """End the turn of the seat to act: the round ends with one player left in it,
    else the next player in the round clockwise begins a turn."""
    n = state.num_players
    in_round = state.in_round
    alive = [seat for seat in range(n) if in_round[seat]]
    if len(alive) == 1:
        end_round(state, alive, rng)
        return
    seat = state.to_act
    for _ in range(n):
        seat = (seat + 1) % n
        if in_round[seat]:
            break
    begin_turn(state, seat, rng)


def end_round(state: State, winners: list[int], rng: Chance) -> None:
    """Award tokens; end the match or deal the next round."""
    n = state.num_players
    start = state.round_start
    ordered = [seat for seat in ((start + k) % n for k in range(n)) if seat in winners]
    short = _award_tokens(state, ordered)
    target = state.config.tokens_to_win
    champions = tuple(
        seat for seat in range(n) if state.tokens[seat] + (seat in short) >= target
    )
    if champions:
        state.match_winners = champions
        state.phase = MATCH_OVER
        for seat in champions:
            state.log.append(make_event(TABLE, MATCH_WON, seat))
        return
    start_round(state, _next_start(state, ordered, rng), rng)


def _award_tokens(state: State, ordered: list[int]) -> list[int]:
    """A token to each round winner (clockwise from the start player) while the
    supply lasts; log the winners. Returns the winners left without a token."""
    short = []
    for seat in ordered:
        if state.token_supply > 0:
            state.tokens[seat] += 1
            state.token_supply -= 1
        else:
            short.append(seat)
    state.round_winners = tuple(ordered)
    log = state.log
    for seat in ordered:
        log.append(make_event(TABLE, ROUND_WON, seat))
    if not ordered:
        log.append(make_event(TABLE, ROUND_WON))
    return short


def _next_start(state: State, ordered: list[int], rng: Chance) -> int:
    """The start player of the next round, as the ``start_player`` option says."""
    rule = state.config.start_player
    if rule == "winner" and ordered:
        return ordered[0]
    if rule == "random":
        return int(rng.integers(state.num_players))
    return (state.round_start + 1) % state.num_players
