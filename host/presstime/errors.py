"""Errors the CLI turns into a message and an exit status (no traceback)."""

from __future__ import annotations


class BadInput(Exception):
    """The user's input is wrong (exit status 2). Carries one message per problem."""

    def __init__(self, messages: str | list[str]) -> None:
        if isinstance(messages, str):
            messages = [messages]
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


class Failure(Exception):
    """Something outside the user's input failed: a board, a port, a file system (exit status 1)."""
