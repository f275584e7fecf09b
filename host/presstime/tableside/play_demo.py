"""`play --demo`: the scripted presses and example numbers of a demo game, any game (seeded:
every demo is the same game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal

from presstime import games as faces
from presstime.entry.answers import player_names, set_at
from presstime.entry.rounds import needed_fields, round_slot

if TYPE_CHECKING:
    from presstime.board.link import BoardClient
    from presstime.hints import Record, Status


class Demo:
    """Scripted presses and example numbers for any game (seeded: every demo the same game)."""

    TURN: Final = "turn"  # in a schedule: the player whose turn it is presses

    def __init__(self, seed: int) -> None:
        import random

        self.rnd = random.Random(seed)

    def schedule(
        self, players: int, now: float, lo: float = 0.2, hi: float = 0.6, turns: bool = False
    ) -> list[tuple[float, int | Literal["turn"]]]:
        """[(monotonic time, button)]: every player presses once, in a shuffled order, lo to hi
        seconds apart. turns (a timed round played in turns: presses out of turn do nothing,
        and only the control button ends the round): two rounds of turns, each ended by
        whoever's turn it is, then the control button (-1)."""
        a_turn: list[int | Literal["turn"]] = [self.TURN]
        order = a_turn * (2 * players) + [-1] if turns else list(range(players))
        if not turns:
            self.rnd.shuffle(order)
        out = []
        t = now
        for b in order:
            t += self.rnd.uniform(lo, hi)
            out.append((t, b))
        return out

    def turn(self, client: BoardClient, st: Status, now: float) -> float:
        """A game in turns: the player whose turn it is takes a photo token (a 0.9 s hold) or
        ends the turn (a short press). Returns when the next action may come."""
        p = st.get("turn", 0)
        if self.rnd.random() < 0.5:
            client.press(p, 900)
            return now + 1.2
        client.press(p)
        return now + 0.3

    def fill(self, record: Record, index: int | None = None) -> None:
        """Example numbers for what round `index` asks (None: the game's end numbers), typed at
        the table otherwise; a round with its own set-up gets the face's DEMO_SETUP."""
        face = faces.face_of(faces.of(record))
        if face.ROUND_SETUP is not None:
            rnd = round_slot(record, index or 0)
            for key, value in face.DEMO_SETUP.items():
                rnd.setdefault(key, value)
            pads = rnd.setdefault("players", {})
            numbers = self.numbers(record, index or 0)
            for seat, name in enumerate(player_names(record)):
                pads[name] = numbers[seat]
            return
        r = self.rnd
        examples = face.DEMO_ANSWERS  # by the field's name; others 0 to 3
        for path, kind, _label in faces.core_of(face.GAME).fields(record, index):
            if kind == "int":
                lo, hi = examples.get(path[-1], (0, 3))
                set_at(record, path, r.randint(lo, hi))
            elif kind == "yes/no":
                set_at(record, path, False)

    def numbers(self, record: Record, index: int) -> dict[int, dict[str, Any]]:
        """{seat: {field: value}}: example scorepad numbers for round `index` of a game scored
        round by round (seeded)."""
        r = self.rnd
        examples = faces.face_of(faces.of(record)).DEMO_ANSWERS  # {field: (lowest, highest)}
        out = {}
        for seat, _name in enumerate(player_names(record)):
            pad = {}
            for field in needed_fields(record, index):
                # every example is drawn for each line (the seeded demo's numbers stay the same)
                drawn = dict(
                    (key, r.randint(lo, hi) if lo < hi else lo)
                    for key, (lo, hi) in examples.items()
                )
                pad[field] = drawn.get(field, 0)
            out[seat] = pad
        return out
