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
//   {"cmd":"i2c","clear":true} -> {"ok":true,"events":[[t, kind, value], ...],"now":ns}
//     The Pico build's SSD1306 on I2C (either controller): kind "S" a start (value 1 on a
//     repeated start), "A" the address byte (value: address << 1 | read), "W" a byte written,
//     "P" a stop; t the instant it finished on the bus. The rig answers as an SSD1306 at 0x3C
//     does: it acknowledges its address (writes only) and every byte written to it; every other
//     address is not acknowledged, as on a bus without that device. Each byte takes 9 SCL
//     periods of emulated time (SCL from the controller's own HCNT/LCNT and clk_sys), so a
//     frame takes the time it takes on the wire.
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
const SSD1306 = 0x3c;
let pico = null;
let record = [];
let i2cRecord = [];

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

// the Pico build's OLED: an SSD1306 answering at 0x3C on either I2C controller
const setupPins = Pico.prototype._setupPins;
Pico.prototype._setupPins = function () {
  setupPins.call(this);           // (at every boot, before _setupSPI)
  const clock = this.mcu.clock;
  for (const i2c of this.mcu.i2c) {
    let next = null;
    const alarm = clock.createAlarm(() => { const f = next; next = null; f?.(); });
    // 9 SCL periods (8 bits + ack); SCL period = (HCNT + LCNT) sys clocks (clk_peri = clk_sys)
    const byteNs = () => Math.max(1, Math.round(9 * (i2c.sclHighPeriod + i2c.sclLowPeriod) * this.cycleNs));
    const later = (ns, f) => { next = f; alarm.schedule(ns); };
    let ours = false;
    i2c.onStart = (restart) => {
      i2cRecord.push([this.now, 'S', restart ? 1 : 0]);
      i2c.completeStart();
    };
    i2c.onConnect = (addr, mode) => {
      ours = addr === SSD1306 && !mode;  // mode 0: write
      later(byteNs(), () => {
        i2cRecord.push([this.now, 'A', (addr << 1) | (mode ? 1 : 0)]);
        i2c.completeConnect(ours);
      });
    };
    i2c.onWriteByte = (v) => {
      later(byteNs(), () => {
        if (ours) i2cRecord.push([this.now, 'W', v & 0xff]);
        i2c.completeWrite(ours);
      });
    };
    i2c.onStop = () => {
      i2cRecord.push([this.now, 'P', 0]);
      ours = false;
      i2c.completeStop();
    };
  }
};

const handlers = {
  i2c: (m) => {
    const events = i2cRecord;
    if (m.clear) i2cRecord = [];
    return { events, now: pico.now };
  },
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
          if (!h) throw new Error(`unknown cmd ${JSON.stringify(m.cmd)}; known: spi i2c`);
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
