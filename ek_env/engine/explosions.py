"""Drawing and Exploding Kittens (docs/rules/exploding_kittens.md-§4): the draw that ends a turn, Defuses,
putting kittens back, eliminations, and what goes on once an explosion is settled.

An explosion can interrupt a Nope window (a blind seat turning up a kitten while
trying to Nope); :func:`carry_on` then reports that the window closes, and the
caller resolves the pending play (:func:`ek_env.engine.window.resolve`), which sits above
this module.
"""

from __future__ import annotations

from cardgym.chance import Chance
from ek_env.engine import knowledge
from ek_env.engine import record as rec
from ek_env.engine.cards import DEFUSE, KITTEN, STREAKING
from ek_env.engine.hands import remove_card, remove_random
from ek_env.engine.seats import next_alive
from ek_env.engine.state import (
    GAME_OVER,
    INSERT,
    NOBODY,
    NOPE_WINDOW,
    PLAY,
    RESUME_DRAW,
    RESUME_PLAY,
    RESUME_WINDOW,
    State,
)
from ek_env.engine.turns import clear_pending, settle_one, start_turns


def draw(state: State, rng: Chance) -> None:
    """The turn holder draws the top card: a kitten is kept (Streaking Kitten), defused
    (then placed) or explodes; an empty draw pile ends the game in a shared draw."""
    seat = state.turn_holder
    if not state.deck:
        end_dry(state)
        return
    card = state.deck.pop()
    hand = state.hands[seat]
    if card != KITTEN or (state.kinds > STREAKING and hand[STREAKING] and not hand[KITTEN]):
        # a kitten kept thanks to the Streaking Kitten stays unrevealed
        state.log.append(rec.event(seat, rec.DRAW, secret=card, seen_by=1 << seat))
        knowledge.top_drawn(state, seat, card, kept=card == KITTEN)
        knowledge.gained_unseen(state, seat)
        hand[card] += 1
        state.sizes[seat] += 1
        _draw_done(state, seat)
        return
    state.log.append(rec.event(seat, rec.DRAW, card=KITTEN))
    knowledge.top_drawn(state, seat, card)
    state.resume = RESUME_DRAW
    state.resume_seat = seat
    explode(state, seat, 1, rng)  # under RESUME_DRAW no Nope window closes


def _draw_done(state: State, seat: int) -> None:
    """A draw ended without elimination: a blind drawer sees again; one turn settles."""
    if state.blind[seat]:
        state.blind[seat] = False
        knowledge.sight_changed(state, seat)
    settle_one(state)


def end_dry(state: State) -> None:
    """A player had to draw from an empty draw pile: the game ends, and the players
    still alive share a draw (docs/rules/exploding_kittens.md, Streaking Kittens)."""
    state.log.append(rec.event(state.turn_holder, rec.DRY))
    state.phase = GAME_OVER
    state.winner = NOBODY
    state.to_act = state.turn_holder


def explode(state: State, seat: int, kittens: int, rng: Chance) -> bool:
    """``kittens`` Exploding Kittens, shown to all, explode for ``seat``: each needs a
    Defuse (played automatically by a seeing player; a blind one turns random cards
    until it finds them), then the seat puts them back one by one (INSERT); without
    enough Defuses the seat is out. What follows is :func:`carry_on`'s, and so is the
    result: whether an interrupted Nope window closes now."""
    if state.blind[seat]:
        kittens, defused = _defuse_blind(state, seat, kittens, rng)
    else:
        kittens, defused = _defuse_seeing(state, seat, kittens)
    if kittens:
        eliminate(state, seat, kittens + defused)
        return carry_on(state, rng)
    state.held_kitten = defused
    state.phase = INSERT
    state.to_act = seat
    return False


def _defuse_seeing(state: State, seat: int, kittens: int) -> tuple[int, int]:
    """A seeing seat plays a Defuse for each kitten while it has one. Returns the
    kittens left undefused and the kittens defused."""
    hand = state.hands[seat]
    defused = 0
    while kittens and hand[DEFUSE]:
        remove_card(state, seat, DEFUSE, None)
        state.discard[DEFUSE] += 1
        knowledge.left_publicly(state, seat, DEFUSE)
        state.log.append(rec.event(seat, rec.DEFUSE, card=DEFUSE))
        kittens -= 1
        defused += 1
    return kittens, defused


def _defuse_blind(state: State, seat: int, kittens: int,
                  rng: Chance) -> tuple[int, int]:
    """A blind seat turns up random cards of its hand looking for Defuses: a kitten
    turned up explodes too, and a Streaking Kitten turned up lets a held kitten go
    off. Returns the kittens left undefused and the kittens defused."""
    hand = state.hands[seat]
    log = state.log
    defused = 0
    while kittens and any(hand):
        card = remove_random(state, seat, rng)
        knowledge.left_publicly(state, seat, card)
        if card == KITTEN:
            log.append(rec.event(seat, rec.TURNED, card=KITTEN))
            kittens += 1
            continue
        state.discard[card] += 1
        if card == DEFUSE:
            log.append(rec.event(seat, rec.DEFUSE, card=DEFUSE))
            kittens -= 1
            defused += 1
            continue
        log.append(rec.event(seat, rec.TURNED, card=card))
        if card == STREAKING and hand[KITTEN]:
            remove_card(state, seat, KITTEN, None)
            knowledge.left_publicly(state, seat, KITTEN)
            log.append(rec.event(seat, rec.EXPLODE, card=KITTEN))
            kittens += 1
    return kittens, defused


def eliminate(state: State, seat: int, kittens: int) -> None:
    """``seat`` is out: its hand and the ``kittens`` that exploded go to the discard
    pile (or out of play); turns it owed vanish; one survivor wins."""
    pile = state.discard if state.config.eliminated_cards == "discard" else state.out_of_play
    hand = state.hands[seat]
    for card, count in enumerate(hand):
        if count:
            pile[card] += count
            hand[card] = 0
    state.sizes[seat] = 0
    pile[KITTEN] += kittens
    knowledge.hand_emptied(state, seat)
    state.log.append(rec.event(seat, rec.OUT))
    marks = state.marked[seat]
    state.marks_total -= sum(marks)
    for card in range(state.kinds):
        marks[card] = 0
    state.blind[seat] = False
    state.alive[seat] = False
    state.eliminated.append(seat)
    if seat in state.explode_queue:
        state.explode_queue.remove(seat)
    survivors = [s for s in range(state.num_players) if state.alive[s]]
    if len(survivors) == 1:
        state.winner = survivors[0]
        state.phase = GAME_OVER
        state.to_act = survivors[0]
        state.explode_queue.clear()
        state.held_kitten = 0


def insert(state: State, depth: int, rng: Chance) -> bool:
    """Put a defused kitten back ``depth`` cards from the top; when the last is back,
    the game goes on (:func:`carry_on`, whose result this is)."""
    deck = state.deck
    deck.insert(len(deck) - depth, KITTEN)
    state.held_kitten -= 1
    state.log.append(rec.event(state.to_act, rec.INSERT, secret=depth, seen_by=1 << state.to_act))
    knowledge.inserted(state, state.to_act, KITTEN, depth)
    if not state.held_kitten:
        return carry_on(state, rng)
    return False


def carry_on(state: State, rng: Chance) -> bool:
    """After an explosion is settled: the next queued one, then whatever it
    interrupted (``state.resume``).

    Returns:
        True when a Nope window interrupted by the explosion closes now (the seat
        that tried to Nope was the last to be asked): the caller resolves the pending
        play. This happens only under ``RESUME_WINDOW``.
    """
    if state.phase == GAME_OVER:
        return False
    if state.explode_queue:
        seat = state.explode_queue.pop(0)
        remove_card(state, seat, KITTEN, None)
        knowledge.left_publicly(state, seat, KITTEN)
        state.log.append(rec.event(seat, rec.EXPLODE, card=KITTEN))
        return explode(state, seat, 1, rng)
    resume, seat = state.resume, state.resume_seat
    state.resume = RESUME_PLAY
    state.resume_seat = NOBODY
    holder = state.turn_holder
    if not state.alive[holder]:
        clear_pending(state)
        start_turns(state, next_alive(state, holder), 1, False)
    elif resume == RESUME_DRAW:
        _draw_done(state, seat)
    elif resume == RESUME_WINDOW:
        state.phase = NOPE_WINDOW
        if seat == state.window_last:
            return True
        state.to_act = next_alive(state, seat)
    else:
        state.phase = PLAY
        state.to_act = holder
    return False
