# SPDX-License-Identifier: MIT
# The shared core: pure, integers only, no I/O, no clock. Runs on MicroPython and CPython.
