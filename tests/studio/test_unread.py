"""A map whose terrains have no printed colour opens with no reading: the page shows the
grid and takes labels until the learner has an example of every terrain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import DataError
from pipeline.studio import Workspace, page_state
from tests.studio.conftest import foreign_game


def test_a_map_with_no_colours_and_no_labels_is_labelled_into_a_reading(tmp_path: Path):
    truth = foreign_game("keybox", tmp_path / "keybox", per_terrain=0)
    setup = json.loads((Path(__file__).resolve().parents[2] / "bench" /
                        "foreign_setup.json").read_text())["keybox"]
    workspace = Workspace(tmp_path / "keybox")
    state = page_state(workspace)
    assert len(state["hexes"]) == len(truth["hexes"]) == 432
    assert all(h["terrain"] == [] and h["confidence"] is None for h in state["hexes"])
    missing = state["reading"]["missing"]
    assert "no example yet of" in missing and "press its terrain's key" in missing
    assert all(t in missing for t in setup["legend"]["terrain"])  # each one named
    assert state["suggested"] == [] and state["findings"] == []
    assert {t["name"] for t in state["terrainTypes"]} == set(setup["legend"]["terrain"])
    with pytest.raises(DataError, match="no example yet of"):
        workspace.document_data()  # nothing to save yet, and it says why
    terrains = list(setup["samples"])
    for n, terrain in enumerate(terrains):
        hex_id = setup["samples"][terrain][0]
        workspace.set_terrain(hex_id, terrain, workspace.version)
        state = page_state(workspace)
        given = {h["id"]: h for h in state["hexes"]}[hex_id]
        assert given["terrain"] == [terrain]
        assert state["version"] == n + 1 and state["reading"]["taught"] == n + 1
        if n < len(terrains) - 1:  # the terrains still without an example are named
            lacking = state["reading"]["missing"].split("no example yet of ")[1]
            assert terrain not in lacking.split(":")[0] and terrains[-1] in lacking, n
    # One example of each terrain: there is a reading, of every hex.
    assert "missing" not in state["reading"]
    read = [h for h in state["hexes"] if h["terrain"]]
    assert len(read) == 432 and all(h["confidence"] is not None or h["provenance"] != "read"
                                    for h in read)
    right = sum(h["terrain"][0] == truth["hexes"][h["id"]]["terrain"] for h in read)
    assert right >= 0.5 * len(read)
    # Taking a label back leaves the map without a reading again, and says why.
    first = setup["samples"][terrains[0]][0]
    workspace.set_terrain(first, None, workspace.version)
    assert "no example yet of" in page_state(workspace)["reading"]["missing"]
