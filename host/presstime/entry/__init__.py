"""Typing a game's numbers: the one entry engine of every game (engine.py `Entry`, started by
start.py; `enter`, the scoring step of `play`, what the scorepad's phones leave), the commands it
takes (commands.py) and the scores it shows as they are typed (score_lines.py), how the game's
face says its questions are walked (walk_style.py), what the engine's helpers see of it
(walker.py), a record's rounds (rounds.py), what an answer
is (answers.py), and the drafts that keep what was typed (drafts.py).
"""
