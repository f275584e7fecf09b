"""The local history: one SQLite file (store); the one place a game goes into it, whoever
played it (keeping); each game's stored result (results, scoring_version); and what is read out
of it: the selection (select), statistics (stats), CSV and JSON files (csv_rows, game_files),
BG Stats (bgstats), and each game's words for them, read from its faces (game_words).
"""
