"""A self-contained HTML replay page: frames embedded as base64 PNG, a slider and a play button.

The page needs no network: no external script, style sheet, font or image. Its script sets the
frame counter (``id="counter"``, ``"frame 1 / N"``) when it runs, which a headless browser test
reads back to know the script ran.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ font-family: sans-serif; margin: 12px; color: #222; background: #fafafa; }}
  h1 {{ font-size: 15px; margin: 0 0 8px 0; }}
  #controls {{ display: flex; align-items: center; gap: 10px; margin: 6px 0; flex-wrap: wrap; }}
  #slider {{ flex: 1 1 420px; }}
  #counter {{ font-variant-numeric: tabular-nums; min-width: 9em; }}
  #label {{ font-size: 13px; min-height: 1.3em; margin: 4px 0; }}
  #board {{ max-width: 100%; height: auto; border: 1px solid #ddd; background: white; }}
  button {{ font-size: 13px; min-width: 4.5em; }}
  .help {{ font-size: 11px; color: #777; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="controls">
  <button id="play" type="button">play</button>
  <button id="prev" type="button">&#9664;</button>
  <input id="slider" type="range" min="0" max="{last}" value="0" step="1" aria-label="frame">
  <button id="next" type="button">&#9654;</button>
  <span id="counter"></span>
  <span id="turn"></span>
</div>
<div id="label"></div>
<img id="board" alt="board" src="">
<p class="help">Drag the slider or use the arrow keys; space plays and pauses. {count} frames, one per {per}.</p>
<script>
"use strict";
const FRAMES = {frames};
const LABELS = {labels};
const TURNS = {turns};
const SECONDS = {seconds};
const img = document.getElementById("board");
const slider = document.getElementById("slider");
const counter = document.getElementById("counter");
const turn = document.getElementById("turn");
const label = document.getElementById("label");
const play = document.getElementById("play");
let timer = null;
function show(i) {{
  i = Math.max(0, Math.min(FRAMES.length - 1, i));
  slider.value = i;
  img.src = "data:image/png;base64," + FRAMES[i];
  counter.textContent = "frame " + (i + 1) + " / " + FRAMES.length;
  turn.textContent = "turn " + TURNS[i];
  label.textContent = LABELS[i];
}}
function stop() {{
  if (timer !== null) {{ clearInterval(timer); timer = null; }}
  play.textContent = "play";
}}
function start() {{
  if (Number(slider.value) >= FRAMES.length - 1) show(0);
  play.textContent = "pause";
  timer = setInterval(function () {{
    const i = Number(slider.value) + 1;
    if (i >= FRAMES.length) {{ stop(); return; }}
    show(i);
  }}, SECONDS * 1000);
}}
play.addEventListener("click", function () {{ timer === null ? start() : stop(); }});
document.getElementById("prev").addEventListener("click", function () {{ stop(); show(Number(slider.value) - 1); }});
document.getElementById("next").addEventListener("click", function () {{ stop(); show(Number(slider.value) + 1); }});
slider.addEventListener("input", function () {{ stop(); show(Number(slider.value)); }});
document.addEventListener("keydown", function (e) {{
  if (e.key === "ArrowLeft") {{ stop(); show(Number(slider.value) - 1); }}
  else if (e.key === "ArrowRight") {{ stop(); show(Number(slider.value) + 1); }}
  else if (e.key === " ") {{ e.preventDefault(); timer === null ? start() : stop(); }}
}});
show(0);
</script>
</body>
</html>
"""


def _script_json(value) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` can close it early)."""
    return json.dumps(value, ensure_ascii=True).replace("</", "<\\/")


def html_page(
    pngs: Sequence[bytes],
    labels: Sequence[str],
    title: str,
    seconds: float,
    turns: Sequence[int],
    per: str = "turn",
) -> str:
    """The replay page as one HTML string.

    Args:
        pngs: the frames as PNG files, in order.
        labels: one line per frame, shown under the controls.
        title: the page's title and heading.
        seconds: how long each frame shows while playing.
        turns: the game turn of each frame, shown beside the counter.
        per: what one frame stands for (``"turn"`` or ``"action"``), for the help line.

    Returns:
        The page; it references nothing outside itself.

    Raises:
        ValueError: no frames, or ``labels``/``turns`` not one per frame.
    """
    if not pngs:
        raise ValueError("a replay page needs at least one frame")
    if len(labels) != len(pngs) or len(turns) != len(pngs):
        raise ValueError(f"{len(pngs)} frames need as many labels and turns, got {len(labels)} and {len(turns)}")
    frames = [base64.b64encode(p).decode("ascii") for p in pngs]
    return _PAGE.format(
        title=html.escape(title),
        last=len(frames) - 1,
        count=len(frames),
        per=html.escape(per),
        frames=_script_json(frames),
        labels=_script_json(list(labels)),
        turns=_script_json([int(t) for t in turns]),
        seconds=_script_json(float(seconds)),
    )


__all__ = ["html_page"]
