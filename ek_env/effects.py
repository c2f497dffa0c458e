"""Exploding Kittens turn flow and card effects, applied to a state in place.

These functions trust their caller: the move was checked to be legal
(``rules.apply`` checks; the env checks through the action mask). Randomness comes
from the generator argument only.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import NONE
from ek_env import knowledge
from ek_env import record as rec
from ek_env.cards import (
    ATTACK,
    DEFUSE,
    FAVOR,
    KITTEN,
    NOPE,
    SEE_THE_FUTURE,
    SEE_THE_FUTURE_CARDS,
    SHUFFLE,
    SKIP,
    STREAKING,
    TAKEABLE,
    TAKEABLE_STREAKING,
)
from ek_env.state import (
    CHOOSE_FIVE,
    FIVE,
    GAME_OVER,
    GIVE,
    INSERT,
    NAME_CARD,
    NO_PLAY,
    NOBODY,
    NOPE_WINDOW,
    PAIR,
    PLAY,
    RESUME_DRAW,
    RESUME_PLAY,
    RESUME_WINDOW,
    SINGLE,
    TAKE,
    THREE,
    State,
)


def next_alive(state: State, seat: int) -> int:
    """The next living seat clockwise after ``seat``."""
    n = state.num_players
    alive = state.alive
    other = (seat + 1) % n
    while not alive[other]:
        other = (other + 1) % n
    return other


def target_offsets(state: State, need_cards: bool) -> int:
    """Seats the turn holder may choose, as a bit mask over offsets 1..n-1 clockwise:
    living others, with cards in hand if ``need_cards``."""
    n = state.num_players
    seat = state.current
    alive, sizes = state.alive, state.sizes
    mask = 0
    for offset in range(1, n):
        other = (seat + offset) % n
        if alive[other] and (not need_cards or sizes[other]):
            mask |= 1 << offset
    return mask


# --------------------------------------------------------------- turn flow


def _start_turns(state: State, seat: int, owed: int, attacked: bool) -> None:
    state.current = seat
    state.to_act = seat
    state.owed = owed
    state.attacked = attacked
    state.phase = PLAY
    state.turns_played += 1


def settle_one(state: State) -> None:
    """One owed turn is over (a draw, a Skip, a Defuse); the next player starts when
    none is left."""
    state.owed -= 1
    if state.owed == 0:
        _start_turns(state, next_alive(state, state.current), 1, False)
    else:
        state.phase = PLAY
        state.to_act = state.current
        state.turns_played += 1


def draw(state: State, rng: np.random.Generator) -> None:
    """The turn holder draws the top card: a kitten is kept (Streaking Kitten), defused
    (then placed) or explodes; an empty draw pile ends the game in a shared draw."""
    seat = state.current
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
    explode(state, seat, 1, rng)


def _draw_done(state: State, seat: int) -> None:
    """A draw ended without elimination: a blind drawer sees again; one turn settles."""
    if state.blind[seat]:
        state.blind[seat] = False
        knowledge.sight_changed(state, seat)
    settle_one(state)


def end_dry(state: State) -> None:
    """A player had to draw from an empty draw pile: the game ends, and the players
    still alive share a draw (RULES.md §4)."""
    state.log.append(rec.event(state.current, rec.DRY))
    state.phase = GAME_OVER
    state.winner = NOBODY
    state.to_act = state.current


# -------------------------------------------------------------- explosions


def explode(state: State, seat: int, kittens: int, rng: np.random.Generator) -> None:
    """``kittens`` Exploding Kittens, shown to all, explode for ``seat``: each needs a
    Defuse (played automatically by a seeing player; a blind one turns random cards
    until it finds them), then the seat puts them back one by one (INSERT); without
    enough Defuses the seat is out. What follows is :func:`carry_on`'s."""
    hand = state.hands[seat]
    log = state.log
    defused = 0
    if not state.blind[seat]:
        while kittens and hand[DEFUSE]:
            remove_card(state, seat, DEFUSE, None)
            state.discard[DEFUSE] += 1
            knowledge.left_publicly(state, seat, DEFUSE)
            log.append(rec.event(seat, rec.DEFUSE, card=DEFUSE))
            kittens -= 1
            defused += 1
    else:
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
            else:
                log.append(rec.event(seat, rec.TURNED, card=card))
                if card == STREAKING and hand[KITTEN]:
                    remove_card(state, seat, KITTEN, None)
                    knowledge.left_publicly(state, seat, KITTEN)
                    log.append(rec.event(seat, rec.EXPLODE, card=KITTEN))
                    kittens += 1
    if kittens:
        eliminate(state, seat, kittens + defused)
        carry_on(state, rng)
        return
    state.held_kitten = defused
    state.phase = INSERT
    state.to_act = seat


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


def insert(state: State, depth: int, rng: np.random.Generator) -> None:
    """Put a defused kitten back ``depth`` cards from the top; when the last is back,
    the game goes on (:func:`carry_on`)."""
    deck = state.deck
    deck.insert(len(deck) - depth, KITTEN)
    state.held_kitten -= 1
    state.log.append(rec.event(state.to_act, rec.INSERT, secret=depth, seen_by=1 << state.to_act))
    knowledge.inserted(state, state.to_act, KITTEN, depth)
    if not state.held_kitten:
        carry_on(state, rng)


def carry_on(state: State, rng: np.random.Generator) -> None:
    """After an explosion is settled: the next queued one, then whatever it
    interrupted (``state.resume``)."""
    if state.phase == GAME_OVER:
        return
    if state.explode_queue:
        seat = state.explode_queue.pop(0)
        remove_card(state, seat, KITTEN, None)
        knowledge.left_publicly(state, seat, KITTEN)
        state.log.append(rec.event(seat, rec.EXPLODE, card=KITTEN))
        explode(state, seat, 1, rng)
        return
    resume, seat = state.resume, state.resume_seat
    state.resume = RESUME_PLAY
    state.resume_seat = NOBODY
    current = state.current
    if not state.alive[current]:
        _clear_pending(state)
        _start_turns(state, next_alive(state, current), 1, False)
        return
    if resume == RESUME_DRAW:
        _draw_done(state, seat)
    elif resume == RESUME_WINDOW:
        state.phase = NOPE_WINDOW
        if seat == state.window_last:
            _resolve(state, rng)
        else:
            state.to_act = next_alive(state, seat)
    else:
        state.phase = PLAY
        state.to_act = current


def _clear_pending(state: State) -> None:
    state.pending_kind = NO_PLAY
    state.pending_card = state.pending_target = state.pending_named = NOBODY
    state.pending_five = []
    state.nopes = 0
    state.window_last = NOBODY


# ------------------------------------------------------------ hand changes


def remove_card(state: State, seat: int, card: int, rng: np.random.Generator | None,
                marked: bool | None = None) -> bool:
    """One ``card`` leaves ``seat``'s hand. ``marked``: the player chose a marked (True)
    or an unmarked (False) copy (Favor, Garbage Collection); else a marked copy first
    where the copy is public anyway (``rng`` None: a Defuse played, a card named in
    three of a kind), or a random copy among the kind's cards (``rng`` given).
    Returns whether the copy that left was marked."""
    state.hands[seat][card] -= 1
    state.sizes[seat] -= 1
    marks = state.marked[seat]
    if marks[card]:
        if marked is None:
            marked = rng is None or int(rng.integers(state.hands[seat][card] + 1)) < marks[card]
        if marked:
            marks[card] -= 1
            state.marks_total -= 1
            return True
    return False


def remove_random(state: State, seat: int, rng: np.random.Generator) -> int:
    """A uniformly random card leaves ``seat``'s (non-empty) hand; returns its kind."""
    return remove_random_copy(state, seat, rng)[0]


def remove_random_copy(state: State, seat: int, rng: np.random.Generator) -> tuple[int, bool]:
    """As :func:`remove_random`; returns the kind and whether the copy was marked."""
    hand = state.hands[seat]
    card = nth_card(hand, int(rng.integers(state.sizes[seat])))
    return card, remove_card(state, seat, card, rng)


def streaking_left(state: State, seat: int, card: int) -> bool:
    """``card`` left ``seat``'s hand: a Streaking Kitten leaving a kitten behind makes it
    explode (queued). Returns whether it did."""
    if card == STREAKING and state.hands[seat][KITTEN]:
        state.explode_queue.append(seat)
        return True
    return False


def _transfer(state: State, giver: int, receiver: int, card: int, random_copy: bool,
              public: bool, rng: np.random.Generator, marked: bool | None = None,
              what: int = rec.GIVE) -> None:
    """``card`` goes from ``giver`` to ``receiver`` (Favor, steal, three of a kind);
    ``marked`` as in :func:`remove_card`; ``what``: the record's code (GIVE, STEAL,
    ASK).

    A kitten explodes for its receiver; a Streaking Kitten leaving a held kitten
    makes that kitten explode for the giver. The turn holder then plays on.
    """
    was_marked = remove_card(state, giver, card, rng if random_copy else None, marked)
    if what == rec.ASK:
        state.log.append(rec.event(receiver, rec.ASK, giver, card, rec.HIT))
    else:
        result = rec.MARKED_COPY if was_marked else rec.DONE
        actor, target = (giver, receiver) if what == rec.GIVE else (receiver, giver)
        if was_marked or card == KITTEN:  # the table sees which card left
            state.log.append(rec.event(actor, what, target, card, result))
        else:
            state.log.append(rec.event(actor, what, target, NONE, result, card,
                                   1 << giver | 1 << receiver))
    if card == KITTEN:
        knowledge.left_publicly(state, giver, KITTEN)
        state.resume = RESUME_PLAY
        explode(state, receiver, 1, rng)
        return
    state.hands[receiver][card] += 1
    state.sizes[receiver] += 1
    if public:
        knowledge.moved_publicly(state, giver, receiver, card)
        knowledge.gained_seen(state, receiver, card)
    else:
        knowledge.moved_privately(state, giver, receiver, card)
        knowledge.gained_unseen(state, receiver)
    if streaking_left(state, giver, card):
        state.resume = RESUME_PLAY
        carry_on(state, rng)


# ------------------------------------------------------------------- plays


def announce(state: State, kind: int, card: int, target: int) -> None:
    state.pending_kind = kind
    state.pending_card = card
    state.pending_target = target
    state.pending_named = NOBODY
    state.nopes = 0


def _discard_from_hand(state: State, seat: int, card: int, count: int) -> None:
    state.hands[seat][card] -= count
    state.sizes[seat] -= count
    marks = state.marked[seat]
    if marks[card]:
        unmarked = min(count, marks[card])
        marks[card] -= unmarked
        state.marks_total -= unmarked
    state.discard[card] += count
    knowledge.left_publicly(state, seat, card, count)


def open_window(state: State, opener: int) -> None:
    """Every living seat is asked in turn, clockwise after ``opener`` and ``opener``
    last: being asked depends on nobody's cards (RULES.md §1)."""
    state.phase = NOPE_WINDOW
    state.window_last = opener
    state.to_act = next_alive(state, opener)


def play_card(state: State, card: int, target: int | None) -> None:
    """Play one action card (Favor, Mark, Curse with a target) and open the Nope window."""
    seat = state.current
    _discard_from_hand(state, seat, card, 1)
    announce(state, SINGLE, card, NOBODY if target is None else target)
    state.log.append(rec.event(seat, rec.PLAY, NONE if target is None else target, card))
    open_window(state, seat)


def play_pair(state: State, card: int, target: int) -> None:
    seat = state.current
    _discard_from_hand(state, seat, card, 2)
    announce(state, PAIR, card, target)
    state.log.append(rec.event(seat, rec.PAIR, target, card))
    open_window(state, seat)


def play_three(state: State, card: int, target: int) -> None:
    """Three of a kind: the cards go down; the card asked for is named next."""
    seat = state.current
    _discard_from_hand(state, seat, card, 3)
    announce(state, THREE, card, target)
    state.log.append(rec.event(seat, rec.THREE, target, card))
    state.phase = NAME_CARD


def name_card(state: State, card: int) -> None:
    state.pending_named = card
    state.log.append(rec.event(state.current, rec.NAME, state.pending_target, card))
    open_window(state, state.current)


def play_five(state: State) -> None:
    """Five different: the kinds are chosen next, one at a time in ascending order."""
    announce(state, FIVE, NOBODY, NOBODY)
    state.pending_five = []
    state.phase = CHOOSE_FIVE


def choose_five(state: State, card: int) -> None:
    seat = state.current
    state.pending_five.append(card)
    _discard_from_hand(state, seat, card, 1)
    state.log.append(rec.event(seat, rec.FIVE, card=card))
    if len(state.pending_five) == 5:
        open_window(state, seat)


def respond(state: State, nope: bool, rng: np.random.Generator) -> None:
    """The seat asked in a Nope window Nopes or passes; after a full round of passes
    the pending play resolves if the number of Nopes is even."""
    seat = state.to_act
    if nope:
        _discard_from_hand(state, seat, NOPE, 1)
        state.nopes += 1
        state.log.append(rec.event(seat, rec.NOPE, state.window_last, NOPE,
                                   min(state.nopes, rec.RESULTS - 1)))
        open_window(state, seat)
        return
    passed(state, seat, rng)


def passed(state: State, seat: int, rng: np.random.Generator) -> None:
    if seat != state.window_last:
        state.to_act = next_alive(state, seat)
        return
    _resolve(state, rng)


# ----------------------------------------------------------- resolution


def _resolve(state: State, rng: np.random.Generator) -> None:
    kind, card, target = state.pending_kind, state.pending_card, state.pending_target
    named, succeeded = state.pending_named, state.nopes % 2 == 0
    _clear_pending(state)
    state.phase = PLAY
    seat = state.to_act = state.current
    state.log.append(rec.event(seat, rec.WINDOW, target, card,
                           rec.ALLOWED if succeeded else rec.STOPPED))
    if not succeeded:
        return
    if kind == SINGLE:
        if card == ATTACK:
            stack = state.config.attack_stacking == "stack" and state.attacked
            _start_turns(state, next_alive(state, seat), state.owed + 2 if stack else 2, True)
        elif card == SKIP:
            settle_one(state)
        elif card == FAVOR:
            if state.sizes[target]:
                if state.blind[target]:
                    _transfer(state, target, seat, random_kind(state, target, rng), True,
                              False, rng)
                else:
                    state.phase = GIVE
                    state.to_act = target
            else:
                state.log.append(rec.event(target, rec.GIVE, seat, NONE, rec.NOTHING))
        elif card == SHUFFLE:
            rng.shuffle(state.deck)
            knowledge.deck_shuffled(state)
        elif card == SEE_THE_FUTURE:
            saw(state, seat, SEE_THE_FUTURE_CARDS, rec.SAW)
        else:
            from ek_env import streaking  # the expansion's cards build on this module

            streaking.resolve(state, card, target, rng)
    elif kind == PAIR:
        steal_random(state, target, seat, rng)
    elif kind == THREE:
        if state.hands[target][named]:
            _transfer(state, target, seat, named, False, True, rng, what=rec.ASK)
        else:
            state.log.append(rec.event(seat, rec.ASK, target, named, rec.MISS))
            knowledge.ruled_out(state, target, named)
    elif kind == FIVE:
        discard = state.discard
        takeable = TAKEABLE_STREAKING if state.kinds > STREAKING else TAKEABLE
        if any(discard[c] for c in takeable):
            state.phase = TAKE
        else:
            state.log.append(rec.event(seat, rec.TAKE, result=rec.NOTHING))


def saw(state: State, seat: int, count: int, what: int) -> None:
    """``seat`` looks at the top ``count`` cards (See the Future, Alter the Future);
    the record shows how many, the cards only to ``seat``."""
    deck = state.deck
    count = min(count, len(deck))
    knowledge.saw_top(state, seat, count)
    if what == rec.SAW:
        state.log.append(rec.event(seat, rec.SAW, result=count,
                               secret=rec.pack(deck[len(deck) - count :][::-1]),
                               seen_by=1 << seat))


# ------------------------------------------------------------ hand to hand


def random_kind(state: State, seat: int, rng: np.random.Generator) -> int:
    hand = state.hands[seat]
    return nth_card(hand, int(rng.integers(sum(hand))))


def steal_random(state: State, target: int, thief: int, rng: np.random.Generator) -> None:
    """A random card of ``target``'s hand goes to ``thief``; both see which."""
    if not state.sizes[target]:
        state.log.append(rec.event(thief, rec.STEAL, target, NONE, rec.NOTHING))
        return
    _transfer(state, target, thief, random_kind(state, target, rng), True, False, rng,
              what=rec.STEAL)


def nth_card(counts: list[int], index: int) -> int:
    """The kind of the ``index``-th card of a hand given as counts per kind."""
    for card, count in enumerate(counts):
        if index < count:
            return card
        index -= count
    raise IndexError(f"card {index} of a hand of {sum(counts)}")


def give(state: State, card: int, rng: np.random.Generator, marked: bool = False) -> None:
    """Favor: the seat to act gives ``card`` (a marked copy if ``marked``) to the turn
    holder."""
    giver, receiver = state.to_act, state.current
    state.phase = PLAY
    state.to_act = receiver
    _transfer(state, giver, receiver, card, False, False, rng, marked, rec.GIVE)


def take(state: State, card: int) -> None:
    """Five different: the turn holder takes ``card`` from the discard pile."""
    seat = state.current
    state.discard[card] -= 1
    state.hands[seat][card] += 1
    state.sizes[seat] += 1
    knowledge.arrived_publicly(state, seat, card)
    knowledge.gained_seen(state, seat, card)
    state.log.append(rec.event(seat, rec.TAKE, card=card, result=rec.DONE))
    state.phase = PLAY
    state.to_act = seat
