"""Pull a board's journal into the local store: idempotent and resumable.

`pull(client, store)` asks for every record after the store's last seq for this board, page by
page; each page is stored in one transaction (the store skips records it has and refuses gaps),
so a pulled cable or a reset mid-sync leaves a clean prefix and the next pull continues from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from presstime.core.record_checks import control, is_int
from presstime.errors import BadInput, Failure
from presstime.term import printable

if TYPE_CHECKING:
    from presstime.board.link import BoardClient
    from presstime.history.store import Store


def pull(
    client: BoardClient,
    store: Store,
    progress: Callable[[int, int], None] | None = None,
    gone: list[tuple[int, int]] | None = None,
) -> tuple[str, int]:
    """(board_id, records added). `progress(done_seq, board_last_seq)` is called per page.

    A board keeps only its latest games (docs/journal.md, KEEP_BYTES): when the desktop is behind
    what it still has (a new laptop, a fresh --db), the records already gone are skipped and each
    skipped span (first, last) is appended to the list `gone`; everything the board still has
    is taken. Never stuck: the next sync goes on from the last record stored."""
    info = client.hello()
    board_id = str(info.get("id") or info.get("board") or "board")
    if control(board_id) or len(board_id) > 64:
        raise Failure(
            "the board's id %s is not a usable id (at most 64 characters, no control "
            "characters): nothing was changed" % printable(board_id[:80])
        )
    have = store.last_seq(board_id)
    board_last = info.get("seq", 0)
    if not is_int(board_last) or board_last < 0:
        raise BadInput(
            "the board's hello gives its last record as %s, not a whole number: nothing was "
            "changed (is it a presstime board?)" % printable(json.dumps(board_last)[:40])
        )
    if board_last < have:
        raise Failure(
            "board %s has journal records up to %d but the history already holds %d: "
            "was its journal wiped? (nothing was changed)" % (board_id, board_last, have)
        )
    added = 0
    if progress:
        progress(have, max(board_last, have))
    first_page = True
    for page in client.pages(have):
        recs = page["records"]
        if recs:
            skipped = page.get("gone", 0)
            if skipped and not first_page:
                raise Failure(
                    "board %s skipped records %d-%d in the middle of the sync (a board drops old "
                    "records only when a game is set up, never during a sync): the %d records "
                    "before them are stored, nothing after them; run `presstime sync` again"
                    % (printable(board_id), have + 1, skipped, added)
                )
            added += store.add_journal(board_id, recs, gone_until=skipped)
            if skipped and gone is not None:
                gone.append((have + 1, skipped))
            have = recs[-1][0]
        first_page = False
        if progress:
            progress(have, max(page["last"], have))
    return board_id, added
