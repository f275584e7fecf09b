"""One version: the firmware a board reports (hello's `fw`), the desktop package, mip's
package.json."""

import json
import os
import re

import presstime
from mpy import FIRMWARE, ROOT


def test_firmware_desktop_and_mip_versions_agree():
    with open(os.path.join(FIRMWARE, "presstime", "__init__.py")) as f:
        firmware = re.search(r'__version__ = "([^"]+)"', f.read()).group(1)
    with open(os.path.join(ROOT, "package.json")) as f:
        mip = json.load(f)["version"]
    assert firmware == presstime.__version__ == mip
