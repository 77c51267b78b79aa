"""The HTML report's inline style and script (no CDN, no file beside the page: it opens offline).

The script makes every ``table.data`` sortable (click a header; again to reverse) and filterable
(the box above it keeps the rows holding its words), shows a heatmap cell's values on hover and
opens the replay of a matchup on click. The page's address can ask for a view, so a designer can
send a link to one (and a headless browser can test one): ``#sort=TABLE:COLUMN:asc|desc``,
``#filter=TABLE:WORDS``, ``#replay=DECK|OPPONENT``, joined with ``&``.
"""

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px;
       padding: 0 18px 60px; color: #1b1b1b; }
h1 { font-size: 24px; margin: 22px 0 4px; } h2 { font-size: 18px; margin: 30px 0 8px; border-bottom: 1px solid #ddd; }
p.verdict { font-size: 17px; font-weight: 600; margin: 10px 0 12px; padding: 8px 12px; border-left: 5px solid;
            max-width: 1100px; }
p.verdict.balanced { color: #1e6b35; border-color: #1e6b35; background: #eef7f0; }
p.verdict.not-balanced { color: #a3281d; border-color: #a3281d; background: #fbefed; }
p.verdict.not-settled { color: #7a5200; border-color: #c58a00; background: #fdf6e6; }
nav a { margin-right: 12px; } .facts { color: #555; font-size: 12.5px; } .warn { color: #b03a2e; font-weight: 600; }
ul.headlines li { margin: 3px 0; } .note { color: #555; font-size: 12.5px; max-width: 900px; }
input.filter { margin: 6px 0; padding: 4px 8px; width: 320px; font: inherit; }
table.data { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
table.data th { background: #f2f2f2; cursor: pointer; user-select: none; position: sticky; top: 0; text-align: left;
                padding: 4px 8px; border-bottom: 1px solid #bbb; white-space: nowrap; }
table.data th.asc::after { content: " \\25B2"; } table.data th.desc::after { content: " \\25BC"; }
table.data td { padding: 3px 8px; border-bottom: 1px solid #eee; white-space: nowrap; }
table.data td.num { text-align: right; } table.data tr:hover td { background: #f6f9fc; }
.scroll { max-height: 520px; overflow: auto; display: inline-block; border: 1px solid #ddd; }
svg.heatmap rect.cell { cursor: pointer; } svg.heatmap rect.cell:hover { stroke: #000; stroke-width: 1.5; }
svg.heatmap text { font-size: 10px; fill: #333; }
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
const REPLAYS = JSON.parse(document.getElementById("replay-data").textContent);
function cellValue(td) { const v = td.dataset.v; return v === undefined ? td.textContent : v; }
function sortTable(table, col, dir) {
  const ths = Array.from(table.tHead.rows[0].cells);
  const k = ths.findIndex(th => th.dataset.col === col);
  if (k < 0) return false;
  const numeric = ths[k].dataset.type === "num";
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    let x = cellValue(a.cells[k]), y = cellValue(b.cells[k]);
    if (numeric) { x = x === "" ? NaN : Number(x); y = y === "" ? NaN : Number(y);
      if (isNaN(x) && isNaN(y)) return 0; if (isNaN(x)) return 1; if (isNaN(y)) return -1;
      return dir === "asc" ? x - y : y - x; }
    return dir === "asc" ? String(x).localeCompare(String(y)) : String(y).localeCompare(String(x));
  });
  rows.forEach(r => body.appendChild(r));
  ths.forEach(th => th.classList.remove("asc", "desc"));
  ths[k].classList.add(dir);
  table.dataset.sorted = col + ":" + dir;
  return true;
}
function filterTable(table, words) {
  const want = words.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const row of table.tBodies[0].rows) {
    const text = row.textContent.toLowerCase();
    const keep = want.every(w => text.includes(w));
    row.hidden = !keep; if (keep) shown += 1;
  }
  table.dataset.shown = String(shown);
  const count = document.querySelector(`[data-count-for="${table.id}"]`);
  if (count) count.textContent = `${shown} of ${table.tBodies[0].rows.length} rows`;
}
function shellQuote(s) {  // as Python's shlex.quote
  return s === "" ? "''" : (/^[\w@%+=:,.\/-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\"'\"'") + "'");
}
function openReplay(key) {
  const r = REPLAYS.games[REPLAYS.cells[key]];
  const panel = document.getElementById("replay");
  if (!r) return false;
  const D = REPLAYS.decks, deck = D[r.d], opp = D[r.o];
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
  panel.dataset.open = key;
  return true;
}
document.querySelectorAll("table.data").forEach(table => {
  table.tHead.rows[0].querySelectorAll("th").forEach(th => th.addEventListener("click", () => {
    const dir = th.classList.contains("desc") ? "asc" : (th.classList.contains("asc") ? "desc" :
      (th.dataset.type === "num" ? "desc" : "asc"));
    sortTable(table, th.dataset.col, dir);
  }));
  filterTable(table, "");
});
document.querySelectorAll("input.filter").forEach(box => box.addEventListener("input", () =>
  filterTable(document.getElementById(box.dataset.for), box.value)));
const tip = document.getElementById("tip");
document.querySelectorAll("svg.heatmap rect.cell").forEach(cell => {
  cell.addEventListener("mousemove", e => { tip.textContent = cell.firstChild.textContent; tip.style.display = "block";
    tip.style.left = (e.clientX + 14) + "px"; tip.style.top = (e.clientY + 14) + "px"; });
  cell.addEventListener("mouseleave", () => { tip.style.display = "none"; });
  if (cell.dataset.replay) cell.addEventListener("click", () => openReplay(cell.dataset.replay));
});
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
    if (what === "replay") openReplay(arg);
  }
}
window.addEventListener("hashchange", applyHash);
applyHash();
document.body.dataset.ready = "1";
"""
