# Fake `terminalio`: FONT like CircuitPython's built-in one (6 x 12 cells, the printable ASCII
# from tile 0, as the rig reads it from the board: rig/terminalio_font.txt).


class _Glyph:
    def __init__(self, tile_index):
        self.tile_index = tile_index


class _Font:
    bitmap = "terminalio-font-bitmap"

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, code):
        if 32 <= code < 127:
            return _Glyph(code - 32)
        return None


FONT = _Font()
