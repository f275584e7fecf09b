// presstime phone scorepad: pick your seat, type your own numbers, see your round score
"use strict";
const KEY = "presstime:" + SECRET;
let state = null, seat = null, token = null, round = null, mine = null;
let restored = false;     // the form shows numbers typed before (a reload, a restarted desktop side)

function store() { try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; } }
function remember(patch) { localStorage.setItem(KEY, JSON.stringify(Object.assign(store(), patch))); }

async function call(path, body) {
  const opts = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                             headers: {"Content-Type": "application/json"}};
  if (token) opts.headers = Object.assign(opts.headers || {}, {"X-Seat-Token": token});
  let r;
  try { r = await fetch(API + path, opts); }
  catch (e) { return {status: 0, data: {error: "the scorepad cannot be reached"}}; }   // no connection
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: "the server answered " + r.status}; }
  return {status: r.status, data};
}

function say(text, cls) {
  const p = document.getElementById("status");
  p.textContent = text || ""; p.className = cls || "note";
}

async function claim(s) {
  const saved = store();
  const r = await call("claim", {seat: s, token: saved.seat === s ? saved.token : null});
  if (r.status !== 200) { say(r.data.error || "that seat is not free", "warn"); return; }
  seat = s; token = r.data.token; remember({seat, token});
  await refresh();
}

function showSeats(st) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  for (const p of st.players) {
    const b = el("button", {type: "button", "data-seat": p.seat}, "Seat " + (p.seat + 1) + " · " + p.name);
    if (p.claimed) b.disabled = true;
    b.onclick = () => claim(p.seat);
    box.append(b);
  }
  document.getElementById("pick").hidden = false;
  document.getElementById("pad").hidden = true;
}

// a round's typed numbers are kept under the round's name (not a counter of this server's), so
// a desktop side that restarts with the same link finds them again
function draftKey() { return (state ? state.round_title : "") + ":s" + seat; }

function showPad(st, mine) {
  document.getElementById("pick").hidden = true;
  document.getElementById("pad").hidden = false;
  document.getElementById("who").textContent = mine.name + " · " + st.round_title;
  const form = document.getElementById("form");
  const drafts = store().drafts || {};
  const draft = drafts[draftKey()] || {};
  const sent = JSON.stringify(mine.values);
  if (form.dataset.round !== String(st.opened) || form.dataset.seat !== String(seat)) {
    form.replaceChildren();
    form.dataset.round = st.opened; form.dataset.seat = seat; form.dataset.sent = sent;
    restored = Object.keys(draft).length > 0 && draftDiffers(draft, mine.values);
    for (const q of mine.questions) {
      const box = el("div", {class: "q"});
      const id = "f-" + q.field;
      box.append(el("label", {for: id}, q.label));
      const row = el("div", {class: "row"});
      const input = el("input", {id, name: q.field, type: "text", inputmode: "numeric",
                                 pattern: "-?[0-9]*", enterkeyhint: "next", autocomplete: "off"});
      const v = q.field in draft ? draft[q.field] : (q.field in mine.values ? mine.values[q.field] : "");
      input.value = v;
      input.oninput = () => saveDraft();
      const sign = el("button", {type: "button", class: "sign", "aria-label": "minus"}, "±");
      sign.onclick = () => {
        input.value = input.value.startsWith("-") ? input.value.slice(1) : "-" + input.value;
        saveDraft();
      };
      row.append(input, sign);
      box.append(row, el("div", {class: "err", id: "e-" + q.field}));
      form.append(box);
    }
  }
  else if (form.dataset.sent !== sent) {
    // accepted numbers changed elsewhere (another tab of this seat): the form shows them
    form.dataset.sent = sent;
    for (const input of form.querySelectorAll("input"))
      if (input.name in mine.values) input.value = mine.values[input.name];
    saveDraft();
  }
  document.getElementById("send").disabled = !st.open;
  const pv = document.getElementById("preview");
  if (!st.open) pv.textContent = "This round is closed.";
  else if (mine.preview) pv.textContent = "Submitted · " + mine.preview + " · you can still correct it until the round closes.";
  else pv.textContent = "";
}

function draftDiffers(draft, values) {
  return Object.keys(draft).some((k) => draft[k] !== "" && String(values[k]) !== String(draft[k]));
}

function saveDraft() {
  const form = document.getElementById("form");
  const values = {};
  for (const input of form.querySelectorAll("input")) values[input.name] = input.value;
  const drafts = store().drafts || {};
  drafts[draftKey()] = values;
  remember({drafts});
}

async function send() {
  const form = document.getElementById("form");
  const values = {};
  let bad = false;
  for (const input of form.querySelectorAll("input")) {
    const t = input.value.trim();
    const err = document.getElementById("e-" + input.name);
    if (!/^-?[0-9]+$/.test(t)) {
      err.textContent = t === "" ? "type a number" : "a whole number, please";
      input.classList.add("bad"); bad = true;
    } else {
      values[input.name] = parseInt(t, 10);
    }
  }
  if (bad) return;
  remember({pending: {key: draftKey(), seat, values}});     // sent again until it arrives
  await sendPending();
}

let retry = null, retryMs = 1000;
async function sendPending() {
  // the numbers waiting to be sent (kept in the phone's storage: a reload, a sleeping phone or a
  // restarted desktop side sends them again); a failure is said and retried with a back-off
  clearTimeout(retry); retry = null;
  const pending = store().pending;
  if (!pending || pending.seat !== seat || !token) return;
  const values = pending.values;
  const form = document.getElementById("form");
  const r = await call("submit", {seat, values});
  if (r.status === 0 || r.status === 429 || r.status >= 502) {     // no answer, or busy
    say("Not sent: " + (r.status === 0 ? "no connection to the scorepad" : (r.data.error || "the scorepad is busy")) +
        ". Your numbers are kept and sent again as soon as it answers…", "warn");
    retry = setTimeout(sendPending, retryMs);
    retryMs = Math.min(retryMs * 2, 8000);
    return;
  }
  retryMs = 1000;
  remember({pending: null});
  for (const input of form.querySelectorAll("input")) {
    input.classList.remove("bad");
    document.getElementById("e-" + input.name).textContent = "";
  }
  if (r.status === 422) {
    for (const f in r.data.errors) {
      const input = form.querySelector("[name='" + f + "']");
      if (input) input.classList.add("bad");
      const err = document.getElementById("e-" + f);
      if (err) err.textContent = r.data.errors[f];
    }
    say("Some numbers are not possible: see below.", "warn");
    return;
  }
  if (r.status === 409 && pending.key !== draftKey()) return;       // an old round's: gone
  if (r.status !== 200) { say("Not sent: " + (r.data.error || "refused") + (r.status === 409 ?
      " (tell the host your numbers)" : ""), "warn"); return; }
  say("Sent.");
  await refresh();
}

function showTable(st) {
  const ul = document.getElementById("table");
  ul.replaceChildren();
  for (const p of st.players) {
    if (!p.asked) continue;
    ul.append(el("li", {class: p.submitted ? "done" : "counting"},
                 p.name + (p.submitted ? "" : (st.open ? " is still counting" : " (not in)"))));
  }
  document.getElementById("standings").hidden = !standingsTable(document.getElementById("stand"), st.standings);
  bgstatsBox(document.getElementById("bgstats"), st.standings);
}

let asked = 0;          // refreshes asked: only the latest one's answer is shown
async function refresh() {
  const n = ++asked;
  const q = seat !== null ? "?seat=" + seat : "";
  const r = await call("state" + q);
  if (n !== asked) return;    // a later refresh is on its way: its answer is the newer state
  if (r.status === 429 || r.status >= 500) {           // busy: try again shortly
    setTimeout(refresh, 500 + Math.random() * 500);
    return;
  }
  if (r.status !== 200) { say("This link is not valid (ask the host for the QR code again).", "warn"); return; }
  mine = r.data.mine || null;
  render(r.data);
}

function heard(st) {
  // a change from the live stream: this seat's own part is read again only when it can differ
  const before = state;
  if (seat === null || !mine || !before || before.opened !== st.opened || before.open !== st.open ||
      (before.players[seat] || {}).submitted !== (st.players[seat] || {}).submitted) {
    state = st;
    refresh();
    return;
  }
  st.mine = mine;
  render(st);
}

function render(st) {
  state = st; round = st.round;
  document.getElementById("title").textContent = st.title + (st.round_title ? " · " + st.round_title : "");
  showTable(st);
  if (st.standings && st.standings.complete && !st.open) {     // the game is over: its result, BG Stats
    document.getElementById("pad").hidden = true; document.getElementById("pick").hidden = true;
    say("The game is over" + (st.standings.winners.length ? ": " + st.standings.winners.join(", ") +
        (st.standings.winners.length > 1 ? " share the win." : " wins.") : "."));
    return;
  }
  if (seat === null) { showSeats(st); say("Tap your seat."); return; }
  if (!st.mine) {
    if (st.mine_error) { seat = null; token = null; remember({seat: null, token: null}); showSeats(st); say(st.mine_error, "warn"); return; }
    refresh(); return;
  }
  if (!st.mine.questions.length) {
    document.getElementById("pad").hidden = true; document.getElementById("pick").hidden = true;
    say(st.opened ? "Nothing for you to type in this round." : "Waiting for the round to end…");
    return;
  }
  showPad(st, st.mine);
  if (retry) return;                      // "not sent…" stays until the numbers are sent
  if (!st.open) say("Round closed.");
  else if (!st.mine.preview) say(restored ? "Your numbers typed before are filled in: check them and submit."
                                           : "Type your numbers and submit.");
}

document.getElementById("send").onclick = send;
(async () => {
  const saved = store();
  if (Number.isInteger(saved.seat) && saved.token) { seat = saved.seat; token = saved.token; }
  await refresh();
  sendPending();
  live((st) => { if (!state || st.version !== state.version) heard(st); }, {
    lost: () => { if (!retry) say("Connection lost: reconnecting…", "warn"); },
    open: () => { if (state) { refresh(); sendPending(); } },
  });
  window.addEventListener("online", () => sendPending());
})();
