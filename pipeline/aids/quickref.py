"""A quick reference of the movement, ZOC, stacking and supply rules, read from the code.

Each line is the first sentence of the docstring of a method of the game's
rules system (:mod:`pipeline.rules.systems`) with the rulebook sections that
docstring cites, so the printed sheet says what the validator does and cannot
drift from it. Methods whose docstring cites no section (``§``) are left out;
a system none of whose methods cite one has no quick reference. A rulebook
without section numbers (the tactical player aid, 002) is cited by the opening
words of its paragraphs: there a line carries the paragraphs the method's own
code cites in its answers (``self.cite(STACKING)``).

>>> lines = quickref_lines("fm_omaha")
>>> [(x.topic, x.rule) for x in lines if x.method == "exerts_zoc"]
[('Zones of control', '000 §6.0')]
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

from pipeline.aids.page import Cell, Flow, Page, paper_points
from pipeline.rules.systems import system_for

__all__ = ["TOPICS", "RefLine", "first_sentence", "quickref_lines", "quickref_pages"]

TOPICS = ("Movement", "Zones of control", "Stacking", "Supply", "Line of sight")
HEAD = (232, 238, 246)
SECTION = re.compile(r"§\s?\d+(?:\.\d+)*(?:-§?\d+(?:\.\d+)*)?")
_NOT_RULEBOOK = re.compile(r"(?:SCENARIOS|RULINGS)\.md\s+§\s?[\d.]+")
_LEADING_CITE = re.compile(r"^(?:\d{3}\s+)?§[\d.§,/\s-]*(?:and\s+§[\d.]+\s*)?:\s*")
_MOVEMENT_WORDS = ("allowance", "cost", "move", "enter", "start", "stop", "prohibit", "bridge",
                   "barred", "one_hex", "mobile", "mechanized", "wooded", "short_of_mp",
                   "two_thirds", "stream", "entry", "block", "road", "overrun")
_LOS_WORDS = ("los", "elevation", "hilltop")
_CITE_CALL = re.compile(r"self\.cite\(\s*([A-Z][A-Z0-9_]*)\b")


@dataclass(frozen=True)
class RefLine:
    """One printed line: topic, the sections (``000 §6.1, §6.2``) and the rule in words."""

    topic: str
    rule: str
    text: str
    method: str

    @property
    def sections(self) -> list[str]:
        """The section numbers cited, without the ``§``: ``['6.1', '6.2']``."""
        found = [s.lstrip("§").strip() for s in SECTION.findall(self.rule)]
        return [part.lstrip("§") for s in found for part in s.split("-")]


def topic_of(method: str) -> str | None:
    """The topic a method of a rules system belongs to, or ``None`` (not on the sheet).

    >>> topic_of("zoc_reaches"), topic_of("end"), topic_of("_supply_open"), topic_of("los")
    ('Zones of control', 'Stacking', 'Supply', 'Line of sight')
    >>> topic_of("cite") is None
    True
    """
    name = method.lower()
    if name.strip("_").split("_")[0] in _LOS_WORDS or "hilltop" in name:
        return "Line of sight"
    if "supply" in name:
        return "Supply"
    if "stack" in name or name == "end":
        return "Stacking"
    if "zoc" in name:
        return "Zones of control"
    if any(word in name for word in _MOVEMENT_WORDS):
        return "Movement"
    return None


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line.

    >>> first_sentence('001 §6.0: a ZOC covers "terrain, e.g. the Caen Canal".\\n\\nReading: x.')
    '001 §6.0: a ZOC covers "terrain, e.g. the Caen Canal".'
    >>> first_sentence("003 §6.1 one division a hex; §6.2 too. §9 free: one HQ.")
    '003 §6.1 one division a hex; §6.2 too.'
    """
    paragraph = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
    match = re.search(r"\.(?=\s+[A-Z0-9§\"])", paragraph)
    return paragraph[:match.end()] if match else paragraph


def quickref_lines(system: str) -> list[RefLine]:
    """The sheet's lines for a system id, by topic then in the order of the source."""
    cls = type(system_for(system))
    code = cls.code
    lines: list[RefLine] = []
    for name, member in vars(cls).items():
        func = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
        doc = getattr(func, "__doc__", None)
        topic = topic_of(name)
        if not callable(func) or not doc or topic is None:
            continue
        sentence = first_sentence(doc)
        cited = SECTION.findall(_NOT_RULEBOOK.sub("", sentence))
        if cited:
            sections = list(dict.fromkeys(s.replace(" ", "") for s in cited))
            rule = f"{code} {', '.join(sections)}" if code else ", ".join(sections)
        else:
            paragraphs = _paragraphs_cited(func) if cls.cites_paragraphs else []
            if not paragraphs:
                continue
            rule = f"{code} " + "; ".join(f"§{p}" for p in paragraphs)
        plain = re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence).replace("``", "")
        text = _LEADING_CITE.sub("", plain) or plain
        if text.count('"') % 2:  # the sentence ended inside a quotation: close it
            text += '"'
        lines.append(RefLine(topic, rule, text[0].upper() + text[1:], name))
    return sorted(lines, key=lambda x: TOPICS.index(x.topic))


def _paragraphs_cited(func: object) -> list[str]:
    """The paragraph openings a method's code cites (``self.cite(NAME)`` with ``NAME`` a
    string of its module), in the order they first appear."""
    module = inspect.getmodule(func)
    try:
        source = inspect.getsource(func)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return []
    found = [getattr(module, name, None) for name in _CITE_CALL.findall(source)]
    return list(dict.fromkeys(p for p in found if isinstance(p, str)))


def quickref_pages(system: str, game: str = "", paper: str = "letter") -> list[Page]:
    """Lay out the quick reference of ``system`` on portrait pages of ``paper``.

    Empty when the system's code cites no sections.
    """
    lines = quickref_lines(system)
    if not lines:
        return []
    title = f"Quick Reference ({game or system})"
    flow = Flow(paper_points(paper), title=title)
    flow.heading(title)
    flow.paragraph(f"Movement, zones of control, stacking, supply and line of sight as the"
                   f" bocage validator applies them (rules system '{system}'), each with its"
                   f" rulebook section.", 8)
    # Paragraph openings (002) need a wider rule column than section numbers.
    rule_w = 92.0 if all(len(x.rule) <= 28 for x in lines) else 170.0
    widths = [rule_w, flow.width - rule_w]
    for topic in TOPICS:
        chosen = [x for x in lines if x.topic == topic]
        if not chosen:
            continue
        flow.heading(topic, 11)
        rows = [[Cell("Rule", HEAD, "bold", "left"), Cell("What the validator checks", HEAD,
                                                            "bold", "left")]]
        rows += [[Cell(x.rule, None, "bold", "left"), Cell(x.text, None, "text", "left")]
                 for x in chosen]
        flow.table(widths, rows, header=1, size=8)
    return flow.pages
