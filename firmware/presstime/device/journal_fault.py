# SPDX-License-Identifier: MIT
"""When a journal write failed (docs/journal.md, "When a write fails"): loaded only then.

App._write keeps the batch it could not write in RAM (`app._pending`) and notes
`app._fault = [journal last_seq before the batch, port ms of the next try]`; the lights blink the
warning. `retry(app)` runs from then on instead of the plain write, every RETRY_MS: it lets the
journal recover first (a torn tail dropped), drops from the batch the records that did reach
the flash before the failure (never written twice), then writes the rest. Once a write works,
the fault is over. New events keep joining `app._pending` meanwhile: nothing accepted is lost.
"""

RETRY_MS = 2000


def retry(app):
    fault = app._fault
    port = app.port
    if port.now_ms() - fault[1] < 0:
        return
    j = app.journal
    payloads = app._pending
    many = getattr(j, "append_many", None)
    try:
        if many is not None:
            many(())            # the journal's recovery of the failed write; nothing new
        done = j.last_seq - fault[0]
        if done > 0:
            del payloads[:done]     # these reached the flash before the failure
        fault[0] = j.last_seq
        if many is not None:
            many(payloads)
        else:
            while payloads:
                j.append(payloads[0])
                payloads.pop(0)
                fault[0] = j.last_seq
    except (OSError, ValueError):
        fault[1] = port.now_ms() + RETRY_MS
        return
    app._pending = []
    app._fault = None
    app._key = None             # the warning off at once
