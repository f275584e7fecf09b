// presstime big screen: the board's countdown, each player's state and token, the standings
"use strict";
let last = null, at = 0;

function render(st) {
  last = st; at = performance.now();
  document.getElementById("title").textContent = st.title + (st.round ? " · " + st.round_title : "");
  const b = st.board || {};
  document.getElementById("phase").textContent = b.phase ? b.phase + (b.day ? " · " + b.day : "")
    : (st.open ? "scoring: every player types their numbers" : "");
  const players = document.getElementById("players");
  players.replaceChildren();
  st.players.forEach((p, i) => {
    const bp = (b.players || [])[i] || {};
    const tr = el("tr");
    tr.append(el("td", {}, p.name));
    tr.append(el("td", {}, bp.token ? "token " + bp.token : (bp.state || "")));
    tr.append(el("td", {class: p.submitted ? "done" : (p.asked && st.open ? "counting" : "")},
                 p.submitted ? "in" : (p.asked && st.open ? "counting" : "")));
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
