"""A board's journal into the history: pulled (journal), rebuilt into games with the board's own
round machine (rebuild), what cannot be applied kept and named (damage).
"""
