"""lab/krypton_end_rules.py: a small run of every step (the sweeps, the lock replay, the variants paired with the base
game by game) whose figures must agree with each other where the rules say they must."""

from __future__ import annotations

import json

from lab_module import load


def test_the_locks_and_each_end_rule_agree_with_the_base_games(tmp_path, capsys):
    """Under the utility bots the lock-draw variant ends exactly the games the replay found locked and changes no
    other game; base-damage's wins at the cap are the base's draws it decided; every locked game was a draw."""
    figures = tmp_path / "ends.json"
    assert load("krypton_end_rules").main(["--locks", "balanced,balanced:1", "--compare", "tuned,tuned:1",
                                           "--workers", "1", "--out", str(tmp_path / "sweeps"),
                                           "--json", str(figures)]) == 0
    doc = json.loads(figures.read_text())
    assert doc["script"] == "lab/krypton_end_rules.py" and doc["matchups"]["bots"] == "tuned,tuned"
    assert [k["bots"] for k in doc["locks"]] == ["balanced,balanced", "tuned,tuned"]
    for k in doc["locks"]:
        assert k["games"] == 36 and k["locked_won"] == 0 and k["draws_locked"] == k["locked"] <= k["draws"]
    assert sum(r["games"] for r in doc["matchups"]["rows"]) == 36
    rules = {r["variant"]: r for r in doc["end_rules"]}
    assert set(rules) == {"lock-draw", "base-damage", "sudden-death", "siege"}
    tuned = doc["locks"][1]
    lock = rules["lock-draw"]
    assert lock["ends"]["lock"] == tuned["locked"] and lock["unchanged_outside_locks"]
    assert lock["draws"]["change"] == 0 and lock["rounds"]["change"] <= 0
    damage = rules["base-damage"]
    assert round(36 * damage["draws"]["before"]) - round(36 * damage["draws"]["after"]) == damage["won_at_cap"]
    assert damage["rounds"]["change"] == 0
    assert rules["sudden-death"]["ends"]["lock"] == 0 and rules["siege"]["ends"]["lock"] == 0
    assert capsys.readouterr().out.count(" games locked (") == 2
