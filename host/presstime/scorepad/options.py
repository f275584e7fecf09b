"""The scorepad's command-line options (a light module: the web server loads only when used)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.errors import BadInput

if TYPE_CHECKING:
    import argparse

LOOPBACK = "127.0.0.1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scorepad",
        action="store_true",
        help="each player types their own numbers on their phone: a page on the local "
        "network (a URL and a QR code are shown; its /screen page is for a big screen)",
    )
    parser.add_argument(
        "--bind",
        metavar="ADDR",
        default=LOOPBACK,
        help="the address the scorepad listens on: 127.0.0.1 (default: this computer only), "
        "`lan` (this computer's address on its local network, for the players' phones), "
        "0.0.0.0 (every address: the links printed are this computer's addresses), "
        "or one of this computer's addresses",
    )
    parser.add_argument(
        "--scorepad-port",
        type=int,
        default=0,
        metavar="N",
        help="the scorepad's TCP port (default: any free port)",
    )


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (not loopback), from its interfaces."""
    import ipaddress

    import ifaddr

    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                a = ipaddress.ip_address(ip.ip)
                if not a.is_loopback and not a.is_link_local and ip.ip not in out:
                    out.append(ip.ip)
    return out


def resolve_bind(text: str) -> str:
    """The address to listen on for --bind (`lan`: the first local-network address); BadInput
    naming the choices when there is none or the address is not this computer's."""
    import ipaddress

    choices = lan_addresses()
    if text == "lan":
        private = [a for a in choices if ipaddress.ip_address(a).is_private] or choices
        if not private:
            raise BadInput(
                "--bind lan: this computer has no address on a local network (use 127.0.0.1)"
            )
        return private[0]
    try:
        a = ipaddress.ip_address(text)
    except ValueError:
        raise BadInput(
            "--bind %r: not an IP address (choices: 127.0.0.1, lan, %s)"
            % (text, ", ".join(choices) or "no network address found")
        )
    if not a.is_loopback and not a.is_unspecified and text not in choices:
        raise BadInput(
            "--bind %s: not an address of this computer (choices: 127.0.0.1, lan, %s)"
            % (text, ", ".join(choices) or "no network address found")
        )
    return text
