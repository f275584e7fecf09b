"""A whole game scored on the MacroPad alone (device/entry.py) on the official CircuitPython in
the rig: the rounds played with the keys, the numbers turned in with the knob and confirmed
with its press while the OLED is read back as text (rig/oled.py). Used by
tests/test_rig_board_entry.py.

    game = Game(pad, cfg)                   # rig/macropad_games.py (pad started with oled=True)
    knob = Knob(pad)
    play_to_summary(game)                   # a ready-reveal round: every player's key
    play_timed_round(game)                  # a timed round (Fit to Print): start, all print
    play_turns(game, photos)                # a turns game (Myth Fits): photo tokens, then ended
    asked, rec = questions(cfg, value, photos)  # what the board asks, from the game's core face
    answer(knob, asked[r], then, since)     # each question checked on the screen, turned to,
                                            # confirmed; the frame that shows `then` after
    typed(asked)                            # the same answers as `enter` takes them
    walk_mini_fits(board, knob, game, save) # both boards' walk-through (a refusal, the back key)

The questions are worked out as the board works them out (the face's `fields`, asked again
after each answer that is not a number), so the screen is held to the face's order, head and
words; the board's own journal is what the test compares with `enter`.
"""

from presstime.core import entry as core_entry, games

from .macropad_games import start_round, wait_phase
from .rp2emu import MS, RigError

COLS = 21  # the MacroPad's screen: 21 columns of terminalio's 6-pixel cells
DETENT_MS = 45  # a detent's four edges on the rig (rig/oled.py DETENT_NS, with room)


def play_to_summary(game):
    """A ready-reveal round: each player not ready presses a key, until the summary."""
    for _ in range(30):
        st = game.status()
        now = game.now_ms()
        if st["phase"] == "summary":
            return st
        t = now + 50
        for i, p in enumerate(st["players"]):
            if p["state"] != "ready":
                game.press(i, at_ms=t)
                t += 70
        game.run_to(t + 200)
    raise AssertionError("no summary: %r" % game.status())


def play_timed_round(game):
    """A timed round (Fit to Print's standard mode): the control button starts it, after the
    countdown every player prints in seat order; the round's summary."""
    st, t = start_round(game)
    for seat in range(len(st["players"])):
        game.press(seat, at_ms=t + 150 * seat)
    game.run_to(t + 150 * len(st["players"]) + 300)
    st = wait_phase(game, ("summary",))
    assert st["phase"] == "summary", st
    return st


def play_turns(game, photos):
    """A turns game (Myth Fits): the control button starts it; each player in `photos` ({seat:
    tokens}, in seat order) takes their photo tokens (a 0.9 s hold each); then the control
    button ends it (no one at the target: who gathered is asked). The summary."""
    t = game.control(in_ms=50)
    game.run_to(t + 80 + 400 + 300)
    assert wait_phase(game, ("running",))["phase"] == "running"
    for seat, n in sorted(photos.items()):
        for _ in range(n):
            t = game.press(seat, in_ms=50, hold_ms=900)
            # a turns game's event is written at once: a FAT write holds the chip ~0.11 s
            game.run_to(t + 900 + 450)
    t = game.control(in_ms=50)
    game.run_to(t + 80 + 400 + 300)
    st = wait_phase(game, ("summary", "over"))
    assert st["phase"] in ("summary", "over"), st
    return st


def first_line(label, cols=COLS):
    """The first of the label's lines on the screen (device/entry.py _wrap)."""
    if len(label) <= cols:
        return label
    i = label.rfind(" ", 0, cols + 1)
    return label[: i if i > 0 else cols]


def shown(kind, v, names):
    """The number's line for the knob's value v (device/entry.py)."""
    if kind == "yes/no":
        return "> " + ("yes" if v else "no")
    if kind == "player":
        return "> " + (names[v] if 0 <= v < len(names) else "nobody")
    if isinstance(kind, tuple):  # a choice (Fit to Print's Breaking News card): its word
        return "> " + kind[0][v]
    return "> %d" % v


class Question:
    """One question as the screen shows it: `head` ("heist 1 Ada", "end"), the label's first
    line `words`, its `kind`, the knob's value `v` for the answer `value`, where the knob
    starts (`start`: from a value the record holds already, a card's, else -1 for a player,
    0); `part`: the value of the question before (a card's), typed with it."""

    def __init__(self, path, head, words, kind, value, names, held=None, part=False):
        self.path = path
        self.head = head
        self.words = words
        self.kind = kind
        self.value = value
        self.v = core_entry.number(kind, value, names)
        if held is not None:
            self.start = core_entry.number(kind, held, names)
        else:
            self.start = -1 if kind == "player" else 0
        self.names = names
        self.part = part

    def __repr__(self):
        return "Question(%r, %r, %r)" % (self.head, self.words, self.value)

    def typed(self):
        """The answer as `enter` takes it (a card: its effect, its value a `part` after it)."""
        if isinstance(self.kind, tuple):
            return self.value[0]["effect"] if self.value else ""
        if self.kind == "yes/no":
            return "y" if self.value else "n"
        if self.kind == "player":
            return self.value or ""
        return str(self.value)


def questions(cfg, value, photos=None):
    """({round index or None (the game's end): [Question]}, the record they fill): the questions
    in the order the board asks them, the game's face's questions (core/entry.questions: its
    set-up questions, then its `fields`) over a record filled as the answers come (value(path,
    kind) gives each answer); photos {name: tokens} (a turns game: the board counts them)."""
    names = [p["name"] if isinstance(p, dict) else p for p in cfg["players"]]
    face = games.module(cfg["game"])
    rec = {"game": cfg["game"], "players": list(names)}
    if len(face.MODES) > 1:
        rec["mode"] = cfg.get("mode", face.MODES[0])
    if photos is not None:
        rec["photo_tokens"] = dict(photos)
    rounds = face.rounds_in(rec.get("mode", face.MODES[0]))
    out = {}
    for r in list(range(rounds)) + [None]:
        asked = out[r] = []
        fields = core_entry.questions(face, rec, r)
        k = 0
        while k < len(fields):
            path, kind, label = fields[k]
            seat = core_entry.ident(path, r, names)[1]
            head = "end" if r is None else "%s %d" % (face.ROUND_WORD, r + 1)
            if seat != 255:
                head += " " + names[seat]
            v = value(path, kind)
            held = core_entry.get(rec, path)
            part = any(path[: len(q.path)] == q.path for q in asked)
            asked.append(Question(path, head, first_line(label), kind, v, names, held, part))
            # (what the board puts: a card with the value its value question starts at)
            core_entry.put(rec, path, core_entry.answer(kind, asked[-1].v, names))
            if kind != "int":
                fields = core_entry.questions(face, rec, r)
            k += 1
    return out, rec


def typed(asked):
    """What `enter` is typed for the same game: each round's answers, then the game's end
    numbers (a card's value typed with the card: `part`)."""
    out = []
    for r in sorted(k for k in asked if k is not None) + [None]:
        for q in asked.get(r, ()):
            if q.part:
                out[-1] += " " + q.typed()
            else:
                out.append(q.typed())
    return out


class Knob:
    """The knob turned and pressed on the rig, the screen read after each (a MacroPad's, or
    anything with screen(), turn(), press_knob() and now(): the Pico's, rig/pico.py)."""

    def __init__(self, pad):
        self.pad = pad
        self.screen = pad.screen()
        self.value = 0

    def wait(self, text, max_ms=3000, after=None):
        """The first frame ending after `after` (default: now) that shows `text`."""
        after = self.pad.now() if after is None else after
        return self.screen.wait_for(text, max_ns=max_ms * MS, after=after)

    def wait_all(self, texts, max_ms=3000, after=None):
        """The first frame ending after `after` (default: now) that shows every one of `texts`."""
        after = self.pad.now() if after is None else after
        start = self.pad.now()
        while True:
            for f in self.screen.poll():
                if f.end > after and all(f.says(x) for x in texts):  # (its own font)
                    return f
            if self.pad.now() - start >= max_ms * MS:
                last = self.screen.last()
                raise RigError(
                    "the screen did not show %r within %d ms (last: %r)"
                    % (texts, max_ms, last.text() if last else "no frame")
                )
            self.pad.run(5 * MS)

    def turn(self, steps, then):
        if steps == 0:
            return self.screen.last()
        self.pad.turn(steps, at=self.pad.now() + 20 * MS)
        self.value += steps
        return self.wait(then, max_ms=3000 + DETENT_MS * abs(steps))

    def to(self, value):
        return self.turn(value - self.value, "> %d" % value)

    def press(self, then, taken=True):
        """The knob's press: taken ~0.4 s after its release (the control button's short press);
        a number taken, the next question starts at 0 (a refused one stays)."""
        self.pad.press_knob(at=self.pad.now() + 20 * MS)
        if taken:
            self.value = 0
        return self.wait(then)


def answer(knob, asked, then, since):
    """Each question of `asked`, the first shown in a frame ending after `since` (a rig
    instant): the screen shows its head and words and the knob's value, the knob is turned to
    the answer (the value's line checked) and pressed; after the last, the frame that shows
    `then` (the round's scores, the winner)."""
    q = asked[0]
    frame = knob.wait_all([q.head, q.words, shown(q.kind, q.start, q.names)], after=since)
    for k, q in enumerate(asked):
        if q.v != q.start:
            knob.pad.turn(q.v - q.start, at=knob.pad.now() + 20 * MS)
            frame = knob.wait_all(
                [q.head, q.words, shown(q.kind, q.v, q.names)],
                max_ms=3000 + DETENT_MS * abs(q.v - q.start),
            )
        knob.pad.press_knob(at=knob.pad.now() + 20 * MS)
        if k + 1 < len(asked):
            nxt = asked[k + 1]
            frame = knob.wait_all([nxt.head, nxt.words, shown(nxt.kind, nxt.start, nxt.names)])
        else:
            frame = knob.wait(then)
    knob.value = 0
    return frame


# ---- the walk-through both boards' tests play (tests/test_rig_board_entry.py, _pico_entry.py)
# (round, player, question's words on the screen, value); Ada's first is refused first
MINI_FITS_NUMBERS = [
    (1, "Ada", "complete lines", 5),
    (1, "Ben", "complete lines", 2),
    (2, "Ada", "complete lines", 4),
    (2, "Ada", "colour sets", 1),
    (2, "Ben", "complete lines", 3),
    (2, "Ben", "colour sets", 0),
]


def walk_mini_fits(board, knob, game, save, over=None):
    """Mini FITS, 2 players (Ada, Ben), its 2 rounds scored with the knob on `board` (the
    emulated MacroPad or Pico: now(), press_back()): each question read on the screen; round 1's
    first number turned to -1 and refused with the core's reason; in round 2 a confirmed number
    taken back with the back key and confirmed again; the round's scores, then "won: Ada".
    `save(frame, name)` keeps the question, refused, scores and winner screens; `over` ("round
    %d/2 over"), what a round's summary screen says, when given. Returns the numbers as `enter`
    takes them."""
    typed = []
    for rnd in (1, 2):
        t = board.now()
        play_to_summary(game)
        shown = knob.wait("turn the knob", after=t)
        assert over is None or shown.says(over % rnd), shown.text()
        # the first turn starts the round's questions (the value stays 0)
        shown = knob.turn(1, "round %d Ada" % rnd)
        knob.value = 0
        lines = [x.strip() for x in shown.text()]
        assert lines[0] == "round %d Ada" % rnd and "> 0" in lines, lines
        if rnd == 1:
            assert "complete lines" in lines, lines
            save(shown, "question")
            knob.to(-1)
            shown = knob.press("must be 0 to 10", taken=False)
            assert shown.says("round 1 Ada") and shown.says("> -1"), shown.text()
            save(shown, "refused")
        numbers = [n for n in MINI_FITS_NUMBERS if n[0] == rnd]
        for k, (r, name, words, value) in enumerate(numbers):
            assert shown.says("round %d %s" % (r, name)) and shown.says(words), shown.text()
            knob.to(value)
            typed.append(str(value))
            if (r, k) == (2, 0):
                # confirmed, then the back key: the question before, its number shown; the
                # knob's press confirms it again (the SCORE replaced, the same number)
                shown = knob.press("colour sets")
                board.press_back(at=board.now() + 20 * MS)
                shown = knob.wait("> %d" % value)
                assert shown.says("round 2 Ada") and shown.says("complete lines"), shown.text()
                knob.value = value
            if k + 1 < len(numbers):
                shown = knob.press("round %d %s" % numbers[k + 1][:2])
            else:
                shown = knob.press("round %d scores" % r)
        assert shown.says("Ada") and shown.says("Ben"), shown.text()
        if rnd == 1:
            assert shown.says("Ada 5 (+5)") and shown.says("Ben 2 (+2)"), shown.text()
            save(shown, "scores")
            knob.press("round 2")  # the next round
    save(knob.press("won: Ada"), "winner")
    return typed
