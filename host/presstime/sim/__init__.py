"""The simulated board: the firmware's own App loop under CPython, in this terminal (terminal:
`presstime sim`) or headless behind a pseudo-terminal (headless: `play --demo`, the tests).
"""
