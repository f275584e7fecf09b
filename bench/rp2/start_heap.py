"""Free heap on the emulated Pico (official firmware, paused rig) right after the app starts:
bench/rp2/app_probe.py's setup() (ports/rp2.py, device/start.py, a game configured) and heap()
(gc.collect(), gc.mem_free(), the largest bytearray that fits), then 16 s of the app's loop and
a sync, as bench_rp2_press.heap_figures does for each of its games.

    PRESSTIME_RP2EMU=DIR python bench/rp2/start_heap.py
prints "AFTER_START HEAP <free> <largest block>" and "AFTER_16S PHASE <p> SYNC <bytes> HEAP ...".
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from rig.pico import EmulatedPico             # noqa: E402

import bench_rp2_press as B                     # noqa: E402


def main():
    rig, image = B.rig_image("start_heap")
    if rig is None:
        return 2
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        B._app(pico, step_slots=16)
        print("AFTER_START", B._exec(pico, "setup(%r)\nprint('HEAP', *heap())" % (B._cfg(),)).strip())
        out = B._exec(pico, "run(16000, control=True)\n"
                            "print('PHASE', app.table.phase, 'SYNC', sync(), 'HEAP', *heap())")
        print("AFTER_16S", out.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
