# SPDX-License-Identifier: MIT
# presstime on the board: core/ (shared with the desktop) and device/ (board only).
__version__ = "0.1.0"
