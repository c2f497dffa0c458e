"""Which depths of the draw pile each seat knows, as the public record tells it
(docs/rules/README.md): what a search sample may credit the other seats with
(:mod:`ek_env.info.hidden`), so that the sample depends on the resampling seat's
information only.

The record shows how many cards a seat saw (See the Future, Alter the Future) and
when all saw the top (Catomic Bomb), and every draw, shuffle and swap of the ends:
those depths are public. Where a seat put a kitten back is its secret; the record
shows only that it did. A sample takes that depth at random, among the depths
allowed then, and follows it on as the engine follows what a seat knows
(:mod:`ek_env.engine.knowledge`), so whether the seat still knows it after a kitten is
drawn, or how many depths it knows after seeing the top, is the sample's own, not
the true state's. What a seat knew before the record begins (a scenario's
``known`` key) is not credited.
"""

from __future__ import annotations

import numpy as np

from cardgym.record import NONE, Event
from ek_env.engine import record as rec
from ek_env.engine.cards import GARBAGE_COLLECTION, SHUFFLE, SWAP_TOP_AND_BOTTOM
from ek_env.engine.state import ALTER, GARBAGE, State

#: Per seat, a flag for each depth (0 = top): whether that seat knows it.
Depths = list[list[bool]]


def known_depths(state: State, seat: int, rng: np.random.Generator) -> Depths:
    """Per seat, the depths of ``state``'s draw pile it knows as the public record
    tells it, each secret put-back depth of a seat other than ``seat`` drawn from
    ``rng`` (``seat``'s own row is left empty: it keeps what it knows)."""
    log = state.log
    lifted = _lifted(state)
    start, net, under_way = _window(state)
    replay = _Replay(state.num_players, seat, max(0, len(state.deck) + lifted + net), rng)
    apply = replay.apply
    for index in range(start, len(log)):
        event = log[index]
        if event.what in _FOLLOWED and index != under_way:
            apply(event)
    if lifted:  # Alter the Future under way: the turn holder saw the top, then it came off
        replay.saw(state.turn_holder, lifted)
        replay.lift(lifted)
    depths = replay.depths
    depths[seat] = []
    size = len(state.deck)
    for known in depths:
        del known[size:]
        while known and not known[-1]:
            known.pop()
    return depths


def _lifted(state: State) -> int:
    """Cards off the draw pile while Alter the Future puts them back, else 0."""
    if state.phase != ALTER:
        return 0
    return len(state.alter_left) + len(state.alter_placed)


def _window(state: State) -> tuple[int, int, int]:
    """Where in the record the replay starts, how many more cards the draw pile held
    then than at the end of the record (draws less put-backs since), and the index of
    the Garbage Collection under way (whose shuffle is still to come), else -1.

    It starts at the last event after which nobody knew anything of the pile's order
    but what the event shows (a shuffle, a finished Garbage Collection, a Catomic
    Bomb), else at the beginning."""
    log = state.log
    in_garbage = state.phase == GARBAGE  # the latest Garbage Collection is under way
    under_way = -1
    net = 0
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        what = event.what
        if what == rec.DRAW:
            net += 1
        elif what == rec.INSERT:
            net -= 1
        elif what == rec.BOMB:
            return index, net, under_way
        elif _single_allowed(event):
            if event.card == SHUFFLE:
                return index + 1, net, under_way
            if event.card == GARBAGE_COLLECTION:
                if not in_garbage:
                    return index + 1, net, under_way
                in_garbage = False
                under_way = index
    return 0, net, under_way


def _single_allowed(event: Event) -> bool:
    """Whether ``event`` is a Nope window that let a single card go ahead (a pair or
    three of a kind of the same card names its target; a single Shuffle, Swap Top and
    Bottom or Garbage Collection none)."""
    return event.what == rec.WINDOW and event.result == rec.ALLOWED and event.target == NONE


#: The events that change which depths a seat knows.
_FOLLOWED = frozenset((rec.DRAW, rec.INSERT, rec.SAW, rec.ALTERED, rec.BOMB, rec.WINDOW))


class _Replay:
    """The known depths of every seat followed through the record (the shapes of
    :mod:`ek_env.engine.knowledge`'s lists, without the cards)."""

    def __init__(self, players: int, seat: int, size: int, rng: np.random.Generator) -> None:
        self.depths: Depths = [[] for _ in range(players)]
        self.seat = seat
        self.size = size
        self.rng = rng

    def apply(self, event: Event) -> None:
        """Follow one event of the record."""
        what = event.what
        if what == rec.DRAW:
            self.size = max(0, self.size - 1)
            for known in self.depths:
                if known:
                    del known[0]
        elif what == rec.INSERT:
            self.inserted(event.actor)
        elif what == rec.SAW:
            self.saw(event.actor, event.result)
        elif what == rec.ALTERED:
            self.altered(event.actor, event.result)
        elif what == rec.BOMB:
            self.depths = [[True] * event.result for _ in self.depths]
        elif _single_allowed(event):
            if event.card in (SHUFFLE, GARBAGE_COLLECTION):
                self.depths = [[] for _ in self.depths]
            elif event.card == SWAP_TOP_AND_BOTTOM:
                self.swapped()

    def inserted(self, actor: int) -> None:
        """``actor`` put a kitten back: the others' knowledge is stale; the actor knows
        one depth, drawn at random among the allowed ones (its own, for ``seat``, is
        not needed)."""
        size = self.size
        self.size += 1
        for observer, known in enumerate(self.depths):
            if observer != actor or actor == self.seat:
                known.clear()
                continue
            depth = int(self.rng.integers(size + 1))
            if len(known) < depth:
                known.extend([False] * (depth - len(known)))
            known.insert(depth, True)

    def saw(self, actor: int, count: int) -> None:
        """``actor`` saw the top ``count`` cards."""
        count = min(count, self.size)
        known = self.depths[actor]
        if len(known) < count:
            known.extend([False] * (count - len(known)))
        known[:count] = [True] * count

    def lift(self, count: int) -> None:
        """The top ``count`` cards came off the pile."""
        for known in self.depths:
            del known[:count]

    def altered(self, actor: int, count: int) -> None:
        """Alter the Future, done: ``actor`` saw the top ``count`` cards and put them
        back in its order; the others no longer know which is where."""
        self.saw(actor, count)
        if count <= 1:  # nothing was reordered
            return
        for observer, known in enumerate(self.depths):
            if observer != actor and known:
                known[:count] = [False] * min(count, len(known))

    def swapped(self) -> None:
        """The top and bottom cards swapped places unseen."""
        size = self.size
        if size <= 1:
            return
        for known in self.depths:
            if not known:
                continue
            known.extend([False] * (size - len(known)))
            known[0], known[-1] = known[-1], known[0]
            while known and not known[-1]:
                known.pop()
