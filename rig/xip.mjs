// Loaded into the rig's node before run.mjs (`node --import rig/xip.mjs`, see rig/rp2emu.py):
// the RP2040's XIP cache and the cost of its misses, so that code and constant data fetched from
// the QSPI flash cost what they cost on the silicon. rp2040js 1.4.1 serves every flash read at
// once; on the chip MicroPython runs only gc.c, vm.c, parse.c and libgcc/libc from RAM, the rest
// (runtime, object types, mpz, littlefs, the .mpy loader; CircuitPython likewise) from flash
// through a 16 KB cache.
//
// The cache (RP2040 datasheet 2.6.3): 16 KB, two-way set associative, 8-byte lines (1 024 sets),
// a hit costs nothing beyond the bus cycles rp2040js already charges. The flash aliases:
//   0x10… cached, allocating        0x11… cached, not allocating (a hit is a hit, a miss stays out)
//   0x12… not looked up, allocating 0x13… not looked up, not allocating
// A miss stalls the core for MISS_CYCLES system cycles: one 8-byte line over QSPI in the
// continuous-read mode the Pico's boot stage 2 (boot2_w25q080, SPI clock clk_sys/2) leaves the
// flash in: 24 address + 8 mode bits on four wires (8 SPI clocks), 4 wait clocks, 64 data bits
// (16 clocks) = 28 SPI clocks = 56 system cycles. The way evicted on a miss is the least recently used one (an assumption: the
// datasheet does not say). A flash erase/program/flush (the rig traps the boot ROM's flash
// routines with BKPTs, rig's README) flushes the whole cache, as the SDK's flash_flush_cache
// does; a reset starts cold (a new core). DMA reads of flash are not modelled (the firmware does
// none).
//
// Checked against real-RP2040 figures (bench/bench_rig_calibration.py; docs/benchmarks.md, "The
// rig's timing model", says which agree and why the others do not).
// PRESSTIME_XIP_MISS_CYCLES overrides MISS_CYCLES (to calibrate; never for recorded figures).
// globalThis.presstimeXip gives the counters (hits, misses, stall cycles) for a probe.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const rig = process.env.PRESSTIME_RP2EMU;
const esm = join(rig, 'node_modules', 'rp2040js', 'dist', 'esm');
const { CortexM0Core } = await import(pathToFileURL(join(esm, 'cortex-m0-core.js')).href);
const { RP2040 } = await import(pathToFileURL(join(esm, 'rp2040.js')).href);

export const MISS_CYCLES = Number(process.env.PRESSTIME_XIP_MISS_CYCLES || 56);
const SETS = 1024;               // 16 KB / 8-byte lines / 2 ways
const EMPTY = -1;

export const counters = { hits: 0, misses: 0, uncached: 0, stallCycles: 0, flushes: 0 };
globalThis.presstimeXip = counters;

class XipCache {
  constructor() {
    this.tags = new Int32Array(SETS * 2).fill(EMPTY);  // line number held by way 0 / way 1
    this.lru = new Uint8Array(SETS);                    // the way to evict next
  }

  flush() {
    this.tags.fill(EMPTY);
    this.lru.fill(0);
    counters.flushes += 1;
  }

  /** Stall cycles for a read at `address` (0x10000000-0x13ffffff). */
  access(address) {
    const alias = (address >>> 24) & 3;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    const i = set << 1;
    const tags = this.tags;
    if (alias < 2) {                       // looked up
      if (tags[i] === line) { this.lru[set] = 1; counters.hits += 1; return 0; }
      if (tags[i + 1] === line) { this.lru[set] = 0; counters.hits += 1; return 0; }
    } else {
      counters.uncached += 1;
    }
    if ((alias & 1) === 0) {               // allocating: 0x10 and 0x12
      const way = this.lru[set];
      tags[i + way] = line;
      this.lru[set] = way ^ 1;
    }
    counters.misses += 1;
    counters.stallCycles += MISS_CYCLES;
    return MISS_CYCLES;
  }
}

function cacheOf(core) {
  return core._xipCache || (core._xipCache = new XipCache());
}

const proto = CortexM0Core.prototype;
const { executeInstruction, readUint32, readUint16, readUint8 } = proto;

// flash reads through the core (instruction fetches and loads) charge their misses here
proto.readUint32 = function (address) {
  if ((address >>> 26) === 4) this._xipStall += cacheOf(this).access(address >>> 0);
  return readUint32.call(this, address);
};
proto.readUint16 = function (address) {
  if ((address >>> 26) === 4) this._xipStall += cacheOf(this).access(address >>> 0);
  return readUint16.call(this, address);
};
proto.readUint8 = function (address) {
  if ((address >>> 26) === 4) this._xipStall += cacheOf(this).access(address >>> 0);
  return readUint8.call(this, address);
};

// an instruction takes its own cycles plus the stalls of its flash misses; the harness advances
// the clock (and counts the CPU busy) by what executeInstruction returns
proto.executeInstruction = function () {
  this._xipStall = 0;
  const c = executeInstruction.call(this);
  const stall = this._xipStall;
  if (stall === 0) return c;
  this.cycles += stall;
  return c + stall;
};

// the boot ROM's flash routines (trapped as BKPTs by the rig) end with a cache flush
Object.defineProperty(RP2040.prototype, 'onBreak', {
  configurable: true,
  get() { return this._xipOnBreak; },
  set(handler) {
    this._xipOnBreak = (code) => {
      if (this.core) cacheOf(this.core).flush();
      handler(code);
    };
  },
});
