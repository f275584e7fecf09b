"""Entry of the numbers of a Heat, Mini FITS or Myth Fits game (the scoring step of
`presstime play --game ...`), in the style of `entry.ScoreEntry`.

`GameEntry(record, save, ask=input, say=print)` asks what the board cannot know:
  Heat       arrested? then the heat value, then each player's money and heat;
  Mini FITS  each player's complete lines per round, and the colour sets in round 2;
  Myth Fits  who gathered the three creatures (if anyone; the photo tokens come from the board).
Each answer is checked by the core on a probe record (`records.check_record`): a refused value
is shown with the core's message and asked again. Nothing here knows a rule: which player
counts, limits and sums are allowed is the core's answer. Every accepted answer is saved at once.

At any question: a value; Enter keeps the value in [brackets]; `back`; `?`; `quit`.
"""

import copy

from . import records
from .entry import EntryStopped, _is_number, _refused, player_names
from .errors import BadInput

HELP = """At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  y / n       for a yes-or-no question
  back        go back to the previous question
  quit        stop here: everything typed is kept as a draft
  ?           this help"""

TITLES = {"heat": "Heat", "mini-fits": "Mini FITS", "myth-fits": "Myth Fits"}


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
                node.append({"players": {}})
            node = node[key]
            continue
        if not isinstance(node.get(key), (dict, list)):
            node[key] = [] if isinstance(nxt, int) else {}
        node = node[key]
    node[path[-1]] = value


class Step:
    """One question: where the answer goes, what is asked, the kind of answer, and the places
    (message prefixes) of the core's check that concern it."""

    def __init__(self, path, label, kind, places):
        self.path = path
        self.label = label
        self.kind = kind      # "int", "yes/no" or "player"
        self.places = places


class GameEntry:
    def __init__(self, record, save, ask=input, say=print):
        self.record = record
        self.save = save
        self.ask = ask
        self.say = say
        self.game = record.get("game")

    # ------------------------------------------------------------------ the questions

    def steps(self, round_index=None):
        """The questions in the order asked. Mini FITS: only round `round_index` when given."""
        names = player_names(self.record)
        out = []
        if self.game == "heat":
            out.append(Step(("arrested",), "everybody arrested (a B phase needed more heat than the game has)? y/n",
                            "yes/no", ("arrested",)))
            if self.record.get("arrested") is not True:
                out.append(Step(("heat_value",), "heat value (the worst empty row: -$3 is 3)", "int",
                                ("heat_value",)))
                for n in names:
                    place = "final, player %s" % n
                    out.append(Step(("final", n, "money"), "%s · money" % n, "int", (place + ", field money",)))
                    out.append(Step(("final", n, "heat"), "%s · heat tokens" % n, "int",
                                    (place + ", field heat", "final, field heat")))
        elif self.game == "mini-fits":
            indexes = [round_index] if round_index is not None else range(self._rounds_in())
            for r in indexes:
                for n in names:
                    place = "round %d, player %s" % (r + 1, n)
                    out.append(Step(("rounds", r, "players", n, "lines"), "round %d · %s · complete lines" % (r + 1, n),
                                    "int", (place + ", field lines",)))
                    if self._colour_sets_in(r):
                        out.append(Step(("rounds", r, "players", n, "colour_sets"),
                                        "round %d · %s · colour sets (all 3 symbols visible)" % (r + 1, n),
                                        "int", (place + ", field colour_sets",)))
        elif self.game == "myth-fits":
            if self._won_by() != "photos":
                out.append(Step(("gathered",), "who gathered the three creatures? (name or seat; Enter: nobody)",
                                "player", ("gathered",)))
        return out

    def _rounds_in(self):
        return self._score_probe({"rounds": []}).get("rounds_in_game", 0)

    def _colour_sets_in(self, r):
        """Does the core take colour sets in round r+1? (It names them missing when it does.)"""
        probe = copy.deepcopy(self.record)
        rounds = list(probe.get("rounds") or [])
        while len(rounds) <= r:
            rounds.append({"players": {}})
        name = player_names(probe)[0]
        rounds[r] = {"players": {name: {"lines": 0}}}
        probe["rounds"] = rounds[:r + 1]
        want = "round %d, player %s, field colour_sets: missing" % (r + 1, name)
        return want in records.check_record(probe)

    def _won_by(self):
        probe = dict(self.record, gathered=None)
        if records.check_record(probe):
            return None
        return records.tally(probe).get("won_by")

    def _score_probe(self, changes):
        probe = dict(copy.deepcopy(self.record), **changes)
        try:
            return records.tally(probe)
        except BadInput:
            return {}

    # ------------------------------------------------------------------ the question loop

    def enter(self, round_index=None, review=False, only=None):
        """Ask every question not answered yet (all of them with review=True); `only`: a test
        on a Step, to ask just those (the scorepad asks the players' own numbers on phones)."""
        i = 0
        while True:
            steps = [s for s in self.steps(round_index) if only is None or only(s)]
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
        title = TITLES.get(self.game, self.game)
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
        """The core's messages about this answer (not the ones about questions still to come)."""
        probe = copy.deepcopy(self.record)
        _set(probe, step.path, value)
        out = []
        for m in records.check_record(probe):
            if m.endswith(": missing"):
                continue
            for place in step.places:
                if m.startswith(place + ":") or m.startswith(place + ","):
                    out.append(m)
                    break
        return out

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
