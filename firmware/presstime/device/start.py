# SPDX-License-Identifier: MIT
"""Start the table app the way every board does (main.py, code.py, and the heap benchmark).

    app = start(port)                  # the journal on port.journal_path(), else in RAM
    app = start(port, journal, config) # a given journal (the benchmark's, a test's)

Returns the App with the serial Link attached (app.link; None on a stripped board without
link.py). The order is a memory decision (docs/benchmarks.md, Firmware): the link's 2 KB reply
buffer is made first, while the heap still has a 2 KB hole, and the big modules are imported
one at a time with a gc.collect() between them where it counts, so each module's code fills
the holes the previous import's garbage left instead of scattering through the heap. Measured
under the unix port this order alone saves 8 KB of heap. A collect costs 3.6 ms on the RP2040
(the sweep of the whole 240 KB heap): the ones kept are those whose removal, each alone, took
firmware_min_heap_kb from 96 to 100; the four without effect went (2026-11-24, boot time).
"""

import gc


def start(port, journal=None, config=None):
    gc.collect()
    from ..core.framing import Frame
    frame = Frame.board()       # the link's reply buffer, first (version 2 frames)
    from ..core import table    # noqa: F401 (the biggest module)
    from ..core import lights   # noqa: F401
    gc.collect()
    from .app import App
    if journal is None:
        path = port.journal_path()
        if path:
            from .journal import Journal
            journal = Journal(path)
        else:
            from .ports.ram_journal import RamJournal
            journal = RamJournal()
        gc.collect()
    try:
        from .link import Link
        from . import status_reply  # noqa: F401
    except ImportError:         # a board package without the link
        Link = None
    gc.collect()
    app = App(port, journal, config)
    if Link is not None:
        app.link = Link(app, port, journal, frame)
    gc.collect()
    return app
