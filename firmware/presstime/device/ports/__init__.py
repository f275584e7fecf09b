# SPDX-License-Identifier: MIT
# One thin adapter per platform (see ../port.py for the contract).
