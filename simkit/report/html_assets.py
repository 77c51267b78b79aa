"""The HTML report's inline style and script (no CDN, no file beside the page: it opens offline).

The script reads the page's one JSON blob (``#page-data``: the decks, every table as compact columns, the
heatmaps' specs, the replays), fills every ``table.data`` from it (at most ``shown`` rows at once), makes it
sortable (click a header; again to reverse) and filterable (the box above it keeps the rows holding its words),
draws each heatmap as SVG sized to the page's width (each cell's value written in it where it fits, its value,
interval and games on hover) and opens the replay of a matchup on click. The page's address can ask for a view,
so a designer can send a link to one (and a headless browser can test one): ``#sort=TABLE:COLUMN:asc|desc``,
``#filter=TABLE:WORDS``, ``#replay=DECK|OPPONENT``, joined with ``&``.
"""

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px;
       padding: 0 18px 60px; color: #1b1b1b; overflow-wrap: anywhere; }
h1 { font-size: 24px; margin: 22px 0 4px; } h2 { font-size: 18px; margin: 30px 0 8px; border-bottom: 1px solid #ddd; }
p.verdict { font-size: 17px; font-weight: 600; margin: 10px 0 12px; padding: 8px 12px; border-left: 5px solid; }
p.verdict.balanced { color: #1e6b35; border-color: #1e6b35; background: #eef7f0; }
p.verdict.not-balanced { color: #a3281d; border-color: #a3281d; background: #fbefed; }
p.verdict.not-settled { color: #7a5200; border-color: #c58a00; background: #fdf6e6; }
p.playing { font-size: 14px; margin: 0 0 12px; padding: 6px 12px; border-left: 5px solid #1f4e79; background: #f1f5fa; }
nav a { margin-right: 12px; } .facts { color: #555; font-size: 12.5px; } .warn { color: #b03a2e; font-weight: 600; }
ul.headlines li { margin: 3px 0; } .note { color: #555; font-size: 12.5px; max-width: 900px; }
input.filter { margin: 6px 0; padding: 4px 8px; width: 320px; max-width: 90%; font: inherit; }
table.data { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
table.data th { background: #f2f2f2; cursor: pointer; user-select: none; position: sticky; top: 0; text-align: left;
                padding: 4px 8px; border-bottom: 1px solid #bbb; white-space: nowrap; }
table.data th.asc::after { content: " \\25B2"; } table.data th.desc::after { content: " \\25BC"; }
table.data td { padding: 3px 8px; border-bottom: 1px solid #eee; white-space: nowrap; }
table.data td.text { white-space: normal; min-width: 9em; max-width: 30em; }
table.data td.num { text-align: right; } table.data tr:hover td { background: #f6f9fc; }
.scroll { max-height: 520px; overflow: auto; display: inline-block; max-width: 100%; border: 1px solid #ddd; }
div.heatmap { width: 100%; overflow: hidden; margin: 6px 0 10px; }
svg.heatmap rect.cell { cursor: pointer; } svg.heatmap text { fill: #333; }
svg.heatmap text.v { pointer-events: none; }
.scale { font-size: 12.5px; margin: 4px 0; } .scale span { vertical-align: middle; }
.scale .bar { display: inline-block; width: 220px; height: 12px; margin: 0 6px; border: 1px solid #bbb;
              background: linear-gradient(to right, rgb(178,24,43), rgb(247,247,247), rgb(33,102,172)); }
#tip { position: fixed; pointer-events: none; background: #222; color: #fff; padding: 5px 8px; border-radius: 4px;
       font-size: 12px; display: none; max-width: 420px; z-index: 10; }
#replay { position: fixed; right: 0; top: 0; bottom: 0; width: min(640px, 92vw); background: #fff;
          border-left: 2px solid #444; box-shadow: -4px 0 16px rgba(0,0,0,.2); padding: 10px 16px; overflow: auto;
          z-index: 5; }
#replay[hidden] { display: none; } #replay pre { font-size: 11.5px; white-space: pre-wrap; }
#replay code { font-size: 11.5px; display: block; background: #f4f4f4; padding: 6px; white-space: pre-wrap; }
#replay button { float: right; font: inherit; }
"""

SCRIPT = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("page-data").textContent);
const DECKS = DATA.decks, N = DECKS.length, REPLAYS = DATA.replays, SHOWN = DATA.shown;
const DECK = new Map(DECKS.map((d, i) => [d, i]));
const TABLES = {};
function value(col, i) { return col.codes ? col.dict[col.codes[i]] : col.values[i]; }
function fmt(col, v) {
  if (v === null || v === undefined) return "";
  switch (col.kind) {
    case "rate": return (100 * v).toFixed(1) + "%";
    case "points": return (v >= 0 ? "+" : "") + (100 * v).toFixed(1);
    case "p": return v < 0.001 ? "< 0.001" : v.toFixed(3);
    case "int": return v.toLocaleString("en-US");
    case "bool": return v ? "yes" : "no";
    case "float": return Math.abs(v) >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3)));
    default: return String(v);
  }
}
function rowText(t, i) {
  if (t.texts[i] === undefined) t.texts[i] = t.data.columns.map(c => fmt(c, value(c, i))).join(" ").toLowerCase();
  return t.texts[i];
}
function breakable(td, text) {  // a long deck name may wrap after its commas, plus and colon, never inside a card
  const parts = text.split(/(?<=[,+:])/);
  parts.forEach((part, k) => { td.appendChild(document.createTextNode(part));
    if (k < parts.length - 1) td.appendChild(document.createElement("wbr")); });
}
function renderTable(t) {
  const keep = t.words.length ? t.order.filter(i => t.words.every(w => rowText(t, i).includes(w))) : t.order;
  const frag = document.createDocumentFragment();
  for (const i of keep.slice(0, SHOWN)) {
    const tr = document.createElement("tr");
    for (const c of t.data.columns) {
      const td = document.createElement("td"), v = value(c, i);
      if (c.kind === "text") { td.className = "text"; breakable(td, fmt(c, v)); }
      else { td.textContent = fmt(c, v); td.className = "num"; td.dataset.v = v === null ? "" : String(v); }
      tr.appendChild(td);
    }
    frag.appendChild(tr);
  }
  t.el.tBodies[0].replaceChildren(frag);
  t.el.dataset.shown = String(keep.length);
  const count = document.querySelector(`[data-count-for="${t.el.id}"]`);
  if (count) count.textContent = `${keep.length.toLocaleString("en-US")} of ${t.data.rows.toLocaleString("en-US")} ` +
    "rows" + (keep.length > SHOWN ? ` (the first ${SHOWN} shown: type words to narrow)` : "");
}
function sortTable(el, col, dir) {
  const t = TABLES[el.id], c = t && t.byName[col];
  if (!c) return false;
  const numeric = c.kind !== "text";
  t.order.sort((a, b) => {
    const x = value(c, a), y = value(c, b);
    if (numeric) {
      if (x === null && y === null) return 0; if (x === null) return 1; if (y === null) return -1;
      return dir === "asc" ? x - y : y - x; }
    return dir === "asc" ? String(x).localeCompare(String(y)) : String(y).localeCompare(String(x));
  });
  const ths = Array.from(el.tHead.rows[0].cells);
  ths.forEach(th => th.classList.toggle("asc", th.dataset.col === col && dir === "asc"));
  ths.forEach(th => th.classList.toggle("desc", th.dataset.col === col && dir === "desc"));
  el.dataset.sorted = col + ":" + dir;
  renderTable(t);
  return true;
}
function filterTable(el, words) {
  const t = TABLES[el.id];
  if (!t) return;
  t.words = words.toLowerCase().split(/\s+/).filter(Boolean);
  renderTable(t);
}
document.querySelectorAll("table.data").forEach(el => {
  const data = DATA.tables[el.dataset.table];
  if (!data) return;
  const t = {el, data, byName: {}, order: Array.from({length: data.rows}, (_, i) => i), words: [], texts: []};
  data.columns.forEach(c => { t.byName[c.name] = c; });
  TABLES[el.id] = t;
  el.tHead.rows[0].querySelectorAll("th").forEach(th => th.addEventListener("click", () => {
    const dir = th.classList.contains("desc") ? "asc" : (th.classList.contains("asc") ? "desc" :
      (th.dataset.type === "num" ? "desc" : "asc"));
    sortTable(el, th.dataset.col, dir);
  }));
  renderTable(t);
});
document.querySelectorAll("input.filter").forEach(box => box.addEventListener("input", () =>
  filterTable(document.getElementById(box.dataset.for), box.value)));
function shellQuote(s) {  // as Python's shlex.quote
  return s === "" ? "''" : (/^[\w@%+=:,.\/-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\"'\"'") + "'");
}
function openReplay(i, j) {
  const k = REPLAYS.cell ? REPLAYS.cell[i * N + j] : undefined;
  const r = k === undefined || k < 0 ? undefined : REPLAYS.games[k];
  if (!r) return false;
  const panel = document.getElementById("replay"), D = DECKS, deck = D[r.d], opp = D[r.o];
  const why = r.d === r.o ? "the mirror's median-length game" : "the median-length game of the " +
    (r.n ? `${r.n} ${deck} won` : "pairing (no win)");
  document.getElementById("replay-title").textContent = r.d === r.o ? `${deck} (mirror)` : `${deck} vs ${opp}`;
  document.getElementById("replay-about").textContent = `${D[r.f]} first (${r.fb}) vs ${D[r.s]} second (${r.sb}), ` +
    `seed ${r.seed}: ${why}; ${r.w} won on ${REPLAYS.turn} ${r.t} (${r.e}).` + (r.note ? " " + r.note : "");
  document.getElementById("replay-command").textContent = ["simkit", "play", REPLAYS.scenario, D[r.f], D[r.s],
    "--bots", `${r.fb},${r.sb}`, "--seed", r.seed, "--render", "game.html"].concat(
    REPLAYS.bots_from ? ["--bots-from", REPLAYS.bots_from] : []).map(shellQuote).join(" ");
  document.getElementById("replay-text").textContent = r.lines ? r.lines.join("\n") : REPLAYS.why;
  panel.hidden = false;
  panel.dataset.open = deck + "|" + opp;
  return true;
}
const SVG = "http://www.w3.org/2000/svg";
function colourOf(x) {  // a value in [-1, 1] on the PDF's red-white-blue scale (red: the row deck loses); NaN grey
  if (!Number.isFinite(x)) return "#d9d9d9";
  const f = Math.min(1, Math.abs(x)), to = x >= 0 ? [33, 102, 172] : [178, 24, 43], white = [247, 247, 247];
  return "rgb(" + white.map((w, k) => Math.round(w + (to[k] - w) * f)).join(",") + ")";
}
function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
const tip = document.getElementById("tip");
function drawHeatmap(holder) {
  const spec = DATA.maps[holder.dataset.map], data = DATA.tables[spec.table];
  if (!data || !N) return;
  const by = {}; data.columns.forEach(c => { by[c.name] = c; });
  const v = new Float64Array(N * N).fill(NaN), lo = new Float64Array(N * N).fill(NaN),
    hi = new Float64Array(N * N).fill(NaN), games = new Int32Array(N * N), grey = new Uint8Array(N * N);
  for (let r = 0; r < data.rows; r++) {
    if (spec.where && value(by[spec.where[0]], r) !== spec.where[1]) continue;
    const i = DECK.get(value(by[spec.row], r)), j = DECK.get(value(by[spec.col], r));
    if (i === undefined || j === undefined) continue;
    for (const k of spec.both ? [i * N + j, j * N + i] : [i * N + j]) {
      const x = value(by[spec.value], r);
      v[k] = x === null ? NaN : x; lo[k] = value(by.low, r) ?? NaN; hi[k] = value(by.high, r) ?? NaN;
      games[k] = value(by.games, r) || 0;
      if (spec.grey && value(by[spec.grey], r)) grey[k] = 1;
    }
  }
  const [s0, mid, s1] = spec.scale, half = (s1 - s0) / 2;
  const width = Math.max(300, holder.clientWidth || 1100);
  const longest = Math.min(48, Math.max(4, ...DECKS.map(d => d.length))), charW = 6.4;
  let size = Math.min(42, Math.floor((width - longest * charW - 20) / N));
  const labels = size >= 8;  // room for the names beside the rows and above the columns; else the hover names them
  if (!labels) size = Math.max(3, Math.floor((width - 12) / N));
  const font = Math.min(11, size), side = labels ? Math.ceil(longest * font * 0.58) + 8 : 4;
  const top = labels ? side : 4, W = side + N * size + 4, H = top + N * size + 4;
  const svg = el("svg", {class: "heatmap", width: W, height: H, viewBox: `0 0 ${W} ${H}`});
  const short = d => d.length <= 48 ? d : d.slice(0, 47) + "\u2026";
  if (labels) DECKS.forEach((d, i) => {
    const row = el("text", {x: side - 4, y: top + i * size + size / 2 + font * 0.35, "text-anchor": "end",
      "font-size": font}, short(d));
    row.appendChild(el("title", {}, d)); svg.appendChild(row);
    const x = side + i * size + size / 2 + font * 0.35;
    const col = el("text", {transform: `translate(${x},${top - 4}) rotate(-90)`, "font-size": font}, short(d));
    col.appendChild(el("title", {}, d)); svg.appendChild(col);
  });
  const rate = spec.kind === "rate", write = size >= 22;
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    const k = i * N + j, x = v[k];
    if (Number.isNaN(x) && !games[k]) continue;
    const c = grey[k] ? NaN : (x - mid) / half;
    svg.appendChild(el("rect", {class: "cell", x: side + j * size, y: top + i * size, width: size - 1,
      height: size - 1, fill: colourOf(c)}));
    if (write && Number.isFinite(x)) {
      const text = rate ? String(Math.round(100 * x)) : (x >= 0 ? "+" : "") + Math.round(100 * x);
      svg.appendChild(el("text", {class: "v", x: side + j * size + (size - 1) / 2, y: top + i * size + size / 2 + 4,
        "text-anchor": "middle", "font-size": Math.min(12, size / 2.4), fill: Math.abs(c) > 0.6 ? "#fff" : "#222"},
        text));
    }
  }
  function at(e) {
    const box = svg.getBoundingClientRect(), j = Math.floor((e.clientX - box.left - side) / size),
      i = Math.floor((e.clientY - box.top - top) / size);
    return i >= 0 && j >= 0 && i < N && j < N ? [i, j] : null;
  }
  svg.addEventListener("mousemove", e => {
    const p = at(e); const k = p ? p[0] * N + p[1] : -1;
    if (!p || (Number.isNaN(v[k]) && !games[k])) { tip.style.display = "none"; return; }
    const [a, b] = [DECKS[p[0]], DECKS[p[1]]], n = `${games[k].toLocaleString("en-US")} games`;
    tip.textContent = rate ? `${a} vs ${b}: ${(100 * v[k]).toFixed(1)}% (95% CI ${(100 * lo[k]).toFixed(1)}-` +
      `${(100 * hi[k]).toFixed(1)}%), ${n}` + (grey[k] ? " (mirror)" : "") + "; click for a replay" :
      `${a} vs ${b}: first seat ${fmt({kind: "points"}, v[k])} points (95% CI ${fmt({kind: "points"}, lo[k])} to ` +
      `${fmt({kind: "points"}, hi[k])}), ${n}`;
    tip.style.display = "block"; tip.style.left = (e.clientX + 14) + "px"; tip.style.top = (e.clientY + 14) + "px";
  });
  svg.addEventListener("mouseleave", () => { tip.style.display = "none"; });
  svg.addEventListener("click", e => { const p = at(e); if (p) openReplay(p[0], p[1]); });
  holder.replaceChildren(svg);
  holder.dataset.cells = String(svg.querySelectorAll("rect.cell").length);
}
function drawHeatmaps() { document.querySelectorAll("div.heatmap").forEach(drawHeatmap); }
drawHeatmaps();
let resized = 0;
window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(drawHeatmaps, 200); });
document.getElementById("replay-close").addEventListener("click", () => {
  document.getElementById("replay").hidden = true; });
function applyHash() {
  for (const part of decodeURIComponent(location.hash.slice(1)).split("&")) {
    const eq = part.indexOf("="); if (eq < 0) continue;
    const what = part.slice(0, eq), arg = part.slice(eq + 1);
    if (what === "sort") { const [t, c, d] = arg.split(":"); const table = document.getElementById("t-" + t);
      if (table) sortTable(table, c, d === "asc" ? "asc" : "desc"); }
    if (what === "filter") { const i = arg.indexOf(":"); const table = document.getElementById("t-" + arg.slice(0, i));
      if (table) { const box = document.querySelector(`input[data-for="${table.id}"]`);
        if (box) box.value = arg.slice(i + 1); filterTable(table, arg.slice(i + 1)); } }
    if (what === "replay") { const [a, b] = arg.split("|"); if (DECK.has(a) && DECK.has(b)) openReplay(DECK.get(a),
      DECK.get(b)); }
  }
}
window.addEventListener("hashchange", applyHash);
applyHash();
document.body.dataset.width = String(document.documentElement.scrollWidth);
document.body.dataset.ready = "1";
"""
