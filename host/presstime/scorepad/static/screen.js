// presstime big screen: the board's countdown, each player's state and token, the standings in
// rank order, the winner, and a QR code for the phones. Everything fits one screen (a TV cannot
// scroll): the sizes follow the screen's height and the number of players.
"use strict";
let last = null, at = 0, away = false;
const TIMED = ["ready", "countdown", "running", "paused", "grace"];   // phases with a clock to show

function cap(w) { return w ? w[0].toUpperCase() + w.slice(1) : ""; }

function winnerText(s) {
  if (!s || !s.complete) return "";
  if (s.winners.length === 1) return "★ " + s.winners[0] + " wins ★";
  if (s.winners.length) return "★ shared win: " + s.winners.join(", ") + " ★";
  return "no winner" + (s.no_winner ? ": " + s.no_winner : "");
}

function render(st) {
  last = st; at = performance.now();
  const b = st.board || {};
  // while the board plays a round, its round is the news; while the phones count, theirs
  const playing = b.phase && !st.open && b.round;
  const round = playing ? "round " + b.round + (b.day ? " (" + cap(b.day) + ")" : "") : st.round_title;
  document.getElementById("title").textContent = st.title + (round ? " · " + round : "");
  document.getElementById("phase").textContent = away ? "no connection to the scorepad (the game may have ended)"
    : st.open ? "scoring: every player types their numbers" : (b.phase ? cap(b.phase) : "");
  document.body.style.setProperty("--rows", String(Math.max(4, st.players.length + 2)));
  const players = document.getElementById("players");
  players.replaceChildren();
  st.players.forEach((p, i) => {
    const bp = (b.players || [])[i] || {};
    const tr = el("tr");
    tr.append(el("td", {}, p.name));
    tr.append(el("td", {}, bp.token ? "token " + bp.token : (bp.state || "")));
    const counting = st.open && p.asked;
    tr.append(el("td", {class: counting ? (p.submitted ? "done" : "counting") : ""},
                 counting ? (p.submitted ? "in" : "counting") : ""));
    players.append(tr);
  });
  document.getElementById("standings").hidden = !standingsTable(document.getElementById("stand"), st.standings);
  const won = winnerText(st.standings);
  const banner = document.getElementById("winner");
  banner.textContent = won; banner.hidden = !won;
  document.body.classList.toggle("over", !!won);
  bgstatsBox(document.getElementById("bgstats"), st.standings);
  document.body.classList.toggle("bgstats", !!(st.standings && st.standings.bgstats));
  tick();
}

function tick() {
  const c = document.getElementById("clock");
  // the clock is the board's while it plays a round; between rounds, once the game is over or
  // with the scorepad gone (play ended) its numbers would be stale
  c.hidden = away || !last || !last.board || !TIMED.includes(last.board.phase) ||
             document.body.classList.contains("over");
  if (c.hidden) return;
  let ms = last.board.remaining_ms;
  if (last.board.phase === "running" && ms !== null && ms !== undefined) ms -= performance.now() - at;
  c.textContent = clock(ms);
}

async function join() {
  // the page the phones open (the address they reach, the server's word), as a QR code and text
  document.getElementById("qr").src = "/" + SECRET + "/join.svg";
  try {
    const r = await fetch(API + "join");
    if (r.ok) document.getElementById("joinurl").textContent = (await r.json()).url;
  } catch (e) { setTimeout(join, 2000); }
}

join();
setInterval(tick, 200);
live((st) => { away = false; render(st); }, {
  lost: () => { away = true; if (last) render(last); },
});
