"""The Power Hungry Pets showdown: who wins a round that the empty pile ends (docs/rules/power_hungry_pets.md).

Every player still in the round reveals the hand card; the highest value wins.
King Cat loses to Royal Robovac as the ``robovac`` option says; a tie is broken by
the rows of played cards, highest first, and a tie that remains is shared or won
by nobody as the ``final_tie`` option says.
"""

from __future__ import annotations

from cardgym.record import TABLE
from phpets_env.engine.cards import CARD_VALUES, Card
from phpets_env.engine.events import REVEAL, make_event
from phpets_env.engine.state import State


def showdown(state: State) -> list[int]:
    """The round's winners when the pile is empty (none: nobody won); the reveals
    are logged."""
    contenders = [seat for seat in range(state.num_players) if state.in_round[seat]]
    value = {seat: CARD_VALUES[state.hands[seat][0]] for seat in contenders}
    log = state.log
    for seat in contenders:
        log.append(make_event(TABLE, REVEAL, seat, value[seat]))
    contenders = _dethroned(state, contenders, value)
    best = max(value[seat] for seat in contenders)
    tied = [seat for seat in contenders if value[seat] == best]
    if len(tied) > 1:
        return _row_tie_break(state, tied)
    return tied


def _dethroned(state: State, contenders: list[int], value: dict[int, int]) -> list[int]:
    """The contenders less King Cat's holder when Royal Robovac dethrones it: always
    with ``robovac="dethrone"``, only when they are the last two with ``"duel_only"``."""
    held = set(value.values())
    if Card.KING_CAT in held and Card.ROYAL_ROBOVAC in held:
        duel = len(contenders) == 2
        if state.config.robovac == "dethrone" or duel:
            return [seat for seat in contenders if value[seat] != Card.KING_CAT]
    return contenders


def _row_tie_break(state: State, tied: list[int]) -> list[int]:
    """Of players tied on the hand card, those with the best row (values compared
    highest first); none when a tie remains and ``final_tie="nobody"``."""
    rows = {seat: sorted((CARD_VALUES[c] for c in state.rows[seat]), reverse=True)
            for seat in tied}
    best_row = max(rows.values())
    tied = [seat for seat in tied if rows[seat] == best_row]
    if len(tied) > 1 and state.config.final_tie == "nobody":
        return []
    return tied
