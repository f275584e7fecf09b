// presstime scorepad: what the phone page and the big screen share
"use strict";
const SECRET = location.pathname.split("/")[1];
const API = "/" + SECRET + "/api/";

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function live(onState, hooks) {
  // server-sent events; the browser reconnects by itself after a drop or a sleeping phone, but
  // not after a refusal (the live slots full, the server restarting): then a new stream is
  // opened after a pause, until one is accepted
  hooks = hooks || {};
  let wait = 1000;
  function open() {
    const src = new EventSource(API + "events");
    src.onmessage = (m) => { wait = 1000; onState(JSON.parse(m.data)); };
    src.onopen = () => { if (hooks.open) hooks.open(); };
    src.onerror = () => {
      if (hooks.lost) hooks.lost();
      if (src.readyState === EventSource.CLOSED) {
        setTimeout(open, wait + Math.random() * 500);
        wait = Math.min(wait * 2, 10000);
      }
    };
  }
  open();
}

function standingsTable(table, standings) {
  // the standings in rank order (the server sends them ranked: the winners first)
  table.replaceChildren();
  if (!standings) return false;
  const head = el("tr");
  head.append(el("th", {class: "n"}, "#"), el("th", {}, "player"), el("th", {class: "n"}, "total"));
  const money = standings.players.some((p) => p.money !== null && p.money !== undefined);
  if (money) head.append(el("th", {class: "n"}, "$"));
  table.append(head);
  for (const p of standings.players) {
    const tr = el("tr");
    const name = el("td", {}, p.name + (p.out ? " (" + p.out + ")" : ""));
    if (standings.complete && standings.winners.includes(p.name)) name.className = "winner";
    if (p.out) name.className = "out";
    tr.append(el("td", {class: "n"}, p.rank), name, el("td", {class: "n"}, p.total === null ? "–" : p.total));
    if (money) tr.append(el("td", {class: "n"}, p.money));
    table.append(tr);
  }
  if (standings.complete && standings.winners.length)
    table.append(el("caption", {class: "winner"}, "Winner: " + standings.winners.join(", ")));
  else if (standings.round)
    table.append(el("caption", {}, "after round " + standings.round));
  return true;
}

function bgstatsBox(box, standings) {
  // the finished game, one tap from BG Stats: its one-play link as a button and a QR code
  const link = standings && standings.bgstats;
  box.hidden = !link;
  if (!link) return;
  const a = box.querySelector("a.bgstats"), img = box.querySelector("img");
  if (a.getAttribute("href") !== link) {
    a.setAttribute("href", link);
    img.src = "/" + SECRET + "/bgstats.svg?" + encodeURIComponent(link.length + ":" + link.slice(-24));
  }
}

function clock(ms) {
  if (ms === null || ms === undefined) return "–:––";
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}
