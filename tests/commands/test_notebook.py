"""notebooks/balance.ipynb runs: its code cells, in order, in a fresh interpreter, on a real results folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from results_folders import write_sweep_folder

from simkit.testing.synthetic import synthetic_results

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "balance.ipynb"
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "WindBlessing:BlackBat,Priest,VolcanoDragon"]

# what running the notebook's cells takes without jupyter: each cell's source, in order, in one namespace
RUNNER = """
import json, sys
cells = json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
for i, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
    exec(compile("".join(cell["source"]), f"{sys.argv[1]} code cell {i + 1}", "exec"), globals())
"""


def test_the_notebook_is_a_notebook_of_markdown_and_code():
    """The file is an nbformat-4 notebook whose code cells carry no stored output (it is run, not read)."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    kinds = [c["cell_type"] for c in nb["cells"]]
    assert kinds.count("code") >= 4 and kinds[0] == "markdown"
    assert all(c["outputs"] == [] for c in nb["cells"] if c["cell_type"] == "code")


def test_the_notebook_runs_on_a_sweep_folder(tmp_path):
    """Its code cells run top to bottom on a results folder: they load the sweep, print its games and the strongest
    deck's worst matchup, and save the plot."""
    strong = {(DECKS[0], DECKS[1]): 0.9, (DECKS[0], DECKS[2]): 0.9}
    folder = write_sweep_folder(synthetic_results(DECKS, 10, strong, seed=3, scenario_name="three decks"),
                                tmp_path / "results")
    env = {**os.environ, "SIMKIT_RESULTS": str(folder), "SIMKIT_FIGURE": str(tmp_path / "balance.png"),
           "MPLBACKEND": "Agg", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", RUNNER, str(NOTEBOOK)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "three decks: 90 games, 3 decks, bots ['synthetic', 'synthetic']"
    assert lines[1].startswith(f"{DECKS[0]}: worst matchup ")
    assert (tmp_path / "balance.png").stat().st_size > 10_000
