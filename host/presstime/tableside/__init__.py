"""What the players at the table see and type while a game runs (`play`, `watch`, `sim`): the
board's status in words (status_text) and on a full screen (display, bigfont), the keys
(keyboard), the round's screen (round_screen), sounds, the final standings, and the play
session itself.
"""
