// Loaded into the rig's node before run.mjs (`node --import rig/datalink.mjs`, see rig/rp2emu.py)
// for the MacroPad: its link is CircuitPython's usb_cdc.data, the second USB serial port, which
// run.mjs offers only as a pty (socat, wall time). This module serves it on a Unix socket of its
// own (PRESSTIME_RIG_DATA_SOCK), one JSON object per line each way, like the control channel:
//   {"cmd":"write","hex":"…"}  -> {"ok":true,"now":ns}    bytes queued for the board at `now`
//   {"cmd":"read"}             -> {"ok":true,"data":"…latin1","now":ns}   what it sent since
// The driver sends these only between the control channel's commands (rig/transport.py waits for
// every reply), so in a paused rig a request lands, and its reply is read, at exact emulated
// instants: the MacroPad's link runs in emulated time as the Pico's console link does.

import fs from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const rig = process.env.PRESSTIME_RP2EMU;
const path = process.env.PRESSTIME_RIG_DATA_SOCK;
// the class run.mjs imports (same module URL, so the same class)
const { Pico } = await import(pathToFileURL(join(rig, 'rp2emu.mjs')).href);

let pico = null;
let readPos = 0;
const setupCDC = Pico.prototype._setupCDC;
Pico.prototype._setupCDC = function () {
  setupCDC.call(this);            // (at every boot; dataOut is kept across resets)
  pico = this;
};

const handlers = {
  write: (m) => { pico.writeData(Buffer.from(String(m.hex), 'hex')); return { now: pico.now }; },
  read: () => {
    const out = pico.dataOut ?? '';
    const data = out.slice(readPos);
    readPos = out.length;
    return { data, now: pico.now };
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
          if (!h) throw new Error(`unknown cmd ${JSON.stringify(m.cmd)}; known: write read`);
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
