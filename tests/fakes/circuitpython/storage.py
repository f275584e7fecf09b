# Fake `storage`: the drive starts read-only to code (CircuitPython's default).
readonly = True
calls = []


class _Mount:
    @property
    def readonly(self):
        return readonly


def getmount(path):
    return _Mount()


def remount(path, readonly=False):
    globals()["readonly"] = readonly
    calls.append((path, readonly))
