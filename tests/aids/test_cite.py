"""Citations on the aids: the game's title and section (from the rules profile), not a file."""

from __future__ import annotations

import pytest

from pipeline.aids import make_aids
from pipeline.aids.cite import Rulebook, cite_text
from pipeline.model import load_rules

from .conftest import MAPS, pdf_text

OMAHA = Rulebook("000_3d79f68a6e3e33eb.txt", "D-Day Omaha Beach")


@pytest.mark.parametrize("text, printed", [
    ("000_3d79f68a6e3e33eb.txt §6.1", "D-Day Omaha Beach §6.1"),
    ("(000 §5.4 example: +1)", "(D-Day Omaha Beach §5.4 example: +1)"),
    ("000_3d79f68a6e3e33eb.txt (Fire & Movement system rules §1-§9)",
     "D-Day Omaha Beach (Fire & Movement system rules §1-§9)"),
    ("000 §12.0, 000 §9.0", "D-Day Omaha Beach §12.0, D-Day Omaha Beach §9.0"),
    # Another rulebook, a number that only ends in 000, a code with no section: as they are.
    ("003 §10.3 and 003_de9c41aeffe9bb98.txt §5.6", "003 §10.3 and 003_de9c41aeffe9bb98.txt §5.6"),
    ("1000 §3 and 2.000 §4", "1000 §3 and 2.000 §4"),
    ("hex 0001 holds 000 units", "hex 0001 holds 000 units"),
])
def test_a_citation_of_the_rulebook_prints_as_the_title(text, printed):
    assert OMAHA.cite(text) == printed


def test_the_profile_gives_the_title_and_its_source_the_file():
    assert Rulebook.of(load_rules(MAPS / "demo" / "rules.json")) == OMAHA
    assert Rulebook.of(load_rules(MAPS / "cobra" / "rules.json")) == Rulebook(
        "003_de9c41aeffe9bb98.txt", "Cobra")
    untitled = load_rules(MAPS / "tactical" / "rules.json")
    assert untitled.title == "" and Rulebook.of(untitled) is None
    assert cite_text("002 §x", None) == "002 §x"


def test_every_demo_aid_cites_the_game_not_the_file(tmp_path):
    written = make_aids(MAPS / "demo", tmp_path, map_dpi=20)
    texts = {p.stem: " ".join(pdf_text(p).split()) for p in written if p.suffix == ".pdf"}
    assert "Terrain Effects Chart (D-Day Omaha Beach)" in texts["tec"]
    assert ("Source: D-Day Omaha Beach (Fire & Movement system rules §1-§9, exclusive rules"
            " §10-§15)") in texts["tec"]
    assert "(D-Day Omaha Beach §5.4)" in texts["tec"]
    assert "Source: D-Day Omaha Beach §10.2, §11.0-§11.2" in texts["oob"]
    assert "D-Day Omaha Beach §11.2.4" in texts["track"]
    for stem in ("tec", "track", "oob"):
        assert "000_3d79f68a6e3e33eb.txt" not in texts[stem], stem
        assert "000 §" not in texts[stem], stem


def test_a_game_with_a_crt_cites_it_by_title_there_too(tmp_path):
    make_aids(MAPS / "omaha", tmp_path, map_dpi=12)
    crt = " ".join(pdf_text(tmp_path / "crt.pdf").split())
    assert "Source: D-Day Omaha Beach Combat Results Table, §8.1.2" in crt
    assert "000_3d79f68a6e3e33eb.txt" not in crt


def test_without_a_title_the_file_name_stays(tmp_path):
    make_aids(MAPS / "tactical", tmp_path, map_dpi=12)
    assert "002_9cac1969b0421155.txt" in pdf_text(tmp_path / "tec.pdf")
