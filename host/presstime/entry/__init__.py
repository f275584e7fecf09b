"""Typing a game's numbers: the entry engines (`enter`, the scoring step of `play`, what the
scorepad's phones leave) and the drafts that keep what was typed.
"""
