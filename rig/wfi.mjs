// Loaded into the rig's node before run.mjs (`node --import rig/wfi.mjs`, see rig/rp2emu.py):
// makes the emulated Cortex-M0+ leave WFI at once when an enabled interrupt is already pending,
// as the silicon does (ARMv6-M: WFI completes when an exception that would preempt, PRIMASK
// aside, is pending).
//
// rp2040js 1.4.1 only wakes a WFI for an interrupt that becomes pending while it waits. An
// interrupt that became pending just before, while PRIMASK masked it, left the core asleep until
// some other interrupt arrived. CircuitPython's idle (ports/raspberrypi/supervisor/port.c,
// port_idle_until_interrupt: cpsid, check its flags, WFI, cpsie) hits that window whenever its
// 1 ms tick alarm fires between the cpsid and the WFI: on the rig the MacroPad then slept until
// the next USB transfer (seconds), and keypad, which scans from that tick, missed every press
// meanwhile. docs/real-firmware.md, "The rig itself".
//
// The rig's folder comes from PRESSTIME_RP2EMU (set by rig/rp2emu.py for the child process);
// the patched class is the one run.mjs's own import of rp2040js loads (same module URL).

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const rig = process.env.PRESSTIME_RP2EMU;
const url = pathToFileURL(join(rig, 'node_modules', 'rp2040js', 'dist', 'esm', 'cortex-m0-core.js'));
const { CortexM0Core } = await import(url.href);

const WFI = 0xbf30;

Object.defineProperty(CortexM0Core.prototype, 'waiting', {
  configurable: true,
  get() { return this._waiting; },
  set(v) {
    // executeInstruction sets waiting after it has moved PC past the WFI/WFE
    if (v && !this._waiting && this.IPSR === 0 && this.rp2040
        && this.readUint16((this.PC & ~1) - 2) === WFI
        && ((this.pendingInterrupts & this.enabledInterrupts) !== 0
            || this.pendingSystick || this.pendingPendSV)) {
      v = false;
      wakes.n += 1;
    }
    this._waiting = v;
  },
});

export const wakes = { n: 0 };
