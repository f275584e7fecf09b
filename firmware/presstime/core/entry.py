# SPDX-License-Identifier: MIT
"""The scorepad numbers as the journal holds them (SCORE events, core/table.py), and the one
check of a typed number: shared by the board's own entry (device/entry.py) and the desktop's
sync, which stores a game scored on the board (host/presstime/sync/rebuild.py).

A question is the game's face's (`fields(record, i)`, core/games.py): (path, kind, label). The
journal names it by (round, seat, key): the round i (255 for the game's end numbers, i None),
the seat of the player the path names (255: no one player's question) and the path's last item;
the value is a whole number: an "int" as it is, "yes/no" 1 or 0, "player" a seat (-1: nobody),
a choice (a kind that is a tuple (words, answer(v), number(value)): the face's) the word's index.
A face's `setup_fields(record, i)`, when it has one, asks a round's own set-up first (Fit to
Print's Breaking News card: core/fit_to_print_check.py), then its `fields`: `questions`.

    questions(face, record, i) -> the questions of round i (None: the game's end), in order
    ident(path, i, names) -> (round, seat, key)
    answer(kind, v, names) -> the record's value of a journaled number
    number(kind, value, names) -> the journaled number of a record's value
    put(record, path, value)   the value into the record, the containers made as needed
    get(record, path)          the value at path, None when there is none
    fill(record, face, numbers, rounds)   every journaled number into the record, question by
                               question in the face's order ({(round, seat, key): value})
    with_value(record, path, value) -> a copy with the value at path (ABSENT: taken out)
    problems(record, path, value) -> the core's problems this value brings: those the game's
                               check finds with it and not without it (what `enter` refuses)

Pure and MicroPython-safe: no f-strings, only the containers along a path are copied.
"""

SCORE = 18     # the journal's kind (core/table.py's _SCORE, core/events.py encodes it)


def questions(face, record, i):
    """The face's set-up questions of round i (`setup_fields`, when it has one), then its `fields`."""
    more = getattr(face, "setup_fields", None)
    out = face.fields(record, i)
    return more(record, i) + out if more else out


def ident(path, i, names):
    """(round, seat, key) of the question at `path` of round i (None: the game's end)."""
    seat = 255
    j = len(path) - 2
    while j >= 0:
        if path[j] in names:
            seat = names.index(path[j])
            break
        j -= 1
    return (255 if i is None else i, seat, path[-1])


def answer(kind, v, names):
    if type(kind) is tuple:
        return kind[1](v)
    if kind == "yes/no":
        return v != 0
    if kind == "player":
        return names[v] if 0 <= v < len(names) else None
    return v


def number(kind, value, names):
    if type(kind) is tuple:
        return kind[2](value)
    if kind == "yes/no":
        return 1 if value else 0
    if kind == "player":
        return names.index(value) if value in names else -1
    return value


def put(record, path, value):
    node = record
    last = len(path) - 1
    for j in range(last):
        key = path[j]
        if isinstance(node, list):
            while len(node) <= key:
                node.append({})
            node = node[key]
            continue
        if not isinstance(node.get(key), (dict, list)):
            node[key] = [] if isinstance(path[j + 1], int) else {}
        node = node[key]
    if isinstance(node, list):
        while len(node) <= path[last]:
            node.append({})
    node[path[last]] = value


def get(record, path):
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


def names_of(record):
    out = []
    for p in record.get("players") or ():
        out.append(p.get("name") if isinstance(p, dict) else p)
    return out


def fill(record, face, numbers, rounds, keep=False):
    """Put every number of `numbers` ({(round, seat, key): value}) into the record: rounds
    0..rounds-1, then the game's end, each question in the face's order (a question that an
    earlier answer brings, Heat's heat value after "arrested? no", is found as it comes: the
    face is asked again after each answer that is not a number). keep: a value the record holds
    already stays (the desktop's: typed there after a sync; not one an earlier answer of this
    fill put, e.g. the value a card brings). Returns how many were put."""
    names = names_of(record)
    put_in = 0
    done = []
    i = 0
    while i <= rounds:
        r = i if i < rounds else None
        fields = questions(face, record, r)
        k = 0
        while k < len(fields):
            path, kind, label = fields[k]
            v = numbers.get(ident(path, r, names))
            if v is not None and not (keep and get(record, path) is not None and
                                      not _under(path, done)):
                put(record, path, answer(kind, v, names))
                done.append(path)
                put_in += 1
                if kind != "int":       # a yes/no, a player or a choice may change what is asked next
                    fields = questions(face, record, r)
            k += 1
        i += 1
    return put_in


def _under(path, done):
    for p in done:
        if path[:len(p)] == p:
            return True
    return False


ABSENT = object()     # with_value's value for a key taken out


def with_value(record, path, value):
    """A copy of `record` with `value` at `path` (ABSENT: taken out, the containers along the
    path made all the same, so that both copies differ in that value alone); only the
    containers along the path are copied."""
    top = dict(record)
    node = top
    for j in range(len(path) - 1):
        key = path[j]
        if isinstance(node, list):
            child = node[key] if key < len(node) else None
        else:
            child = node.get(key)
        if isinstance(child, list):
            child = list(child)
        elif isinstance(child, dict):
            child = dict(child)
        else:
            child = [] if isinstance(path[j + 1], int) else {}
        if isinstance(node, list):
            while len(node) <= key:
                node.append({})
        node[key] = child
        node = child
    key = path[-1]
    if value is ABSENT:
        if isinstance(node, dict) and key in node:
            del node[key]
    else:
        if isinstance(node, list):
            while len(node) <= key:
                node.append({})
        node[key] = value
    return top


def problems(record, path, value, check=None):
    """The problems the game's check (core/games.check, or `check`) finds with `value` at
    `path` and not without it: the questions not answered yet are missing in both, so only
    what this value brings is left. [] when the value is good."""
    if check is None:
        from .games import check
    before = check(with_value(record, path, ABSENT))
    out = []
    for m in check(with_value(record, path, value)):
        if m not in before:
            out.append(m)
    return out
