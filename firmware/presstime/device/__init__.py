# SPDX-License-Identifier: MIT
# Board-only code: main loop, ports, board pin maps, journal.
