"""The scorepad on the local network: every player types their own numbers on their phone.

    questions.py  what each seat is asked in a round, and the core's verdict on one answer
    session.py    one game's scorepad: seats, submissions, corrections, closing a round
    server.py     the web server (Starlette on uvicorn, in a thread): pages, JSON API, live events
    static/       the phone page and the big-screen page (served locally; nothing from a CDN)

Nothing here knows a rule: which numbers a round needs and which values are possible are the
core's answers (through the entry's questions); a closed round is scored by the core.
"""
