// Loaded into the rig's node before run.mjs (`node --import rig/oled.mjs`, see rig/rp2emu.py) for
// the MacroPad: records every byte its SH1106 OLED gets on SPI1 (SCK GPIO26, MOSI GPIO27), with
// the levels of the OLED's other wires at that instant: DC (GPIO24: 0 command, 1 data), CS
// (GPIO22, active low) and RESET (GPIO23, active low). CircuitPython's board_init wires them so
// (ports/raspberrypi/boards/adafruit_macropad_rp2040/board.c). rig/oled.py decodes the bytes into
// frames; this module only records, on a Unix socket of its own (PRESSTIME_RIG_OLED_SOCK), one
// JSON object per line each way, like the control channel:
//   {"cmd":"spi","clear":true} -> {"ok":true,"bytes":[[t, byte, flags, ns], ...],"now":ns}
//     t: the instant the byte starts shifting out (the harness timeline, p.now), ns: how long its
//     8 bits take at the bus's SCK; flags: bit 0 DC, bit 1 CS, bit 2 RESET (pad levels). `clear`:
//     the bytes returned are dropped from the record (the next call gives only newer ones).
// Sent only between the control channel's commands (rig/oled.py waits for every reply), so in a
// paused rig it reads the record at exact emulated instants.

import fs from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const rig = process.env.PRESSTIME_RP2EMU;
const path = process.env.PRESSTIME_RIG_OLED_SOCK;
const { Pico } = await import(pathToFileURL(join(rig, 'rp2emu.mjs')).href);

const SPI = 1, DC = 24, CS = 22, RESET = 23;
let pico = null;
let record = [];

const setupSPI = Pico.prototype._setupSPI;
Pico.prototype._setupSPI = function () {
  setupSPI.call(this);            // (at every boot: the harness's timed frames)
  pico = this;
  const spi = this.mcu.spi[SPI];
  const onTransmit = spi.onTransmit;
  const lv = this._level;         // pad levels, kept current by the harness (_updatePin)
  spi.onTransmit = (v) => {
    const f = spi.clockFrequency;
    const ns = f ? Math.max(1, Math.round(spi.dataBits * 1e9 / f)) : 0;
    record.push([this.now, v & 0xff, (lv[DC] ? 1 : 0) | (lv[CS] ? 2 : 0) | (lv[RESET] ? 4 : 0), ns]);
    onTransmit(v);
  };
};

const handlers = {
  spi: (m) => {
    const bytes = record;
    if (m.clear) record = [];
    return { bytes, now: pico.now };
  },
};

if (path) {
  try { fs.unlinkSync(path); } catch { /* not there */ }
  const server = net.createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('error', () => {});
    sock.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (!line) continue;
        let reply;
        try {
          const m = JSON.parse(line);
          const h = handlers[m.cmd];
          if (!h) throw new Error(`unknown cmd ${JSON.stringify(m.cmd)}; known: spi`);
          if (!pico) throw new Error('the board is not up yet');
          reply = { ok: true, ...h(m) };
        } catch (e) {
          reply = { ok: false, error: e.message };
        }
        sock.write(JSON.stringify(reply) + '\n');
      }
    });
  });
  server.listen(path);
  server.unref();                 // run.mjs decides when the process ends
}
