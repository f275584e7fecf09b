# Fake `displayio`: Group, Palette, and a TileGrid that records every tile set.
CIRCUITPYTHON_TERMINAL = "console"


class Palette:
    def __init__(self, n):
        self.colours = [0] * n

    def __setitem__(self, i, v):
        self.colours[i] = v


class Group:
    def __init__(self):
        self.items = []

    def append(self, item):
        self.items.append(item)


class TileGrid:
    def __init__(
        self,
        bitmap,
        pixel_shader=None,
        width=1,
        height=1,
        tile_width=None,
        tile_height=None,
        default_tile=0,
        x=0,
        y=0,
    ):
        self.bitmap = bitmap
        self.width = width
        self.height = height
        self.tile_size = (tile_width, tile_height)
        self.tiles = [default_tile] * (width * height)
        self.sets = 0

    def __setitem__(self, xy, tile):
        x, y = xy
        self.tiles[y * self.width + x] = tile
        self.sets += 1
