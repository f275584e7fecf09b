"""Entry of the numbers of a Heat, Mini FITS or Myth Fits game (the scoring step of
`presstime play --game ...`), in the style of `entry.ScoreEntry`.

`GameEntry(record, save, ask=input, say=print)` asks what the board cannot know:
  Heat       arrested? then the heat value, then each player's money and heat;
  Mini FITS  each player's complete lines per round, and the colour sets in round 2;
  Myth Fits  who gathered the three creatures (if anyone; the photo tokens come from the board).
The questions are the game's face's (`fields(record, round)`, core/games.py): nothing here knows
a game. Each answer is checked by the core: the problems it finds with the answer and not
without it are shown, and the question is asked again. Every accepted answer is saved at once.

At any question: a value; Enter keeps the value in [brackets]; `back`; `?`; `quit`.
"""

from . import records
from .core import games
from .entry import _ABSENT, EntryStopped, _is_number, _refused, player_names, with_value
from .errors import BadInput

HELP = """At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  y / n       for a yes-or-no question
  back        go back to the previous question
  quit        stop here: everything typed is kept as a draft
  ?           this help"""

def _get(record, path):
    node = record
    for key in path:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return None
        if node is None:
            return None
    return node


def _set(record, path, value):
    node = record
    for i, key in enumerate(path[:-1]):
        nxt = path[i + 1]
        if isinstance(node, list):
            while len(node) <= key:
                node.append({})
            node = node[key]
            continue
        if not isinstance(node.get(key), (dict, list)):
            node[key] = [] if isinstance(nxt, int) else {}
        node = node[key]
    node[path[-1]] = value


class Step:
    """One question of the face's `fields`: where the answer goes, what is asked, the kind of
    answer ("int", "yes/no" or "player")."""

    def __init__(self, path, label, kind):
        self.path = path
        self.label = label
        self.kind = kind


class GameEntry:
    def __init__(self, record, save, ask=input, say=print):
        self.record = record
        self.save = save
        self.ask = ask
        self.say = say
        self.game = record.get("game")
        self.face = games.module(self.game)

    # ------------------------------------------------------------------ the questions

    def steps(self, round_index=None):
        """The questions in the order asked: round `round_index`'s when given, else every
        round's and then the game's end numbers."""
        face = self.face
        if round_index is not None:
            indexes = [round_index]
        else:
            indexes = list(range(face.rounds_in(face.MODES[0]))) + [None]
        names = player_names(self.record)
        out = []
        for i in indexes:
            for path, kind, label in face.fields(self.record, i):
                words = [label]
                who = [k for k in path if k in names]
                if who:
                    words.insert(0, who[0])
                if i is not None:                  # a round's question: "heist 2", "round 1"
                    words.insert(0, "%s %d" % (face.ROUND_WORD, i + 1))
                out.append(Step(path, " · ".join(words), kind))
        return out

    # ------------------------------------------------------------------ the question loop

    def enter(self, round_index=None, review=False):
        """Ask every question not answered yet (all of them with review=True)."""
        i = 0
        while True:
            steps = self.steps(round_index)
            while i < len(steps) and not review and self._answered(steps[i]):
                i += 1
            if i >= len(steps):
                return
            step = steps[i]
            moved = self._ask(step)
            if moved == "back":
                if i == 0:
                    self.say("  this is the first question")
                else:
                    i -= 1
                    review = True    # walking back: the answered questions are asked again
                continue
            if moved:
                i += 1

    def _answered(self, step):
        if step.kind == "player":
            return "gathered" in self.record
        return _get(self.record, step.path) is not None

    def _ask(self, step):
        """True: answered; "back"; False: asked again."""
        current = _get(self.record, step.path)
        shown = ""
        if current is not None or (step.kind == "player" and step.path[0] in self.record):
            shown = " [%s]" % ({True: "y", False: "n", None: "nobody"}.get(current, current)
                               if not isinstance(current, int) or isinstance(current, bool) else current)
        title = self.face.TITLE
        try:
            answer = self.ask("%s · %s%s: " % (title, step.label, shown))
        except EOFError:
            raise EntryStopped(eof=True)
        text = answer.strip()
        word = text.lower()
        if word in ("?", "help", "h"):
            self.say(HELP)
            return False
        if word in ("quit", "q"):
            raise EntryStopped()
        if word in ("back", "b"):
            return "back"
        if text == "":
            if shown:
                value = current
            elif step.kind == "player":
                value = None
            else:
                self.say(_refused("  type %s (or ? for help)" % ("y or n" if step.kind == "yes/no" else "a number")))
                return False
        else:
            value = self._parse(step, text)
            if value is _BAD:
                return False
        problems = self._problems(step, value)
        if problems:
            for m in problems:
                self.say(_refused("  " + m))
            return False
        _set(self.record, step.path, value)
        if step.path == ("arrested",) and value is True:
            self.record.pop("final", None)     # an arrested game needs no final money
            self.record.pop("heat_value", None)
        self.save(self.record)
        return True

    def _parse(self, step, text):
        if step.kind == "int":
            if _is_number(text):
                return int(text)
            self.say(_refused("  %r is not a number or a command (? for help)" % text))
            return _BAD
        if step.kind == "yes/no":
            w = text.lower()
            if w in ("y", "yes"):
                return True
            if w in ("n", "no"):
                return False
            self.say(_refused("  %r: type y or n" % text))
            return _BAD
        names = player_names(self.record)
        if text.lower() in ("nobody", "none", "-"):
            return None
        if _is_number(text) and 1 <= int(text) <= len(names):
            return names[int(text) - 1]
        for n in names:
            if n.lower() == text.lower():
                return n
        return text    # the core names what is wrong with it

    def _problems(self, step, value):
        """The core's problems that this answer brings: those it finds with it and not without
        it (questions still to come stay missing in both)."""
        before = set(records.check_record(with_value(self.record, step.path, _ABSENT)))
        return [m for m in records.check_record(with_value(self.record, step.path, value)) if m not in before]

    # ------------------------------------------------------------------ the end

    def finish(self):
        """The core's standings; while the core refuses the record, say why and ask again."""
        while True:
            try:
                return records.tally(self.record)
            except BadInput as e:
                for m in e.messages:
                    self.say(_refused("  problem: " + m))
                self.say("Going through the numbers again (Enter keeps a value).")
                self.enter(review=True)


_BAD = object()
