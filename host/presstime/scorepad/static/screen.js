// presstime big screen: the board's countdown, each player's state and token, the standings
"use strict";
let last = null, at = 0;

function cap(w) { return w ? w[0].toUpperCase() + w.slice(1) : ""; }

function render(st) {
  last = st; at = performance.now();
  const b = st.board || {};
  // while the board plays a round, its round is the news; while the phones count, theirs
  const playing = b.phase && !st.open && b.round;
  const round = playing ? "round " + b.round + (b.day ? " (" + cap(b.day) + ")" : "") : st.round_title;
  document.getElementById("title").textContent = st.title + (round ? " · " + round : "");
  document.getElementById("phase").textContent = st.open ? "scoring: every player types their numbers"
    : (b.phase ? cap(b.phase) : "");
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
  standingsTable(document.getElementById("stand"), st.standings);
  tick();
}

function tick() {
  const c = document.getElementById("clock");
  c.hidden = !last || !last.board;
  if (c.hidden) return;
  let ms = last.board.remaining_ms;
  if (last.board.phase === "running" && ms !== null && ms !== undefined) ms -= performance.now() - at;
  document.getElementById("clock").textContent = clock(ms);
}

setInterval(tick, 200);
live(render);
