"""Drafts (score entry in progress, kept in the history's `drafts` table): what makes one
usable, and the lock one `enter` holds on it while it types.

    problem = draft_problem(record)        # None, or why a (hand-edited) draft cannot be resumed
    with DraftLock(store.path, key):        # DraftBusy (exit 1) while another process holds it
        ...

A draft is written whole by one SQLite transaction per answer (store.save_draft), so a crash or
a full disk leaves the previous answer's draft. The lock is a `flock` on a small file beside the
history (`<history>.draft-<hash>.lock`, holding the owner's process id, removed on release): the
system releases it when its process ends, however it ends (a killed process leaves only the
file, which the next `enter` takes over).
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from presstime import games as faces
from presstime.core import games
from presstime.errors import Failure

if TYPE_CHECKING:
    from presstime.hints import Json


class DraftBusy(Failure):
    """The draft is open in another process (exit status 1)."""


def draft_problem(record: Json) -> str | None:
    """Why `record` (a parsed draft) cannot be resumed, or None. Only the set-up is checked: the
    numbers are checked by the core as they are typed (and at `done`)."""
    if not isinstance(record, dict):
        return "not a JSON object (a game record being entered)"
    game = record.get("game", games.GAMES[0])
    if game not in games.GAMES:
        return "game: %s is not a game presstime knows (%s)" % (
            _short(game),
            ", ".join(games.GAMES),
        )
    for field in ("mode", "edition"):
        if field in record and not isinstance(record[field], str):
            return "%s: must be text (got %s)" % (field, _short(record[field]))
    players = record.get("players", [])
    if not isinstance(players, list):
        return "players: must be a list of names (got %s)" % _short(players)
    for i, p in enumerate(players):
        name = p.get("name") if isinstance(p, dict) else p
        if not isinstance(name, str):
            return "players, seat %d: must be a name (got %s)" % (i + 1, _short(p))
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list) or [r for r in rounds if not isinstance(r, dict)]:
        return "rounds: must be a list of objects, one per round (got %s)" % _short(rounds)
    for i, rnd in enumerate(rounds):
        problem = _answers(rnd.get("players", {}), "round %d, players" % (i + 1))
        if problem:
            return problem
        if not isinstance(rnd.get("finish", []), list):
            return "round %d, finish: must be a list of names (got %s)" % (
                i + 1,
                _short(rnd["finish"]),
            )
    problem = _answers({} if record.get("final") is None else record["final"], "final")
    for field in faces.record_answers():
        value = record.get(field)
        if problem is None and isinstance(value, (dict, list)):
            problem = "%s: must be one answer (got %s)" % (field, _short(value))
    for field in faces.board_counted():
        counts = {} if record.get(field) is None else record[field]
        if problem is None and (
            not isinstance(counts, dict)
            or [v for v in counts.values() if isinstance(v, (dict, list))]
        ):
            problem = "%s: must map each name to a number (got %s)" % (field, _short(counts))
    return problem


def _answers(entries, where):
    """Why `entries` ({name: {field: answer}}) is not answers per player, or None."""
    if not isinstance(entries, dict):
        return "%s: must map each name to its numbers (got %s)" % (where, _short(entries))
    for name, entry in entries.items():
        if not isinstance(entry, dict) or [
            v for v in entry.values() if isinstance(v, (dict, list))
        ]:
            return "%s, %s: must map each field to a number (got %s)" % (where, name, _short(entry))
    return None


def _short(value):
    import json

    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def lock_path(db_path: str, key: str) -> str:
    digest = hashlib.sha256(str(key).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return "%s.draft-%s.lock" % (os.path.abspath(db_path), digest)


class DraftLock:
    """Hold draft `key` of the history at `db_path` for this process (a context manager).
    DraftBusy naming the holder's process id when another process holds it. No lock for an
    in-memory history (no other process can see it)."""

    def __init__(self, db_path: str, key: str) -> None:
        self.key = key
        self.path = None if db_path == ":memory:" else lock_path(db_path, key)
        self.fd = None

    def __enter__(self) -> DraftLock:
        import fcntl

        while self.path is not None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as e:
                raise Failure(
                    "cannot lock draft %s (%s): %s" % (self.key, self.path, e.strerror or e)
                )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                raise DraftBusy(
                    "draft %s is open in another presstime (process %s): finish or `quit` it "
                    "there first; nothing was changed" % (self.key, holder or "unknown")
                )
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # its holder released and removed it meanwhile: lock the new file
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, b"%d\n" % os.getpid())
            self.fd = fd
            break
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        if self.fd is not None and self.path is not None:
            try:
                os.unlink(self.path)  # while held: a waiting opener sees the file changed
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None
