"""Pull a board's journal into the local store: idempotent and resumable.

`pull(client, store)` asks for every record after the store's last seq for this board, page by
page; each page is stored in one transaction (the store skips records it has and refuses gaps),
so a pulled cable or a reset mid-sync leaves a clean prefix and the next pull continues from it.
"""

from .errors import Failure


def pull(client, store, progress=None):
    """(board_id, records added). `progress(done_seq, board_last_seq)` is called per page."""
    info = client.hello()
    board_id = str(info.get("id") or info.get("board") or "board")
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
            added += store.add_journal(board_id, recs)
            have = recs[-1][0]
        if progress:
            progress(have, max(page["last"], have))
    return board_id, added
