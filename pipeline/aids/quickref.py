"""A quick reference of a game's movement, ZOC, stacking, supply and LOS rules, from its profile.

Each line is a rule the validator applies to the game, in words, with the citation
its answers give (:func:`pipeline.rules.explain.explain`): the rules the game's
``rules.json`` says, by the topic of their section, then the procedures its rule
system declares. Nothing is read from method names, so a game's sheet says only what
its own profile and system say, citing its own rulebook. The terrain costs are left
to the Terrain Effects Chart (:mod:`pipeline.aids.tec`).

>>> from pipeline.model import load_rules
>>> from pathlib import Path
>>> omaha = load_rules(Path(__file__).resolve().parents[2] / "maps" / "omaha" / "rules.json")
>>> [(x.topic, x.rule) for x in quickref_lines(omaha) if x.key == "zoc.ezoc_to_ezoc_barred"]
[('Zones of control', '000 §6.1 Exception')]
"""

from __future__ import annotations

from pipeline.aids.page import Cell, Flow, Page, paper_points
from pipeline.model import RulesProfile
from pipeline.rules.explain import TOPICS, RuleLine, explain

__all__ = ["TOPICS", "quickref_lines", "quickref_pages"]

HEAD = (232, 238, 246)
# What the Terrain Effects Chart prints already.
_ON_THE_TEC = frozenset({"terrain", "hexsides"})


def quickref_lines(profile: RulesProfile) -> list[RuleLine]:
    """The sheet's lines for a game's profile, by topic, in the order of the profile."""
    return [x for x in explain(profile) if x.key not in _ON_THE_TEC]


def quickref_pages(profile: RulesProfile, paper: str = "letter") -> list[Page]:
    """Lay out the quick reference of a game on portrait pages of ``paper``."""
    lines = quickref_lines(profile)
    if not lines:
        return []
    title = f"Quick Reference ({profile.game})"
    flow = Flow(paper_points(paper), title=title)
    flow.heading(title)
    flow.paragraph("Movement, zones of control, stacking, supply and line of sight as the"
                   f" bocage validator applies them to {profile.game} (rules system"
                   f" '{profile.system}'), each with its rulebook section.", 8)
    # Paragraph headings (002) need a wider rule column than section numbers.
    rule_w = 92.0 if all(len(x.rule or "") <= 28 for x in lines) else 170.0
    widths = [rule_w, flow.width - rule_w]
    for topic in TOPICS:
        chosen = [x for x in lines if x.topic == topic]
        if not chosen:
            continue
        flow.heading(topic, 11)
        rows = [[Cell("Rule", HEAD, "bold", "left"), Cell("What the validator checks", HEAD,
                                                            "bold", "left")]]
        rows += [[Cell(x.rule or "", None, "bold", "left"), Cell(x.text, None, "text", "left")]
                 for x in chosen]
        flow.table(widths, rows, header=1, size=8)
    return flow.pages
