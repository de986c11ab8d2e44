"""SequenceEncoder and piece definitions, against the reference's facts and the real samples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from pipeline.errors import ModuleError
from pipeline.vassal.encoding import (
    Decoder,
    PieceDefinition,
    Trait,
    basic_piece,
    decode,
    delete_trait,
    encode,
    encode_exact,
    flip_layer,
    marker,
    named_key,
    prototype,
    report_state,
)
from tests.vassal.conftest import SAMPLE_FILES, reference

# A backslash ending an item that is not last is the one thing VASSAL cannot read back.
NASTY = ["<&\"'/;,\\x", "Côte 192 — Ωmega", "'quoted'", "\\lead", "a\tb", "9/2", "x,y;z/w", ""]

# Reference §6.1, with TAB written as \t and each backslash doubled.
WORKED_EXAMPLE = (
    "+/null/emb2;;128;A;Flip;128;;;128;;;;1;false;0;0;4th_Armd_front.png,4th_Armd_back.png;"
    ",+ (reduced);true;Step;;;false;;1;1;true;;57344,0,Flip;;;1.0;;true\tmark;Movement\\\t"
    "mark;Defense\\\\\tmark;Attack\\\\\\\tprototype;Unit\\\\\\\\\tpiece;;;4th_Armd_front.png;"
    "4th Armd Div/1\t8\\\t4\\\\\t6\\\\\\\t\\\\\\\\\tnull;0;0;1;0"
)
UNIT_PROTOTYPE = ("+/null/report;57344\\,0\\,Flip;$location$: $newPieceName$ flipped *;;;;false"
                  "\tdelete;Delete;68,130;\\\tpiece;;;;/-1\t\\\tnull;0;0;;0")


def test_encoder_escapes_delimiters_and_quotes_like_vassal():
    assert encode(["A", "B,C"], ",") == "A,B\\,C"  # the Javadoc example
    assert encode(["'q'"], ";") == "''q''"
    assert encode(["\\x", "y"], ";") == "'\\x';y"
    assert encode(["", None, "z"], ";") == ";;z"
    assert encode([], ";") == ""


def test_decoder_quirks():
    assert decode("a;", ";") == ["a", ""]  # trailing delimiter: a final empty item
    assert decode("", ";") == [""]
    assert decode("''q'';'", ";") == ["'q'", "'"]  # one pair of quotes removed, not a lone one
    d = Decoder("1;2", ";")
    assert (d.next(), d.next(), d.next("x"), d.has_more()) == ("1", "2", "x", False)
    with pytest.raises(ValueError):
        d.next()


@pytest.mark.parametrize("delimiter", [";", ",", "/", "\t", "$"])
def test_nasty_items_survive(delimiter):
    assert decode(encode(NASTY, delimiter), delimiter) == NASTY


@given(st.lists(st.text(alphabet="ab;,/\\'\t é", max_size=6), min_size=1, max_size=5))
def test_round_trip_unless_an_item_ends_with_a_backslash(items):
    text = encode(items, ";")
    ends_badly = any(i.endswith("\\") and not i.startswith("\\") for i in items[:-1])
    if not ends_badly:
        assert decode(text, ";") == items
        assert encode(decode(text, ";"), ";") == text


@given(st.lists(st.text(alphabet="ab;,/\t é", max_size=6), min_size=1, max_size=6),
       st.sampled_from([";", ",", "/", "\t"]))
def test_items_without_backslash_or_quote_always_read_back(items, delimiter):
    """The case encode_exact does not decode to check (most of a module's traits)."""
    assert decode(encode_exact(items, delimiter), delimiter) == items


def test_encode_exact_refuses_what_vassal_cannot_read_back():
    with pytest.raises(ModuleError, match="backslash"):
        encode_exact(["ends\\", "next"], ";", "a name")


def test_worked_example_is_reproduced_byte_for_byte():
    piece = PieceDefinition((
        flip_layer("4th_Armd_front.png", "4th_Armd_back.png"),
        marker("Movement", "8"), marker("Defense", "4"), marker("Attack", "6"),
        prototype("Unit"), basic_piece("4th_Armd_front.png", "4th Armd Div", 1)))
    assert piece.encode() == WORKED_EXAMPLE
    assert PieceDefinition.decode(WORKED_EXAMPLE) == piece
    proto = PieceDefinition((report_state([named_key("Flip")],
                                          "$location$: $newPieceName$ flipped *"),
                             delete_trait(), basic_piece("", "")))
    assert proto.encode() == UNIT_PROTOTYPE


def test_names_with_special_characters_survive_a_whole_definition():
    name = "<&\"'/;,\\ Côte-Ωmega"
    piece = PieceDefinition((flip_layer("a,b.png", "c;d.png"), marker("Ünit/Id", name),
                             prototype("Allied; unit"), basic_piece("ß.png", name, 7)))
    text = piece.encode()
    back = PieceDefinition.decode(text)
    assert back == piece and back.encode() == text
    assert back.traits[-1].fields == ["", "", "ß.png", name]
    assert decode(back.traits[1].state, ",") == [name]
    assert decode(back.traits[0].fields[15], ",") == ["a,b.png", "c;d.png"]


def test_type_and_state_counts_must_match():
    text = "+/null/mark;A\tpiece;;;;/1"
    assert PieceDefinition.split(text)[1:] == (["mark;A", "piece;;;;"], ["1"])
    with pytest.raises(ModuleError, match="2 trait types but 1 states"):
        PieceDefinition.decode(text)
    with pytest.raises(ModuleError, match="starts with"):
        PieceDefinition.decode("piece;;;;")


def test_trait_id_and_fields():
    t = Trait("emb2;;128;A", "1")
    assert (t.id, t.fields) == ("emb2;", ["", "128", "A"])
    assert Trait("stack").id == "stack"


def _sample_texts():
    for name in SAMPLE_FILES:
        path = reference("vassal-samples", name)
        root = etree.parse(str(path), etree.XMLParser(resolve_entities=False)).getroot()
        for element in root.iter("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot",
                                 "VASSAL.build.module.PrototypeDefinition"):
            text = "".join(element.xpath("text()")).strip()
            if text:
                yield text


def test_every_sample_definition_round_trips_byte_for_byte():
    texts = list(_sample_texts())
    assert len(texts) == 3094  # reference §7: every definition of the three samples
    for text in texts:
        piece = PieceDefinition.decode(text)
        assert piece.encode() == text
        for trait in piece.traits:
            if trait.id not in ("mark;",) and ";" in trait.type:
                head = trait.type.split(";", 1)[0]
                assert encode([head, *trait.fields], ";") == trait.type
