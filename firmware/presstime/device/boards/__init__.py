# SPDX-License-Identifier: MIT
# Board pin maps as data: one small module per board, read by the ports and quoted by hardware/.
