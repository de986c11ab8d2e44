"""Make the illustrative demo map ``maps/demo/map.json`` (seeded: same bytes every run).

Run from the repository root::

    .venv/bin/python maps/demo/make_demo.py            # rewrites maps/demo/map.json
    .venv/bin/python maps/demo/make_demo.py OUT.json   # writes elsewhere

Every hex fact that 000_3d79f68a6e3e33eb.txt states is placed exactly (cited
below and in the JSON); everything else (sea, woods, marsh, rough ground,
villages, roads, trails, ditches, minefields) is invented so the demo looks
like a map, and the document says so (``"illustrative": true``). See README.md.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path
from typing import Any

from pipeline.hexgrid import HexGrid, Numbering, Orientation, distance
from pipeline.model import map_from_data, save_json

HERE = Path(__file__).resolve().parent
RULEBOOK = "000_3d79f68a6e3e33eb.txt"
SEED = 1944
COLS, ROWS = 25, 22
GRID = HexGrid(Orientation.FLAT, Numbering(stagger="even-down"), cols=COLS, rows=ROWS)

# -- facts from the rulebook ---------------------------------------------------------
OMAHA_BEACH = ["2318", "2319", "2219", "2120", "2121", "2122"]  # 000 §11.0, §11.2.1
POINTE_DU_HOC = "2417"  # 000 §11.0, §11.2.3
TREVIERS = ["1718"]  # 000 §11.1.4, §13.0
ISIGNY = ["1811", "1911"]  # 000 §11.1.4, §13.0
CAUMONT = ["0421"]  # 000 §11.1.4, §13.0
ST_LO = ["0608", "0609", "0709"]  # 000 §13.0 "St Lo city hexes"
RIVER_ENDS = ("2108", "0805")  # 000 §10.1 Douve/Taute "coursing from hex 2108 to 0805"
BOUNDARY_LINE = ["0705", "0604", "0504", "0404", "0304", "0204", "0104"]  # 000 §10.1
SCH30_ENTRY = "1005"  # 000 §11.1.2

CITIES = {**{h: "Treviers" for h in TREVIERS}, **{h: "Isigny" for h in ISIGNY},
          **{h: "Caumont" for h in CAUMONT}, **{h: "St Lo" for h in ST_LO}}
FACT_HEXES = set(OMAHA_BEACH) | {POINTE_DU_HOC} | set(CITIES)

# -- invented: where the sea begins in each row (beyond the Omaha beach hexes) --------
SEA_FROM = {r: 22 for r in range(1, 7)} | {r: 23 for r in range(7, 13)} | {
    r: 24 for r in range(13, 17)} | {17: 25, 18: 24, 19: 24, 20: 22, 21: 22, 22: 22}


def hid(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def colrow(hex_id: str) -> tuple[int, int]:
    return int(hex_id[:2]), int(hex_id[2:])


def neighbours(hex_id: str) -> list[str]:
    return GRID.ids(GRID.neighbours(GRID.hex(hex_id)))


def is_sea(hex_id: str) -> bool:
    col, row = colrow(hex_id)
    return col >= SEA_FROM[row]


def river_bank_row(col: int) -> int:
    """First row east of the Douve/Taute in a column (the river runs along its north side)."""
    return round(5 + (col - 8) * 3 / 13)  # 0805 ... 2108, 000 §10.1


def river_hexsides() -> list[tuple[str, str]]:
    """Hexsides between the east bank (rows >= bank) and the west bank, columns 08-21."""
    sides: set[tuple[str, str]] = set()
    for col in range(8, 22):
        for row in range(1, ROWS + 1):
            here = hid(col, row)
            east = row >= river_bank_row(col)
            for other in neighbours(here):
                ocol, orow = colrow(other)
                if 8 <= ocol <= 21 and east and orow < river_bank_row(ocol):
                    sides.add((here, other) if here < other else (other, here))
    return sorted(sides)


def path(*waypoints: str) -> list[str]:
    """Hexes from waypoint to waypoint, each step to the neighbour nearest the next one.

    Ties go to the lower id. Own routing rather than ``HexGrid.line`` keeps the
    demo's bytes independent of how the geometry library breaks ties.
    """
    out = [waypoints[0]]
    for target in waypoints[1:]:
        goal = GRID.hex(target)
        while out[-1] != target:
            here = GRID.hex(out[-1])
            out.append(min(neighbours(out[-1]),
                           key=lambda n: (distance(GRID.hex(n), goal), n)))
            assert distance(GRID.hex(out[-1]), goal) < distance(here, goal)
    return out


def grow(rng: random.Random, start: str, size: int, allowed: set[str]) -> set[str]:
    """A random blob of up to ``size`` hexes from ``start`` (woods, marsh, rough)."""
    blob = {start}
    frontier = [start]
    while frontier and len(blob) < size:
        here = frontier.pop(rng.randrange(len(frontier)))
        for other in sorted(neighbours(here)):
            if other in allowed and other not in blob and rng.random() < 0.55:
                blob.add(other)
                frontier.append(other)
    return blob


def make() -> dict[str, Any]:
    rng = random.Random(SEED)
    every = GRID.ids(GRID.hexes())
    sea = {h for h in every if is_sea(h)}
    land = [h for h in every if h not in sea]
    free = {h for h in land if h not in FACT_HEXES}

    terrain: dict[str, list[str]] = {h: ["all_sea"] for h in sea}
    for h in OMAHA_BEACH:
        terrain[h] = ["beach"]
    terrain[POINTE_DU_HOC] = ["rough"]  # the cliff: invented terrain, fact hex
    for h in CITIES:
        terrain[h] = ["city"]
    forts = {"2218", "2021"}  # invented strongpoints adjacent to Omaha beach hexes
    free -= forts

    marsh_zone = {h for h in free if 15 <= colrow(h)[0] <= 21 and 6 <= colrow(h)[1] <= 12}
    for seed in ("1909", "1708", "2010"):
        for h in grow(rng, seed, 5, marsh_zone):
            terrain[h] = ["marsh"]
    rough_zone = {h for h in free if colrow(h)[0] <= 5 and colrow(h)[1] >= 14}
    for seed in ("0317", "0219", "0516"):
        for h in grow(rng, seed, 4, rough_zone):
            terrain.setdefault(h, ["rough"])
    open_land = sorted(h for h in free if h not in terrain)
    for _ in range(16):  # bocage-ish woods
        seed = rng.choice(open_land)
        for h in grow(rng, seed, rng.randint(2, 6), set(open_land)):
            terrain.setdefault(h, ["woods"])
    for h in forts:
        terrain[h] = ["clear", "fortification"]
    village_sites = [h for h in sorted(free) if terrain.get(h, ["clear"])[0] in ("clear", "woods")
                     and not set(neighbours(h)) & set(CITIES) and h not in forts]
    for h in rng.sample(village_sites, 8):
        terrain[h] = [*terrain.get(h, ["clear"]), "village"]

    hexes: dict[str, dict[str, Any]] = {}
    for h, kinds in terrain.items():
        if kinds == ["clear"]:
            continue
        entry: dict[str, Any] = {"terrain": kinds}
        if h in CITIES:
            entry["name"] = CITIES[h]
            entry["note"] = f"{RULEBOOK} §13.0: city hex of {CITIES[h]}"
        if h in TREVIERS + ISIGNY + CAUMONT:
            entry["features"] = ["victory_location"]
        if h in OMAHA_BEACH:
            entry["note"] = f"{RULEBOOK} §11.0, §11.2.1: Omaha beach hex"
        if h == POINTE_DU_HOC:
            entry["name"] = "Pointe du Hoc"
            entry["note"] = (f"{RULEBOOK} §11.0, §11.2.3: the Ranger assault hex; no German"
                             " set-up here. Its terrain (rough) is invented")
        hexes[h] = entry

    features: dict[tuple[str, str], set[str]] = {}
    for side in river_hexsides():
        features.setdefault(side, set()).add("river")
    roads = [
        path("0709", "1211", "1811"), path("1811", "1911"),
        path("0709", "1214", "1718", "2120"), path("1911", "1916", "1718"),
        path("0609", "0515", "0421", "0121"), path("1811", "1906", "2004"),
        path("0608", "0405", "0303"),
    ]
    trails = [path("1005", "1309", "1211"), path("0913", "1217", "1420")]
    for kind, routes in (("road", roads), ("trail", trails)):
        for route in routes:
            for a, b in itertools.pairwise(route):
                assert not is_sea(a) and not is_sea(b), (kind, a, b)
                side = (a, b) if a < b else (b, a)
                features.setdefault(side, set()).add(kind)
    for a, b in (("2218", "2318"), ("2021", "2121"), ("2021", "2122")):  # invented mines
        features.setdefault((a, b), set()).add("minefield")
    for a, b in (("1613", "1614"), ("1513", "1613"), ("1413", "1513")):  # invented ditch
        features.setdefault((a, b), set()).add("ditch")
    order = ["road", "trail", "river", "ditch", "minefield", "bridge"]
    hexsides: list[dict[str, Any]] = [
        {"hexes": list(side), "features": sorted(kinds, key=order.index)}
        for side, kinds in sorted(features.items())
    ]
    # The road from Caumont leaves the map: a map-edge hexside (hex + direction).
    hexsides.append({"hex": "0121", "direction": "SW", "features": ["road"],
                     "note": "invented: the road leaves the map here"})

    cite = f"{RULEBOOK}"
    return {
        "kind": "map",
        "game": "omaha",
        "title": "D-Day Omaha Beach: Beach to Bocage (illustrative demo map)",
        "illustrative": True,
        "notes": (
            "Invented demo data, made by maps/demo/make_demo.py (seed 1944). Only the hexes"
            f" and hexsides that {RULEBOOK} names are facts (see locations and the hex notes);"
            " the sea, woods, marsh, rough ground, villages, fortifications, roads, trails,"
            " ditches and minefields are invented. Columns run west to east and rows north to"
            " south, even columns half a hex down (SCENARIOS.md §1); that is a convention of"
            " the demo, not a statement about the printed map."
        ),
        "source": f"{RULEBOOK} §10.1, §11.0, §11.1.2, §11.1.4, §11.2.1, §11.2.3, §13.0",
        "boards": [{
            "name": "omaha",
            "grid": {"orientation": "flat",
                     "numbering": {"stagger": "even-down"}, "cols": COLS, "rows": ROWS},
            "note": ("Beach to Bocage / Landing and Linkup map (000 §10.1):"
                     " 25 x 22 is the demo's size"),
        }],
        "terrain_types": {
            "clear": {"color": "#e9e4c3", "note": f"{cite} §5.4: 1 MP"},
            "woods": {"color": "#5b8a3c"},
            "rough": {"color": "#a88b63"},
            "marsh": {"color": "#8fb5a8"},
            "city": {"color": "#b5463c"},
            "beach": {"color": "#f2dc9b"},
            "village": {"color": "#c98b6b", "note": "'+N' terrain (SCENARIOS.md §2.1)"},
            "fortification": {"color": "#5f5f5f", "note": f"{cite} §8.2.3"},
            "all_sea": {"color": "#5e8fc4", "note": f"{cite} §8.3: prohibited terrain"},
        },
        "hexside_features": {
            "road": {"kind": "across", "color": "#8c1c13", "note": f"{cite} §5.4.1"},
            "trail": {"kind": "across", "color": "#9a6a3a",
                      "note": f"{cite} §5.4.2, §10.1 errata"},
            "river": {"kind": "along", "color": "#2e62b5", "note": f"{cite} §8.2.2, §10.1"},
            "ditch": {"kind": "along", "color": "#6b5233", "note": f"{cite} §8.2.2"},
            "minefield": {"kind": "along", "color": "#c81e1e", "note": f"{cite} §6.1 Exception"},
            "bridge": {"kind": "across", "color": "#333333",
                       "note": f"road + river; {cite} §8.2.2: a bridge wherever a road"
                       " crosses a river"},
        },
        "hex_features": {
            "victory_location": {"color": "#e0b000",
                                 "note": f"{cite} §13.0 Allied victory locations; how the"
                                 " printed map marks them is not stated"},
        },
        "default_terrain": "clear",
        "hexes": hexes,
        "hexsides": hexsides,
        "locations": [
            {"name": "Omaha Beach", "kind": "beach", "hexes": OMAHA_BEACH,
             "cite": f"{cite} §11.0, §11.2.1"},
            {"name": "Pointe du Hoc", "kind": "landmark", "hexes": [POINTE_DU_HOC],
             "cite": f"{cite} §11.0, §11.2.3", "note": "German units may not set up here"},
            {"name": "Treviers", "kind": "city", "hexes": TREVIERS,
             "cite": f"{cite} §11.1.4, §13.0"},
            {"name": "Isigny", "kind": "city", "hexes": ISIGNY, "cite": f"{cite} §11.1.4, §13.0"},
            {"name": "Caumont", "kind": "city", "hexes": CAUMONT,
             "cite": f"{cite} §11.1.4, §13.0"},
            {"name": "St Lo", "kind": "city", "hexes": ST_LO, "cite": f"{cite} §13.0",
             "note": "the Allies need two units adjacent to these hexes"},
            {"name": "Douve/Taute River", "kind": "river", "hexes": list(RIVER_ENDS),
             "cite": f"{cite} §10.1", "note": "the river coursing from hex 2108 to 0805; no unit"
             " may set up or move west of it (the hexsides are under hexsides, feature river)"},
            {"name": "Scenario boundary", "kind": "boundary", "hexes": BOUNDARY_LINE,
             "cite": f"{cite} §10.1",
             "note": "no unit may set up or move west of this line of hexes"},
            {"name": "Sch/30 entry hex", "kind": "entry", "hexes": [SCH30_ENTRY],
             "cite": f"{cite} §11.1.2", "note": "Sch/30 Infantry Regiment arrives here on GT 1"},
        ],
        "edges": {
            "south": {"role": "reinforcement_entry", "side": "german", "cite": f"{cite} §11.1.2",
                      "note": "most German reinforcements arrive via the south edge, in hexes not"
                      " enemy-occupied, not in an EZOC and not west of Marigny (Marigny's hex is"
                      " not in the text); which demo edge is south follows SCENARIOS.md §1"},
        },
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else HERE / "map.json"
    doc = map_from_data(make(), "maps/demo/map.json (generated)")
    save_json(doc, out)
    sys.stdout.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
