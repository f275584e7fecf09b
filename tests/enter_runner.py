"""`presstime enter` run in-process on scripted answers (tests of the entry)."""

import argparse

from presstime.commands import enter


def run_enter(argv, answers, db, echo_prompts=False):
    """enter.run(argv + --db db) answering from `answers` (EOF after the last); returns (exit
    code, what it said joined by lines; with echo_prompts, each prompt and its answer too)."""
    parser = argparse.ArgumentParser()
    enter.configure(parser)
    said = []
    feed = iter(answers)

    def ask(prompt):
        try:
            answer = next(feed)
        except StopIteration:
            raise EOFError
        if echo_prompts:
            said.append(prompt + answer)
        return answer

    code = enter.run(parser.parse_args(argv + ["--db", db]), ask=ask, say=said.append)
    return code, "\n".join(said)
