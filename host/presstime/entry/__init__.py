"""Typing a game's numbers: the one entry engine of every game (engine.py `Entry`, started by
start.py; `enter`, the scoring step of `play`, what the scorepad's phones leave), how its face
says its questions are walked (rounds.py, fields.py), what an answer is (answers.py), and the
drafts that keep what was typed (drafts.py).
"""
