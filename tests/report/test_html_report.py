"""The HTML report (simkit.report.html, ``simkit report --html``): one offline page, sortable, filterable,
hover values, a replay behind each matchup cell; checked in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from results_folders import write_sweep_folder

from simkit.analysis import analyze
from simkit.cli import main
from simkit.report.html import HEATMAPS, html_report, html_table, table_data, write_html_report
from simkit.testing.synthetic import synthetic_results

ROOT = Path(__file__).resolve().parents[2]
A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "SalamanderShield:Archer,FrostDragon,Swordsman"
DECKS = [A, B, C]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _data(page: str) -> dict:
    """The page's one JSON blob: the decks, every table's columns, the heatmaps' specs, the replays."""
    return json.loads(page.split('id="page-data">', 1)[1].split("</script>", 1)[0])


@pytest.fixture(scope="module")
def synthetic():
    """Three decks, one planted strong, as a finished sweep's results."""
    return synthetic_results(DECKS, 30, {(A, B): 0.9, (A, C): 0.8}, seed=4, scenario_name="planted <pool> & co")


def test_page_is_one_self_contained_file(synthetic, tmp_path):
    """The page loads nothing from elsewhere (no link, no external script or image) and is the only file written."""
    out = write_html_report(analyze(synthetic, bootstrap=5), tmp_path / "r.html")
    page = out.read_text(encoding="utf-8")
    assert list(tmp_path.iterdir()) == [out]
    assert "<link" not in page and not re.search(r'src="(?!data:)', page)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    assert page.count("<script") == 2 and '<script type="application/json" id="page-data">' in page


def test_every_table_of_the_pdf_is_a_sortable_filterable_table(synthetic, tmp_path):
    """Flags, matchups, decks, first player, cards, card pairs, metagame and game shape each get a table with
    typed headers and a filter box."""
    page = write_html_report(analyze(synthetic, bootstrap=5), tmp_path / "r.html").read_text(encoding="utf-8")
    for name in ("flags", "matchups", "decks", "first_player", "cards", "card_pairs", "metagame", "game_shape"):
        assert f'<table class="data" id="t-{name}" data-table="{name}">' in page
        assert f'<input class="filter" data-for="t-{name}"' in page
    assert '<th data-col="win_rate" data-type="num">win_rate</th>' in page


def test_a_table_is_stored_as_compact_columns_each_name_once():
    """A table reaches the page as columns: a deck name repeated over its rows is written once (a dictionary and a
    code per row), numbers as numbers (rates to 5 decimals, NaN as null), each column with the kind that formats it."""
    tables = analyze(synthetic_results(DECKS, 10, {(A, B): 0.8}, seed=4), bootstrap=0)
    data = table_data(tables["matchups"])
    cols = {c["name"]: c for c in data["columns"]}
    assert data["rows"] == 9 and sorted(cols["deck"]["dict"]) == sorted(DECKS) and len(cols["deck"]["codes"]) == 9
    assert cols["win_rate"]["kind"] == "rate" and cols["games"]["kind"] == "int" and cols["mirror"]["kind"] == "bool"
    m = tables["matchups"]
    assert cols["win_rate"]["values"] == [round(float(v), 5) for v in m["win_rate"]]
    assert HEATMAPS["matchups"]["table"] == "matchups" and HEATMAPS["first_player"]["where"] == ["scope", "matchup"]


def test_names_are_escaped_in_tables_heatmaps_and_replays(tmp_path):
    """A deck or scenario name holding markup is shown as text: no raw tag reaches the page (the table shell escapes
    its headers, the data blob cannot close its script element, and the script writes every name as text)."""
    evil = 'Holy<script>alert("x")</script>:Archer'
    frame = synthetic_results([evil, A], 2, seed=1)[["first_deck"]].head(1).rename(columns={"first_deck": evil})
    table = html_table("decks", frame)
    assert "<script>" not in table and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in table
    results = synthetic_results([evil, A], 2, seed=1, scenario_name="<b>pool</b>")
    tables = analyze(results, bootstrap=0)
    n = len(tables["decks"])
    replays = {"decks": list(tables["decks"]["deck"]), "games": [
        {"d": 0, "o": 1, "f": 0, "s": 1, "fb": evil, "sb": "x", "seed": "1", "w": "first", "e": "x", "t": 1, "n": 1,
         "lines": [evil], "note": evil}], "cell": [0] * (n * n), "scenario": evil, "why": evil, "turn": "turn"}
    page = write_html_report(tables, tmp_path / "r.html", replays).read_text(encoding="utf-8")
    assert page.count("<script") == 2 and "<b>pool</b>" not in page and "</script>:Archer" not in page
    data = _data(page)
    assert data["replays"]["games"][0]["lines"] == [evil] and evil in data["decks"]
    assert "textContent" in page and "innerHTML" not in page


def test_without_the_scenario_file_cells_say_why_no_game_is_told(synthetic, tmp_path):
    """Results that do not name their scenario file still give a page; it says the games cannot be told."""
    folder = write_sweep_folder(synthetic, tmp_path / "results")
    out = html_report(folder, tmp_path / "r.html", bootstrap=5)
    page = out.read_text(encoding="utf-8")
    data = _data(page)["replays"]
    assert len(data["games"]) == 6 and all(g["lines"] is None for g in data["games"])
    assert "the results do not name their scenario file" in data["why"]
    assert "gives its game&#x27;s seed and the command that plays it (the results do not name" in page


def test_report_command_writes_the_page_by_suffix_or_beside_the_pdf(synthetic, tmp_path, capsys):
    """`-o r.html` writes only the page; `--html` writes it beside the PDF; a bad --html suffix is one line and
    nothing is written."""
    folder = write_sweep_folder(synthetic, tmp_path / "results")
    assert main(["report", str(folder), "-o", str(tmp_path / "only.html"), "--bootstrap", "5"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["only.html", "results"]
    assert main(["report", str(folder), "-o", str(tmp_path / "r.pdf"), "--html", str(tmp_path / "r.html"),
                 "--bootstrap", "5"]) == 0
    assert (tmp_path / "r.pdf").is_file() and (tmp_path / "r.html").is_file()
    assert f"html: {tmp_path / 'r.html'}" in capsys.readouterr().out
    assert main(["report", str(folder), "-o", str(tmp_path / "s.pdf"), "--html", str(tmp_path / "s.htm")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("must end in .html") and len(err.splitlines()) == 1
    assert not (tmp_path / "s.pdf").exists() and not (tmp_path / "s.htm").exists()


# -- a real sweep, in a real browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_page(tmp_path_factory):
    """The quick Miracle sweep on three decks, 2 games per pair, reported as HTML from the repository's folder
    (so the page can replay its games from the scenario file)."""
    folder = tmp_path_factory.mktemp("real")
    out = folder / "results"
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:Archer,Priest,VolcanoDragon",
             "WindBlessing:BlackBat,Priest,VolcanoDragon"]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        assert main(["sweep", "scenarios/miracle/quick.toml", "--games", "2", "--decks", *decks, "--workers", "1",
                     "--out", str(out)]) == 0
        page = html_report(out, folder / "report.html", bootstrap=5, replays=2)
    return page, decks


def _dom(page: Path, fragment: str, tmp_path: Path, width: int = 1400) -> tuple[str, list[str]]:
    """The DOM after the page's script ran at ``page#fragment`` in a window ``width`` pixels wide, and the console
    errors."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           f"--window-size={width},2000",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0", "--dump-dom",
           page.resolve().as_uri() + "#" + fragment]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    errors = [line for line in done.stderr.splitlines() if "CONSOLE" in line and ("Uncaught" in line or "rror" in line)]
    return done.stdout, errors


def _column(dom: str, table: str, column: int, hidden: bool = False) -> list[str]:
    """The cells of one column of a table in the dumped DOM, in row order (hidden rows left out unless asked)."""
    body = dom.split(f'id="t-{table}"', 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr( hidden=\"\")?>(.*?)</tr>", body.split("<tbody>", 1)[1])
    return [re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", cells)[column])  # a name's <wbr> breaks
            for flag, cells in rows if hidden or not flag]


def test_the_page_tells_two_real_games_and_gives_every_other_cell_its_command(real_page):
    """With --html-replays 2 two matchups are told turn by turn; every other cell carries its seed and command."""
    page, decks = real_page
    data = _data(page.read_text(encoding="utf-8"))["replays"]
    told = [g for g in data["games"] if g["lines"]]
    assert len(told) == 2 and all(g["lines"][0].startswith("turn 1") for g in told)
    assert sum(k >= 0 for k in data["cell"]) == 9 and data["scenario"] == "scenarios/miracle/quick.toml"
    assert "--html-replays N tells more" in data["why"]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_in_a_browser_tables_sort_filter_and_a_cell_opens_its_replay(real_page, tmp_path):
    """In headless Chromium, offline: the deck table sorts by win rate both ways, the matchup filter hides the
    rows without its words, and a matchup's replay opens with its narration; the console shows no error."""
    page, decks = real_page
    dom, errors = _dom(page, "sort=decks:win_rate:asc", tmp_path)
    assert errors == [] and 'data-ready="1"' in dom
    rates = [float(x.rstrip("%")) for x in _column(dom, "decks", 7)]
    assert rates == sorted(rates) and len(rates) == 3
    dom, _ = _dom(page, "sort=decks:win_rate:desc", tmp_path)
    assert [float(x.rstrip("%")) for x in _column(dom, "decks", 7)] == sorted(rates, reverse=True)
    dom, _ = _dom(page, "filter=matchups:WindBlessing", tmp_path)
    assert len(_column(dom, "matchups", 0)) == 5 and "5 of 9 rows" in dom
    assert all(decks[2] in (a, b) for a, b in zip(_column(dom, "matchups", 0), _column(dom, "matchups", 1)))
    data = _data(page.read_text(encoding="utf-8"))
    told, names = data["replays"], data["decks"]
    n = len(names)
    k = next(k for k, i in enumerate(told["cell"]) if i >= 0 and told["games"][i]["lines"])
    key = f"{names[k // n]}|{names[k % n]}"
    dom, errors = _dom(page, f"replay={key}", tmp_path)
    assert errors == []
    panel = dom.split('<aside id="replay"', 1)[1].split("</aside>", 1)[0]
    assert not panel.startswith(' hidden') and "turn 1 - first player" in panel
    game = told["games"][told["cell"][k]]
    assert (f"simkit play scenarios/miracle/quick.toml {names[game['f']]} {names[game['s']]} --bots "
            f"{game['fb']},{game['sb']} --seed {game['seed']} --render game.html") in panel
    assert dom.count('class="cell"') == 2 * 9 and "data-cells" in dom  # both heatmaps drawn, a cell per pair


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_a_120_deck_page_is_small_fits_1400_pixels_and_writes_numbers_where_they_fit(tmp_path):
    """A 120-deck pool (the Duel's size): the page stays under 5 MB (tables as compact columns, deck names once),
    shows 500 of its 14,400 matchup rows until filtered, draws every cell of both heatmaps within 1,400 pixels of
    width (no sideways scroll), without numbers at that size; a 3-deck page writes each cell's rate in it."""
    decks = [f"Lead{i // 12}:Card{i % 12},Other{i % 7},Third{i % 5}" for i in range(120)]
    tables = analyze(synthetic_results(decks, 1, seed=2), bootstrap=0)
    out = write_html_report(tables, tmp_path / "big.html")
    assert out.stat().st_size < 5_000_000
    dom, errors = _dom(out, "", tmp_path, width=1400)
    assert errors == [] and 'data-ready="1"' in dom
    assert int(re.search(r'data-width="(\d+)"', dom).group(1)) <= 1400
    assert dom.count('data-cells="14400"') == 2 and 'class="v"' not in dom
    assert "14,400 of 14,400 rows (the first 500 shown" in dom and len(_column(dom, "matchups", 0)) == 500
    small = write_html_report(analyze(synthetic_results(DECKS, 10, {(A, B): 0.8}, seed=4), bootstrap=0),
                              tmp_path / "small.html")
    dom, _ = _dom(small, "", tmp_path, width=1400)
    assert dom.count('class="v"') == 2 * 9  # every cell of both heatmaps carries its number


def test_representative_games_choose_as_the_game_pages_do(synthetic):
    """The page's replay of every matchup is the game the PDF's game pages would show for it (wins counted alike),
    mirrors included."""
    from simkit.report.games import representative_game
    from simkit.report.html import representative_games

    chosen = representative_games(synthetic)
    assert len(chosen) == 9
    for (deck, opponent), row in chosen.iterrows():
        game, wins = representative_game(synthetic, deck, opponent)
        assert (row["game"], row["wins"]) == (game.name, wins)


@pytest.mark.parametrize("scenario, decks", [
    ("scenarios/duel/quick.toml", ["Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom"]),
    ("scenarios/krypton/quick.toml", ["Archer+Archer", "Archer+Knight"]),
    ("scenarios/magic/base.toml", ["Sanctuary:Pikeman*2,Priest,Swordsman*3",
                                   "Sanctuary:Crusader*2,Pikeman,Swordsman*2"]),
])
def test_every_game_gets_a_page_with_a_told_replay(scenario, decks, tmp_path):
    """The Duel, Krypton and Magic War: a two-deck sweep's page tells a matchup's game turn by turn through the
    game's own narrate capability, and names its replay command."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        assert main(["sweep", scenario, "--games", "1", "--decks", *decks, "--workers", "1",
                     "--out", str(tmp_path / "results")]) == 0
        page = html_report(tmp_path / "results", tmp_path / "r.html", bootstrap=0, replays=1)
    data = _data(page.read_text(encoding="utf-8"))["replays"]
    told = [g for g in data["games"] if g["lines"]]
    assert len(told) == 1 and len(told[0]["lines"]) > 5
    assert data["scenario"] == scenario
