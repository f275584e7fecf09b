"""Pull a board's journal into the local store: idempotent and resumable.

`pull(client, store)` asks for every record after the store's last seq for this board, page by
page; each page is stored in one transaction (the store skips records it has and refuses gaps),
so a pulled cable or a reset mid-sync leaves a clean prefix and the next pull continues from it.
"""

from .core.record_checks import control
from .errors import Failure
from .term import printable


def pull(client, store, progress=None, gone=None):
    """(board_id, records added). `progress(done_seq, board_last_seq)` is called per page.

    A board keeps only its latest games (docs/journal.md, KEEP_BYTES): when the desktop is behind
    what it still has (a new laptop, a fresh --db), the records already gone are skipped and each
    skipped span (first, last) is appended to the list `gone`; everything the board still has
    is taken. Never stuck: the next sync goes on from the last record stored."""
    info = client.hello()
    board_id = str(info.get("id") or info.get("board") or "board")
    if control(board_id) or len(board_id) > 64:
        raise Failure("the board's id %s is not a usable id (at most 64 characters, no control "
                      "characters): nothing was changed" % printable(board_id[:80]))
    have = store.last_seq(board_id)
    board_last = info.get("seq", 0)
    if isinstance(board_last, int) and board_last < have:
        raise Failure(
            "board %s has journal records up to %d but the history already holds %d: "
            "was its journal wiped? (nothing was changed)" % (board_id, board_last, have))
    added = 0
    if progress:
        progress(have, max(board_last, have))
    for page in client.pages(have):
        recs = page["records"]
        if recs:
            skipped = page.get("gone", 0)
            added += store.add_journal(board_id, recs, gone_until=skipped)
            if skipped and gone is not None:
                gone.append((have + 1, skipped))
            have = recs[-1][0]
        if progress:
            progress(have, max(page["last"], have))
    return board_id, added
