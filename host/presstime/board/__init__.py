"""The desktop's end of a board, USB or simulated: finding it (ports), talking to it (link,
status_check), sharing it between presstime processes (share), installing the firmware
(deploy, drive_copy).
"""
