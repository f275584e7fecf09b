"""The scorepad's command-line options (a light module: the web server loads only when used)."""

LOOPBACK = "127.0.0.1"


def add_arguments(parser):
    parser.add_argument("--scorepad", action="store_true",
                        help="each player types their own numbers on their phone: a page on the local "
                             "network (a URL and a QR code are shown; its /screen page is for a big screen)")
    parser.add_argument("--bind", metavar="ADDR", default=LOOPBACK,
                        help="the address the scorepad listens on (default 127.0.0.1: this computer only; "
                             "give this computer's LAN address so the players' phones can reach it)")
    parser.add_argument("--scorepad-port", type=int, default=0, metavar="N",
                        help="the scorepad's TCP port (default: any free port)")
