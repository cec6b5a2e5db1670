// gsolve serve's page: plain JavaScript on the JSON API of docs/web.md.
// /api/describe draws the board and lists the moves; /api/position (the
// JSON of `gsolve GAME --position MOVES --all-moves --json`) gives their
// values; /api/computer the computer's move at a level; /api/strategy a
// CFR strategy; /api/tree Graphviz's drawing of the tree.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const PALETTE = ["#222", "#f4f4f4", "#c22", "#e8b90c", "#2a6fd0", "#2a9a3a", "#8a3ab9", "#e07020"];
// Players named after a colour (Connect Four's Red and Yellow) get it.
const NAMED = { red: "#c22", yellow: "#e8b90c", black: "#222", white: "#f4f4f4", blue: "#2a6fd0",
                green: "#2a9a3a", orange: "#e07020", purple: "#8a3ab9" };
function playerColour(d, i) {
  const n = (d.players[i] || "").toLowerCase();
  return NAMED[n] || PALETTE[i % PALETTE.length];
}
function inkOn(colour) {
  return ["#f4f4f4", "#e8b90c"].includes(colour) ? "#222" : "#fff";
}
const $ = (id) => document.getElementById(id);

const S = {
  games: [],          // /api/games
  game: null,         // its name
  params: {},         // name -> value, as typed (only those changed)
  moves: [],          // the moves played
  redo: [],           // the moves undone, last first
  desc: null,         // /api/describe of the position
  values: null,       // /api/position of the position, or null
  history: {},        // moves text -> /api/position answer (the chart)
  selected: [],       // targets clicked towards a move
  strategy: null,     // /api/strategy of the game (its key below)
  strategyKey: "",
  generation: 0,      // answers for an older position are dropped
};

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function query(extra) {
  const q = new URLSearchParams();
  q.set("game", S.game);
  if (S.moves.length) q.set("moves", S.moves.join(" "));
  for (const k in S.params) q.set(k, S.params[k]);
  for (const k in extra || {}) q.set(k, extra[k]);
  return q.toString();
}

async function api(path, extra) {
  const r = await fetch("/api/" + path + "?" + query(extra));
  let body;
  try { body = await r.json(); } catch (e) { body = { error: "the server's answer is not JSON" }; }
  return { ok: r.ok, status: r.status, body };
}

function setStatus(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function saveUrl() {
  history.replaceState(null, "", "?" + query());
}

// ---- the game and its parameters ------------------------------------

async function start() {
  const r = await fetch("/api/games");
  const j = await r.json();
  S.games = j.games;
  for (const g of S.games) $("game").appendChild(el("option", { value: g.name }, g.title));
  for (let l = 1; l <= 8; l++) $("level").appendChild(el("option", { value: String(l) }, String(l)));
  $("level").appendChild(el("option", { value: "perfect" }, "perfect"));
  $("level").value = "4";
  const u = new URLSearchParams(location.search);
  let name = u.get("game");
  if (!S.games.some((g) => g.name === name)) name = S.games[0].name;
  S.game = name;
  S.params = {};
  const info = S.games.find((g) => g.name === name);
  for (const [k, v] of u) if (info.params.includes(k)) S.params[k] = v;
  S.moves = u.get("moves") ? u.get("moves").split(" ").filter((m) => m) : [];
  $("game").value = name;
  $("game").addEventListener("change", () => openGame($("game").value));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => { S.moves = []; S.redo = []; refresh(); });
  $("computer-move").addEventListener("click", () => computerMove(true));
  $("computer-side").addEventListener("change", () => refresh());
  $("viewer").addEventListener("change", () => { $("viewer").dataset.chosen = "1"; drawBoard(); showViews(); });
  $("strategy-button").addEventListener("click", loadStrategy);
  $("tree-button").addEventListener("click", drawTree);
  $("params").addEventListener("submit", (e) => { e.preventDefault(); applyParams(); });
  await refresh(true);
}

function openGame(name) {
  S.game = name;
  S.params = {};
  S.moves = [];
  S.redo = [];
  S.history = {};
  S.strategy = null;
  $("tree").textContent = "";
  refresh(true);
}

function paramForm(desc) {
  const f = $("params");
  f.textContent = "";
  for (const p of desc.params) {
    const id = "param-" + p.name;
    const label = el("label", { for: id }, p.name);
    let input;
    if (p.type === "enum" || p.type === "bool") {
      input = el("select", { id, name: p.name });
      for (const m of p.type === "bool" ? ["false", "true"] : p.members)
        input.appendChild(el("option", { value: m }, m));
      input.value = p.value;
    } else if (p.type === "int") {
      input = el("input", { id, name: p.name, type: "number", min: p.lo, max: p.hi });
      input.value = p.value;
    } else {
      input = el("input", { id, name: p.name, type: "text", title: "numbers separated by commas" });
      input.value = Array.isArray(p.value) ? p.value.join(",") : p.value;
    }
    if (input.tagName === "SELECT") input.addEventListener("change", applyParams);
    f.appendChild(label);
    f.appendChild(input);
  }
  if (desc.params.length) f.appendChild(el("button", { type: "submit", id: "apply" }, "Apply"));
  const side = $("computer-side");
  side.textContent = "";
  side.appendChild(el("option", { value: "" }, "nobody"));
  for (const p of desc.players) side.appendChild(el("option", { value: p }, p));
  side.appendChild(el("option", { value: "*" }, "both"));
}

function applyParams() {
  const params = {};
  for (const p of S.desc ? S.desc.params : []) {
    const input = $("param-" + p.name);
    if (!input) continue;
    const now = input.value.trim();
    const was = Array.isArray(p.value) ? p.value.join(",") : String(p.value);
    if (now !== was || p.name in S.params) params[p.name] = now;
  }
  S.params = params;
  S.moves = [];
  S.redo = [];
  S.history = {};
  S.strategy = null;
  refresh(true);
}

// ---- the position ---------------------------------------------------

async function refresh(newForm) {
  const gen = ++S.generation;
  S.selected = [];
  saveUrl();
  ready(false);
  setStatus("…");
  const d = await api("describe");
  if (gen !== S.generation) return;
  if (!d.ok) {
    setStatus(d.body.error || "error " + d.status, true);
    ready(true);
    return;
  }
  const side = $("computer-side").value;
  S.desc = d.body;
  if (newForm || !$("params").childElementCount && S.desc.params.length) paramForm(S.desc);
  if ($("computer-side").querySelector(`option[value="${CSS.escape(side)}"]`)) $("computer-side").value = side;
  S.values = null;
  drawAll();
  const key = S.moves.join(" ");
  let v = S.history[key];
  if (S.desc.views) {
    // Hidden information: no move has a value of its own; the strategy
    // (CFR) says how to play.
    $("note").textContent = "(hidden information: see the strategy)";
    drawChart();
    ready(!autoComputer(gen));
    return;
  }
  if (!v) {
    $("note").textContent = "(solving…)";
    const a = await api("position");
    if (gen !== S.generation) return;
    if (!a.ok) {
      $("note").textContent = a.status === 503 ? "(" + a.body.error + ")" : "";
      if (a.status !== 503) setStatus(a.body.error || "error " + a.status, true);
      drawChart();
      ready(!autoComputer(gen));
      return;
    }
    v = a.body;
    S.history[key] = v;
  }
  S.values = v;
  $("note").textContent = v.solver ? "(" + v.solver + ", " + v.engine + ")" : "";
  drawAll();
  ready(!autoComputer(gen));
}

// For scripts and tests: the page is at rest (body data-ready="1"), at
// the position of data-moves.
function ready(yes) {
  const b = document.body.dataset;
  b.ready = yes ? "1" : "0";
  b.moves = S.moves.join(" ");
  b.toMove = S.desc && !S.desc.ended ? S.desc.to_move : "";
  b.ended = S.desc && S.desc.ended ? "1" : "0";
}

function drawAll() {
  const d = S.desc;
  if (d.ended) {
    const best = Math.max(...d.payoffs);
    const winners = d.players.filter((p, i) => d.payoffs[i] === best);
    const text = winners.length === d.players.length ? "Draw" : winners.join(", ") + " won";
    setStatus("Game over: " + text + " (payoffs " + d.payoffs.join(", ") + ")");
  } else {
    setStatus(d.to_move + " to move" + (S.values && S.values.value ? ": " + valueWords(S.values) : ""));
  }
  $("state").textContent = d.text;
  $("undo").disabled = S.moves.length === 0;
  $("redo").disabled = S.redo.length === 0;
  showViews();
  drawBoard();
  drawMoves();
  drawChart();
}

function valueWords(v) {
  let s = v.value;
  if (v.score !== null && v.score !== undefined && Math.abs(v.score) > 1) s += " by " + Math.abs(v.score);
  if (v.plies !== null && v.plies !== undefined) s += " in " + v.plies;
  return s;
}

// The value of each move (by its notation) from /api/position.
function moveValues() {
  const m = {};
  if (S.values && S.values.moves) for (const x of S.values.moves) m[x.move] = x;
  return m;
}

function valueClass(x) {
  if (!x) return "";
  if (x.value === "win" || x.value === "loss" || x.value === "draw") return x.value;
  if (typeof x.score === "number") return x.score > 0 ? "win" : x.score < 0 ? "loss" : "draw";
  return "";
}

function valueLetter(x) {
  const c = valueClass(x);
  return c === "win" ? "W" : c === "loss" ? "L" : c === "draw" ? "D" : "?";
}

function num(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}

const MOVES_SHOWN = 400;     // buttons at most; the board's clicks reach the rest

function drawMoves() {
  const list = $("moves");
  list.textContent = "";
  const values = moveValues();
  let shown = S.desc.moves;
  if (shown.length > MOVES_SHOWN) {
    const cands = S.selected.length ? shown.filter(isCandidate) : [];
    shown = (cands.length ? cands : shown).slice(0, MOVES_SHOWN);
  }
  for (const m of shown) {
    const x = values[m.move];
    const li = el("li", { class: valueClass(x), "data-move": m.move });
    if (x) {
      li.setAttribute("data-value", x.value === null ? "" : x.value);
      li.setAttribute("data-score", x.score === null ? "" : String(x.score));
      li.setAttribute("data-plies", x.plies === null ? "" : String(x.plies));
    }
    const b = el("button", { type: "button" });
    b.appendChild(el("span", { class: "move" }, m.move));
    let extra = "";
    if (x) {
      extra = " " + valueLetter(x);
      if (x.score !== null) extra += " " + (x.score > 0 ? "+" : "") + num(x.score);
      if (x.plies !== null) extra += " in " + x.plies;
    }
    if (m.probability !== null) extra += " p=" + num(m.probability);
    b.appendChild(el("span", { class: "letter" }, extra));
    b.addEventListener("click", () => play(m.move));
    li.appendChild(b);
    if (isCandidate(m)) li.classList.add("candidate");
    list.appendChild(li);
  }
  if (shown.length < S.desc.moves.length)
    list.appendChild(el("li", { class: "more" }, "… " + (S.desc.moves.length - shown.length) +
                                                 " more moves: click the board to reach them"));
}

function play(move) {
  S.moves.push(move);
  S.redo = [];
  refresh();
}

function undo() {
  if (!S.moves.length) return;
  S.redo.push(S.moves.pop());
  // Undo the computer's move and the person's before it.
  const side = $("computer-side").value;
  if (side && side !== "*" && S.moves.length && S.desc && S.desc.to_move !== side) {
    S.redo.push(S.moves.pop());
  }
  refresh();
}

function redo() {
  if (!S.redo.length) return;
  S.moves.push(S.redo.pop());
  refresh();
}

// ---- the computer ---------------------------------------------------

// With the computer playing a side, chance moves are drawn by their
// probabilities (as gsolve play draws them).
function autoComputer(gen) {
  const side = $("computer-side").value;
  const d = S.desc;
  if (!side || d.ended) return false;
  if (d.to_move === "chance") {
    setTimeout(() => { if (gen === S.generation) play(draw(d.moves.map((m) => [m.move, m.probability]))); }, 50);
    return true;
  }
  if (side !== "*" && side !== d.to_move) return false;
  setTimeout(() => { if (gen === S.generation) computerMove(false); }, 50);
  return true;
}

// One of [item, probability] pairs, drawn by the probabilities.
function draw(pairs) {
  let r = Math.random() * pairs.reduce((a, p) => a + p[1], 0);
  for (const [item, p] of pairs) if ((r -= p) < 0) return item;
  return pairs[pairs.length - 1][0];
}

async function computerMove(asked) {
  const d = S.desc;
  if (!d || d.ended) return;
  const gen = S.generation;
  setStatus(d.to_move + " (the computer) is thinking…");
  if (d.views) {
    // Hidden information: a move drawn from CFR's strategy at the
    // mover's information state (gsolve play --play-strategy).
    await loadStrategy();
    if (gen !== S.generation) return;
    const view = d.views.find((v) => v.player === d.to_move);
    const entry = S.strategy && view &&
                  S.strategy.strategy.find((e) => e.player === d.to_move && e.info === view.info);
    if (!entry) {
      setStatus("the strategy has no move here", true);
      ready(true);
      return;
    }
    return play(draw(entry.moves.map((m) => [m.move, m.probability])));
  }
  const a = await api("computer", { level: $("level").value });
  if (gen !== S.generation) return;
  if (!a.ok || !a.body.best || !a.body.best.length) {
    setStatus(a.ok ? "the computer found no move" : a.body.error, true);
    ready(true);
    return;
  }
  const best = a.body.best;
  play(best[Math.floor(Math.random() * best.length)]);
}

// ---- clicks on the board --------------------------------------------

// What a move changes: board cells "c3", entries of other arrays "e0:2".
function targets(m) {
  return m.cells.map((c) => "c" + c).concat(m.entries.map((e) => "e" + e[0] + ":" + e[1]));
}

function isCandidate(m) {
  if (!S.selected.length) return false;
  const t = targets(m);
  return S.selected.every((s) => t.includes(s));
}

// On a rect board where every move changes one cell, each in a column
// of its own (Connect Four), a click anywhere in the column is the move.
function columnMoves() {
  const d = S.desc;
  if (!d.board || d.board.kind !== "rect" || !d.moves.length) return null;
  const byColumn = {};
  for (const m of d.moves) {
    if (m.cells.length !== 1 || m.entries.length) return null;
    const x = m.cells[0] % d.board.width;
    if (byColumn[x]) return null;
    byColumn[x] = m;
  }
  return byColumn;
}

function clickTarget(t) {
  const d = S.desc;
  if (d.ended) return;
  if (t[0] === "c") {
    const cols = columnMoves();
    const c = Number(t.slice(1));
    if (cols && cols[c % d.board.width]) return play(cols[c % d.board.width].move);
  }
  let sel = S.selected.concat([t]);
  let cands = d.moves.filter((m) => sel.every((s) => targets(m).includes(s)));
  if (!cands.length) {
    sel = [t];
    cands = d.moves.filter((m) => targets(m).includes(t));
  }
  if (cands.length === 1) return play(cands[0].move);
  S.selected = cands.length ? sel : [];
  setStatus(cands.length ? "choose among the marked moves, or click another square"
                         : d.to_move + " to move: no move there");
  drawBoard();
  drawMoves();
}

// ---- the board ------------------------------------------------------

function mainVar(d) {
  return d.vars.find((v) => v.pieces) || d.vars.find((v) => v.board);
}

function playerIndex(d, name) {
  return d.players.indexOf(name);
}

// A piece drawn in the cell centred at (x, y), size s.
function drawPiece(g, d, v, k, x, y, s) {
  const val = v.values[k];
  const text = v.text[k];
  if (val === null) {
    g.appendChild(svg("text", { x, y: y + s * 0.15, "text-anchor": "middle", "font-size": s * 0.5 }, "?"));
    return;
  }
  if (val === 0 && v.type !== "bool" || (v.type === "bool" && !val)) return;
  if (v.pieces) {
    const letter = d.pieces[val - 1] || "?";
    const white = letter === letter.toUpperCase();
    g.appendChild(svg("circle", { cx: x, cy: y, r: s * 0.38, fill: white ? "#fff" : "#333", stroke: "#333" }));
    g.appendChild(svg("text", { x, y: y + s * 0.16, "text-anchor": "middle", "font-size": s * 0.45,
                               "font-weight": "bold", fill: white ? "#333" : "#fff" }, letter));
  } else if (v.type === "player") {
    const i = playerIndex(d, text);
    const colour = playerColour(d, i);
    g.appendChild(svg("circle", { cx: x, cy: y, r: s * 0.38, fill: colour, stroke: "#333",
                                 class: "stone", "data-player": text }));
    g.appendChild(svg("text", { x, y: y + s * 0.15, "text-anchor": "middle", "font-size": s * 0.4,
                               fill: inkOn(colour), "font-weight": "bold" }, text.slice(0, 1)));
  } else if (v.type === "bool") {
    g.appendChild(svg("rect", { x: x - s * 0.3, y: y - s * 0.3, width: s * 0.6, height: s * 0.6, fill: "#444" }));
  } else {
    g.appendChild(svg("text", { x, y: y + s * 0.15, "text-anchor": "middle", "font-size": s * 0.4 },
                      text.length > 4 ? text.slice(0, 4) : text));
  }
}

// The value mark of the moves that change target t alone.
// The move that changes target t alone, if exactly one does (made once
// a position: Connect6 has 129,000 moves).
function singleMoves() {
  if (S.singleFor === S.desc) return S.single;
  const one = {}, many = {};
  for (const m of S.desc.moves) {
    const ts = targets(m);
    if (ts.length !== 1) continue;
    if (one[ts[0]]) many[ts[0]] = true;
    one[ts[0]] = m;
  }
  for (const t in many) delete one[t];
  S.single = one;
  S.singleFor = S.desc;
  return one;
}

function markTarget(g, t, x, y, s, values) {
  const m = singleMoves()[t];
  if (!m) return "";
  const x1 = values[m.move];
  if (!x1) return "";
  const cls = valueClass(x1);
  g.appendChild(svg("text", { x: x - s * 0.42, y: y - s * 0.28, class: "mark" }, valueLetter(x1)));
  return cls;
}

const CLASS_FILL = { win: "#9fd89f", draw: "#eedc80", loss: "#eaa0a0" };

// The position as the chosen player sees it (a game with hidden
// information): the values the view's drawing shows as '?' made null.
function viewed(d) {
  const who = $("viewer").value;
  const view = d.views && who ? d.views.find((v) => v.player === who) : null;
  if (!view || !view.text) return d;
  const lines = view.text.split("\n");
  const vars = d.vars.map((v) => {
    const c = Object.assign({}, v, { values: v.values.slice(), text: v.text.slice() });
    const line = lines.find((l) => l.startsWith(v.name + " = "));
    if (line && !v.board) {
      const items = line.slice(v.name.length + 3).replace(/^\[|\]$/g, "").split(/, |; /);
      if (items.length === c.values.length)
        items.forEach((x, k) => { if (x === "?") { c.values[k] = null; c.text[k] = null; } });
    }
    if (v.board && d.board && d.board.kind === "rect") {
      const W = d.board.width;
      for (const l of lines) {
        const m = /^\s*(\d+) ((?: \S)+)$/.exec(l);
        if (!m) continue;
        const y = Number(m[1]) - 1, cells = m[2].trim().split(" ");
        cells.forEach((ch, x) => { if (ch === "?" && x < W) { c.values[y * W + x] = null; c.text[y * W + x] = null; } });
      }
    }
    return c;
  });
  return Object.assign({}, d, { vars });
}

function drawBoard() {
  const d = viewed(S.desc);
  const box = $("board");
  box.textContent = "";
  const values = moveValues();
  const cols = columnMoves();
  let height = 0;
  const root = svg("svg", { id: "board-svg", role: "img", "aria-label": "board" });
  box.appendChild(root);
  const v = mainVar(d);
  if (d.board && d.board.kind === "rect") {
    const W = d.board.width, H = d.board.height;
    const s = Math.max(20, Math.min(56, Math.floor(480 / Math.max(W, H))));
    const ox = 24, oy = 4;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const k = y * W + x;
        const px = ox + x * s, py = oy + (H - 1 - y) * s;
        const g = svg("g", {});
        const r = svg("rect", { x: px, y: py, width: s, height: s,
                                class: "cell " + ((x + y) % 2 ? "light" : "dark"),
                                "data-cell": d.board.cells[k] });
        g.appendChild(r);
        if (v) drawPiece(g, d, v, k, px + s / 2, py + s / 2, s);
        let t = "c" + k;
        if (cols && cols[x] && cols[x].cells[0] === k) t = "c" + k;
        const cls = markTarget(g, t, px + s / 2, py + s / 2, s, values);
        if (cls) { r.style.fill = CLASS_FILL[cls]; r.classList.add("target"); }
        if (S.selected.includes(t)) r.classList.add("selected");
        r.addEventListener("click", () => clickTarget("c" + k));
        root.appendChild(g);
      }
    }
    for (let x = 0; x < W; x++) {
      const name = d.board.cells[x].replace(/[0-9]+$/, "");
      root.appendChild(svg("text", { x: ox + x * s + s / 2, y: oy + H * s + 14, "text-anchor": "middle",
                                     "font-size": 12 }, name));
    }
    for (let y = 0; y < H; y++)
      root.appendChild(svg("text", { x: 4, y: oy + (H - 1 - y) * s + s / 2 + 4, "font-size": 12 }, String(y + 1)));
    height = oy + H * s + 20;
    root.setAttribute("width", ox + W * s + 4);
  } else if (d.board) {
    height = drawGraph(root, d, v, values);
  }
  height = drawArrays(root, d, values, height);
  root.setAttribute("height", Math.max(height, 10));
  if (!root.getAttribute("width")) root.setAttribute("width", 500);
}

// Node places for a graph: a few hundred rounds of a spring layout from
// a circle, the same every time.
function layout(n, edges, size) {
  const p = [];
  for (let i = 0; i < n; i++) {
    const a = 2 * Math.PI * i / n;
    p.push([Math.cos(a), Math.sin(a)]);
  }
  const k = 1.6 / Math.sqrt(n);
  for (let it = 0; it < 300; it++) {
    const f = p.map(() => [0, 0]);
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = p[i][0] - p[j][0], dy = p[i][1] - p[j][1];
        const d2 = dx * dx + dy * dy + 1e-9, rep = k * k / d2;
        f[i][0] += dx * rep; f[i][1] += dy * rep; f[j][0] -= dx * rep; f[j][1] -= dy * rep;
      }
    for (const [a, b] of edges) {
      const dx = p[a][0] - p[b][0], dy = p[a][1] - p[b][1];
      const dist = Math.sqrt(dx * dx + dy * dy) + 1e-9, att = dist / k;
      f[a][0] -= dx * att; f[a][1] -= dy * att; f[b][0] += dx * att; f[b][1] += dy * att;
    }
    const step = 0.05 * (1 - it / 300);
    for (let i = 0; i < n; i++) {
      const fl = Math.sqrt(f[i][0] ** 2 + f[i][1] ** 2) + 1e-9;
      p[i][0] += f[i][0] / fl * Math.min(fl, step);
      p[i][1] += f[i][1] / fl * Math.min(fl, step);
    }
  }
  const xs = p.map((q) => q[0]), ys = p.map((q) => q[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const sc = (size - 60) / Math.max(x1 - x0, y1 - y0, 1e-9);
  return p.map((q) => [30 + (q[0] - x0) * sc, 30 + (q[1] - y0) * sc]);
}

function drawGraph(root, d, v, values) {
  const size = 460;
  if (d.board.kind === "graph") {
    const n = d.board.cells.length;
    const pos = layout(n, d.board.edges, size);
    for (const [a, b] of d.board.edges)
      root.appendChild(svg("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: "#888" }));
    const s = Math.max(18, Math.min(40, 300 / Math.sqrt(n)));
    for (let c = 0; c < n; c++) {
      const g = svg("g", {});
      const circle = svg("circle", { cx: pos[c][0], cy: pos[c][1], r: s / 2, class: "cell light",
                                     "data-cell": d.board.cells[c] });
      g.appendChild(circle);
      if (v) drawPiece(g, d, v, c, pos[c][0], pos[c][1], s);
      const cls = markTarget(g, "c" + c, pos[c][0], pos[c][1], s, values);
      if (cls) circle.style.fill = CLASS_FILL[cls];
      if (S.selected.includes("c" + c)) circle.classList.add("selected");
      circle.addEventListener("click", () => clickTarget("c" + c));
      g.appendChild(svg("text", { x: pos[c][0] + s / 2 + 2, y: pos[c][1] + s / 2 + 2, "font-size": 11, fill: "#555" },
                        d.board.cells[c]));
      root.appendChild(g);
    }
  } else {
    // edges: the cells are the graph's edges between its nodes.
    const pos = layout(d.board.nodes, d.board.ends, size);
    d.board.ends.forEach(([a, b], c) => {
      const val = v ? v.values[c] : 0;
      const colour = v && v.type === "player" && val ? playerColour(d, val - 1) : val ? "#333" : "#ccc";
      const line = svg("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: colour,
                                 "stroke-width": val ? 5 : 3, class: "edge-cell", "data-cell": d.board.cells[c] });
      const m = d.moves.find((mv) => mv.cells.length === 1 && mv.cells[0] === c);
      if (m && values[m.move]) line.setAttribute("stroke", CLASS_FILL[valueClass(values[m.move])] || colour);
      if (S.selected.includes("c" + c)) line.setAttribute("stroke", "#06c");
      line.addEventListener("click", () => clickTarget("c" + c));
      root.appendChild(line);
      // a wider, invisible line: easier to hit
      const hit = svg("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: "transparent",
                                "stroke-width": 14, class: "edge-cell" });
      hit.addEventListener("click", () => clickTarget("c" + c));
      root.appendChild(hit);
    });
    pos.forEach((q, i) => root.appendChild(svg("circle", { cx: q[0], cy: q[1], r: 4, fill: "#222" })));
  }
  root.setAttribute("width", size);
  return size + 10;
}

// Arrays that are not the board (Nim's heaps, the cards of a poker
// game): a row of boxes each, their values, a click is the entry.
function drawArrays(root, d, values, top) {
  let y = top + 8;
  d.vars.forEach((v, vi) => {
    // Arrays; and without a board, the single values too (Matchsticks).
    if (v.board || (!v.dims.length && d.board)) return;
    const n = v.values.length;
    if (n > 64) return;
    root.appendChild(svg("text", { x: 4, y: y + 22, "font-size": 13 }, v.name));
    // Small counts (heaps): one entry a row, with as many matches.
    const heaps = v.type === "int" && v.dims.length === 1 && v.values.every((x) => x !== null && x >= 0 && x <= 12) &&
                  !d.views;
    const per = v.dims.length === 2 ? v.dims[1] : heaps ? 1 : n;
    for (let k = 0; k < n; k++) {
      const row = Math.floor(k / per), col = k % per;
      const bx = 80 + col * 46, by = y + row * 40;
      const t = "e" + vi + ":" + k;
      const r = svg("rect", { x: bx, y: by, width: 42, height: 34, rx: 4, class: "entry",
                              "data-entry": v.name + "[" + k + "]" });
      if (S.selected.includes(t)) r.classList.add("selected");
      r.addEventListener("click", () => clickTarget(t));
      root.appendChild(r);
      const val = v.values[k];
      const text = val === null ? "?" : v.type === "player" && val === 0 ? "·" : v.text[k];
      if (val === null) r.classList.add("hidden-value");
      root.appendChild(svg("text", { x: bx + 21, y: by + 22, "text-anchor": "middle", "font-size": 14,
                                     class: "entry-text" }, text.length > 5 ? text.slice(0, 5) : text));
      if (heaps)
        for (let i = 0; i < val; i++) {
          const sx = bx + 56 + i * 10;
          root.appendChild(svg("line", { x1: sx, y1: by + 4, x2: sx, y2: by + 30,
                                         stroke: "#b5651d", "stroke-width": 4, class: "match" }));
        }
    }
    y += Math.ceil(n / per) * 40 + 6;
  });
  if (d.vars.some((v) => !v.board && (v.dims.length || !d.board) && v.values.length <= 64))
    root.setAttribute("width", Math.max(Number(root.getAttribute("width") || 0), 560));
  return y;
}

// ---- hidden information ---------------------------------------------

function showViews() {
  const d = S.desc;
  const box = $("hidden");
  if (!d || !d.views) { box.hidden = true; return; }
  box.hidden = false;
  const sel = $("viewer");
  if (sel.options.length !== d.views.length + 1) {
    sel.textContent = "";
    sel.appendChild(el("option", { value: "" }, "everyone (all shown)"));
    for (const v of d.views) sel.appendChild(el("option", { value: v.player }, v.player));
    sel.dataset.mover = "";
  }
  // The viewer follows the player to move, until one is chosen.
  if (!sel.dataset.chosen && d.to_move && d.to_move !== "chance") sel.value = d.to_move;
  const view = d.views.find((v) => v.player === sel.value);
  $("info").textContent = view ? view.info : "(choose a player)";
  if (view && view.text) $("state").textContent = view.text;
  showStrategy();
}

async function loadStrategy() {
  const key = query({ moves: "" });
  if (S.strategyKey === key && S.strategy) return showStrategy();
  $("strategy").textContent = "solving by CFR…";
  const q = new URLSearchParams();
  q.set("game", S.game);
  for (const k in S.params) q.set(k, S.params[k]);
  const r = await fetch("/api/strategy?" + q.toString());
  const j = await r.json();
  if (!r.ok) { $("strategy").textContent = j.error; return; }
  S.strategy = j;
  S.strategyKey = key;
  showStrategy();
}

function showStrategy() {
  const box = $("strategy");
  const d = S.desc;
  if (!S.strategy || !d) return;
  box.textContent = "";
  if (d.ended || d.to_move === "chance") {
    box.textContent = "(no player to move)";
    return;
  }
  const view = d.views.find((v) => v.player === d.to_move);
  const entry = S.strategy.strategy.find((s) => s.player === d.to_move && view && s.info === view.info);
  const r = S.strategy.report || {};
  box.appendChild(el("p", {}, "CFR (" + (r.solver || "") + ", " + (r.iterations || "?") +
                           " iterations, exploitability " + (r.exploitability !== undefined ? num(r.exploitability) : "?") +
                           "): " + d.to_move + " here plays"));
  if (!entry) { box.appendChild(el("p", {}, "(this information state is not in the strategy)")); return; }
  const t = el("table", { id: "strategy-table" });
  t.appendChild(el("tr", {})).append(el("th", {}, "move"), el("th", {}, "probability"));
  for (const m of entry.moves) {
    const tr = el("tr", { "data-move": m.move, "data-probability": String(m.probability) });
    tr.append(el("td", {}, m.move), el("td", {}, m.probability.toFixed(3)));
    t.appendChild(tr);
  }
  box.appendChild(t);
}

// ---- the tree -------------------------------------------------------

async function drawTree() {
  const box = $("tree");
  box.textContent = "drawing…";
  const r = await fetch("/api/tree?" + query({ depth: "2" }));
  if (!r.ok) {
    const j = await r.json();
    box.textContent = j.error;
    return;
  }
  const text = await r.text();
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  box.textContent = "";
  box.appendChild(document.importNode(doc.documentElement, true));
}

// ---- the chart ------------------------------------------------------

// The value of each position of the game so far, for the first player:
// the score (left axis, line) and the plies to the end (dots).
function drawChart() {
  const box = $("chart");
  box.textContent = "";
  const d = S.desc;
  const W = 500, H = 160, L = 44, R = 60, T = 10, B = 24;
  const root = svg("svg", { width: W, height: H, id: "chart-svg", role: "img", "aria-label": "value chart" });
  box.appendChild(root);
  const pts = [];
  for (let i = 0; i <= S.moves.length; i++) {
    const v = S.history[S.moves.slice(0, i).join(" ")];
    if (!v || typeof v.score !== "number") continue;
    const sign = v.to_move === d.players[0] ? 1 : v.to_move === d.players[1] ? -1 : 1;
    pts.push({ ply: i, score: sign * v.score, plies: v.plies });
  }
  const n = Math.max(S.moves.length, 1);
  const maxS = Math.max(1, ...pts.map((p) => Math.abs(p.score)));
  const maxP = Math.max(1, ...pts.map((p) => p.plies || 0));
  const X = (ply) => L + (W - L - R) * ply / n;
  const Y = (s) => T + (H - T - B) * (1 - (s + maxS) / (2 * maxS));
  const YP = (p) => T + (H - T - B) * (1 - p / maxP);
  root.appendChild(svg("line", { x1: L, y1: Y(0), x2: W - R, y2: Y(0), stroke: "#aaa" }));
  root.appendChild(svg("text", { x: 2, y: Y(maxS) + 4, "font-size": 10 }, "+" + num(maxS)));
  root.appendChild(svg("text", { x: 2, y: Y(-maxS) + 4, "font-size": 10 }, "-" + num(maxS)));
  root.appendChild(svg("text", { x: 2, y: Y(0) + 4, "font-size": 10 }, d.players[0]));
  root.appendChild(svg("text", { x: W - R + 4, y: YP(maxP) + 4, "font-size": 10 }, maxP + " plies"));
  root.appendChild(svg("text", { x: L, y: H - 6, "font-size": 10 }, "ply 0"));
  root.appendChild(svg("text", { x: W - R - 30, y: H - 6, "font-size": 10 }, "ply " + S.moves.length));
  if (pts.length) {
    root.appendChild(svg("polyline", { points: pts.map((p) => X(p.ply) + "," + Y(p.score)).join(" "),
                                       fill: "none", stroke: "#234", "stroke-width": 2 }));
    for (const p of pts) {
      root.appendChild(svg("circle", { cx: X(p.ply), cy: Y(p.score), r: 3, fill: "#234" }));
      if (p.plies !== null && p.plies !== undefined)
        root.appendChild(svg("rect", { x: X(p.ply) - 2, y: YP(p.plies) - 2, width: 4, height: 4, fill: "#c60" }));
    }
  }
}

start().catch((e) => setStatus("error: " + e.message, true));
