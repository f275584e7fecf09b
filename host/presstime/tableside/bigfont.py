"""Big digits for the table view: a 5-row block font of digits, ':', '/' and '-', drawn with
full-block characters, each font pixel two cells wide (terminal cells are about twice as tall as
wide) and `scale` times larger on a terminal with room for it."""

from __future__ import annotations

_FONT = {
    "0": ("###", "# #", "# #", "# #", "###"),
    "1": (" # ", "## ", " # ", " # ", "###"),
    "2": ("###", "  #", "###", "#  ", "###"),
    "3": ("###", "  #", " ##", "  #", "###"),
    "4": ("# #", "# #", "###", "  #", "  #"),
    "5": ("###", "#  ", "###", "  #", "###"),
    "6": ("###", "#  ", "###", "# #", "###"),
    "7": ("###", "  #", "  #", "  #", "  #"),
    "8": ("###", "# #", "###", "# #", "###"),
    "9": ("###", "# #", "###", "  #", "###"),
    ":": (" ", "#", " ", "#", " "),
    "/": ("  #", "  #", " # ", "#  ", "#  "),
    "-": ("   ", "   ", "###", "   ", "   "),
    " ": (" ", " ", " ", " ", " "),
}
BIG_ROWS = 5


def big_lines(text: str, scale: int = 1) -> list[str]:
    """`text` (digits, ':', '/', '-') in the block font: 5 * scale strings of equal width."""
    rows = ["", "", "", "", ""]
    on, off = "\u2588\u2588" * scale, "  " * scale
    for n, ch in enumerate(text):
        glyph = _FONT.get(ch, _FONT[" "])
        for r in range(BIG_ROWS):
            rows[r] += (off if n else "") + glyph[r].replace("#", "\0").replace(" ", off).replace(
                "\0", on
            )
    return [row for row in rows for _ in range(scale)]


def big_width(text: str, scale: int = 1) -> int:
    return len(big_lines(text, scale)[0])
