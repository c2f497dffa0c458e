"""The public record of a Karel Kakelaar game (:mod:`cardgym.record`), in words too.

The engine appends an :class:`~cardgym.record.Event` to ``state.log`` for each
thing that happens at the table. Commits are face down: the event says who
committed and carries the choice as a secret that only the committing seat saw.
Reveals are public and come from the table (``actor`` is :data:`TABLE`, ``target``
the participant concerned), so that a seat's own last event is its own last move.
Participants are the seats ``0..n-1`` and, with two players, the robot chicken as
participant ``2`` (:data:`kakelaar_env.engine.state.State.robot`).

==============  =======  ===========  ==============  ===================  ==========
``what``        actor    target       card            result               secret
==============  =======  ===========  ==============  ===================  ==========
ROUND           TABLE    tractor      -               round 1..9           -
BID_FACE_DOWN   seat     -            -               -                    card bid
BID             TABLE    participant  card bid (or    -                    -
                                      NONE: nothing)
TOOK            TABLE    participant  row card        position 1..5        -
HEN_FACE_DOWN   seat     -            -               -                    1 hen, 0 no
HEN             TABLE    seat         -               0 no, 1 yes, 2 had   -
                                                      to (only hens)
PICK_FACE_DOWN  seat     -            -               pick 1 or 2          card
TAKE            TABLE    seat         card taken      0 whole pile, 1      -
                                      back            chosen
SCORE           TABLE    seat         -               worms in hand        -
WINNER          TABLE    seat         -               -                    -
==============  =======  ===========  ==============  ===================  ==========

A round's events: ROUND (the round begins; the row is turned up, and shown in the
observation until the reveal), the BID_FACE_DOWN commits in turn order, then at the
reveal a BID and a TOOK per participant, in rank order (every row card is taken, so
the TOOK events name the whole row); then
HEN_FACE_DOWN commits, a HEN per seat asked, TAKE for each card taken back at once
(a discard pile of two cards or fewer), PICK_FACE_DOWN commits and TAKE for each card
picked. After round 9: a SCORE per seat and a WINNER per winner.

The event codes and the shared event instances the engine appends are in
:mod:`kakelaar_env.engine.events`, the round digest the observation shows in
:mod:`kakelaar_env.engine.digest`; both are re-exported here. This module says what a
choice shows to the table (:func:`choice_visibility`) and tells events in words
(:func:`describe_event`).
"""

from __future__ import annotations

from collections.abc import Hashable

from cardgym.record import NONE, Event
from kakelaar_env.engine.actions import ACTION_SPECS
from kakelaar_env.engine.cards import TYPE_NAMES
from kakelaar_env.engine.digest import (
    DIGEST_EMPTY_ROW,
    DIGEST_FORCED,
    DIGEST_HEN,
    DIGEST_NO_BID,
    DIGEST_POSITION,
    DIGEST_TAKEN,
    DIGEST_TOOK,
    DIGEST_TOOK_ROWS,
    DIGEST_WIDTH,
    digest_event,
    round_digest,
)
from kakelaar_env.engine.events import (
    BID,
    BID_EVENTS,
    BID_FACE_DOWN,
    BID_FACE_DOWN_EVENTS,
    CHOSEN,
    EVENT_NAMES,
    HEN,
    HEN_EVENTS,
    HEN_FACE_DOWN,
    HEN_FACE_DOWN_EVENTS,
    HEN_FORCED,
    HEN_PLAYED,
    NO_HEN,
    PICK_FACE_DOWN,
    PICK_FACE_DOWN_EVENTS,
    ROUND,
    ROUND_EVENTS,
    SCORE,
    SCORE_EVENTS,
    TAKE,
    TAKE_EVENTS,
    TOOK,
    TOOK_EVENTS,
    WHOLE_PILE,
    WINNER,
    WINNER_EVENTS,
    blank_secret,
)
from kakelaar_env.engine.state import TAKE_FIRST, State

# ------------------------------------------------------------- what is seen


def choice_visibility(state: State, action: int) -> tuple[Hashable, int]:
    """What the table sees of the seat to act choosing ``action`` now
    (docs/rules/README.md, docs/rules/karel_kakelaar.md).

    Every choice of a stage is committed face down: a bid, playing a mother hen or
    not, a card to take back. The other seats see that the seat committed, not what,
    until the stage's last commit, which turns every choice up at once; so the last
    commit's alternatives are public (each shows a different card, or a hen played or
    not). The two cards a hen player takes back are one stage in two picks: the last
    first pick reveals nothing (the second picks follow face down), the last second
    pick reveals both cards of every taker. Only the actor sees the secret.

    Returns:
        ``(public, parties)``: what every seat sees, and the bit mask of the seats
        that see the secret (the actor alone).
    """
    actor = state.current
    kind, card = ACTION_SPECS[action]
    last = state.cursor == len(state.asked) - 1
    if state.phase == TAKE_FIRST or not last:
        return ("face down", int(state.phase), actor), 1 << actor
    return ("revealed", kind, card), 1 << actor


# ------------------------------------------------------------------- words


def _name(participant: int, seat: int, num_players: int) -> str:
    # The robot first: participant 2 of a two-player game is never a seat, though a
    # reader at no seat (the spectator of cardgym.table reads as seat ``num_players``)
    # may carry its number.
    if num_players == 2 and participant == 2:
        return "the robot"
    if participant == seat:
        return "you"
    return f"player_{participant}"


def _agree(subject: str, you: str, others: str) -> str:
    """The verb form that agrees with ``subject``: ``you`` for the viewer ("you hold"),
    ``others`` for anyone named in the third person ("player_1 holds")."""
    return you if subject == "you" else others


def describe_event(event: Event, seat: int, num_players: int) -> str:
    """One line of English for ``event`` as ``seat`` saw it (already passed through
    ``event.as_seen_by(seat)``; ``seat`` = :data:`TABLE` for the full view, where
    secrets show and nobody is "you")."""
    what = event.what
    if what in (BID_FACE_DOWN, HEN_FACE_DOWN, PICK_FACE_DOWN):
        return _describe_commit(event, seat, num_players)
    target = _name(event.target, seat, num_players)
    if what == ROUND:
        return f"round {event.result} begins; {target} {_agree(target, 'hold', 'holds')} the tractor"
    if what == BID:
        if event.card == NONE:
            return f"{target} had no card to bid and bid nothing"
        return f"{target} bid {TYPE_NAMES[event.card]} (revealed)"
    if what == TOOK:
        gone = " (out of the game)" if target == "the robot" else ""
        return f"{target} took position {event.result}: {TYPE_NAMES[event.card]}{gone}"
    if what == HEN:
        if event.result == NO_HEN:
            return f"{target} played no mother hen"
        forced = " (only hens in hand: had to)" if event.result == HEN_FORCED else ""
        return f"{target} played a mother hen{forced}"
    if what == TAKE:
        how = "the whole discard pile" if event.result == WHOLE_PILE else "the discard pile"
        return f"{target} took {TYPE_NAMES[event.card]} back from {how}"
    if what == SCORE:
        worms = "worm" if event.result == 1 else "worms"
        return f"{target} {_agree(target, 'have', 'has')} {event.result} {worms} in hand"
    if what == WINNER:
        return f"{target} {_agree(target, 'win', 'wins')}"
    return f"event {what} (unknown)"


def _describe_commit(event: Event, seat: int, num_players: int) -> str:
    """A face-down commit in words (its secret shown when ``seat`` saw it)."""
    actor = _name(event.actor, seat, num_players)
    secret = event.secret
    if event.what == BID_FACE_DOWN:
        choice = "a card" if secret == NONE else TYPE_NAMES[secret]
        return f"{actor} bid {choice} face down"
    if event.what == HEN_FACE_DOWN:
        choice = ("whether to play a mother hen" if secret == NONE
                  else "to play a mother hen" if secret else "to play no mother hen")
        return f"{actor} chose {choice}, face down"
    which = "first" if event.result == 1 else "second"
    choice = "a card" if secret == NONE else TYPE_NAMES[secret]
    return f"{actor} picked {choice} to take back ({which} pick), face down"


__all__ = [
    "BID", "BID_EVENTS", "BID_FACE_DOWN", "BID_FACE_DOWN_EVENTS", "CHOSEN", "DIGEST_EMPTY_ROW",
    "DIGEST_FORCED", "DIGEST_HEN", "DIGEST_NO_BID", "DIGEST_POSITION", "DIGEST_TAKEN",
    "DIGEST_TOOK", "DIGEST_TOOK_ROWS", "DIGEST_WIDTH", "EVENT_NAMES", "HEN", "HEN_EVENTS",
    "HEN_FACE_DOWN", "HEN_FACE_DOWN_EVENTS", "HEN_FORCED", "HEN_PLAYED", "NO_HEN",
    "PICK_FACE_DOWN", "PICK_FACE_DOWN_EVENTS", "ROUND", "ROUND_EVENTS", "SCORE", "SCORE_EVENTS",
    "TAKE", "TAKE_EVENTS", "TOOK", "TOOK_EVENTS", "WHOLE_PILE", "WINNER", "WINNER_EVENTS",
    "blank_secret", "choice_visibility", "describe_event", "digest_event", "round_digest",
]
