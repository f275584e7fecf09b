# SPDX-License-Identifier: MIT
"""The board's identity (docs/protocol.md, hello), loaded by Link.board_id() when the link
starts (a young heap has room for it) and dropped from RAM after: no bytecode of it while a
round runs."""


def board_id(port, j):
    """One id, one journal sequence (docs/protocol.md, hello): the port's `uid` (else the board
    name and the chip's unique id) with a random part, kept in `<journal>.id` beside the journal
    for as long as the journal lives. A restarted board (or simulator) on its journal keeps its
    id, a new journal gets a new one; an emulated Pico's unique id reads all zeros, so the chip
    alone does not tell boards apart. A journal with records from before ids were kept, on a chip
    with a real unique id, keeps that id (the desktop knows it under it). A journal that is not
    on a file system (MemJournal): the uid alone.

    The kept id itself is read by the caller, Link.board_id() (device/link.py: without importing
    this module, ~15 ms of a boot): this is called when there is none to read."""
    uid = getattr(port, "uid", None)
    if callable(uid):
        uid = uid()
    if not uid:
        uid = "%s-%s" % (getattr(port, "board", "board"), _chip_id())
    path = getattr(j, "path", None)
    if not path:
        return uid
    path += ".id"
    used = j.last_seq > 0
    tail = uid[uid.rfind("-") + 1:] if "-" in uid else ""
    if not (used and tail.strip("0")):
        import os
        uid = "%s-%s" % (uid, "".join(["%02x" % b for b in os.urandom(4)]))
    try:
        with open(path, "w") as f:
            f.write(uid)
    except OSError:
        pass        # a drive the code cannot write: the id lasts until the next boot
    return uid


def _chip_id():
    """Hex of the chip's unique id (MicroPython machine.unique_id, CircuitPython cpu.uid)."""
    raw = None
    try:
        import machine
        raw = machine.unique_id()
    except (ImportError, AttributeError, OSError):
        try:
            import microcontroller
            raw = microcontroller.cpu.uid
        except (ImportError, AttributeError):
            raw = None
    if not raw:
        return "0"
    return "".join(["%02x" % b for b in raw])
