"""``buildFile.xml`` and ``moduledata`` in VASSAL 3.6's vocabulary, from a :class:`ModulePlan`.

The plan says what the module holds; this module only spells it the way
VASSAL reads it (reference ``vassal-format.md`` §2, §3, §10): tags are Java
class names, attributes are written sorted (VASSAL applies them sorted
anyway), piece definitions are element *text* (never CDATA, never
attributes), every map gets the helper components that make pieces draggable
and menus appear, and the root ``nextPieceSlotId`` is above every gpid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# lxml ships no type hints; the ignore stays harmless if lxml-stubs is installed.
from lxml import etree  # type: ignore[import-untyped, unused-ignore]

from pipeline.errors import ModuleError
from pipeline.vassal.encoding import PieceDefinition
from pipeline.vassal.grid import GridPlan

__all__ = [
    "VASSAL_VERSION",
    "BoardPlan",
    "ModulePlan",
    "SlotPlan",
    "StackPlan",
    "build_file_xml",
    "moduledata_xml",
]

# A 3.6 version loads in 3.6 and 3.7; "3.7.x" is refused by 3.6 (reference §1).
VASSAL_VERSION = "3.6.19"
M = "VASSAL.build.module."
MAP = M + "map."
BP = MAP + "boardPicker."
W = "VASSAL.build.widget."
# Without these a map built from XML shows pieces that cannot be dragged,
# selected or right-clicked (reference §2).
MAP_HELPERS = ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer",
               "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer")


@dataclass(frozen=True)
class SlotPlan:
    """A ``PieceSlot``: label, gpid, image size, definition."""

    entry_name: str
    gpid: int
    width: int
    height: int
    definition: PieceDefinition


@dataclass(frozen=True)
class BoardPlan:
    """A board: its name, image file (in ``images/``) and grid, and where the map's
    default board layout puts it (column, row), if it has one."""

    name: str
    image: str
    grid: GridPlan
    slot: tuple[int, int] | None = None


@dataclass(frozen=True)
class StackPlan:
    """An at-start stack on a board's grid location, at that location's point."""

    name: str
    board: str
    location: str
    x: int
    y: int
    slots: tuple[SlotPlan, ...]


@dataclass(frozen=True)
class ModulePlan:
    """Everything the build file says, decided (see :mod:`pipeline.vassal.build`)."""

    name: str
    version: str
    description: str
    date_saved: int
    sides: tuple[str, ...]
    boards: tuple[BoardPlan, ...]
    stacks: tuple[StackPlan, ...]
    prototypes: tuple[tuple[str, str, PieceDefinition], ...]
    palette: tuple[tuple[str, tuple[tuple[str, tuple[SlotPlan, ...]], ...]], ...]
    next_gpid: int
    dice: tuple[int, int] | None = None
    turns: tuple[int, int | None] | None = None
    help_files: tuple[tuple[str, str], ...] = field(default=())
    charts: tuple[tuple[str, str], ...] = field(default=())  # (chart name, image file)
    map_name: str = "Main Map"
    vassal_version: str = VASSAL_VERSION


def _el(parent: etree._Element, tag: str, attrs: Mapping[str, str] | None = None,
        text: str | None = None) -> etree._Element:
    values = dict(attrs or {})
    element = etree.SubElement(parent, tag, {k: values[k] for k in sorted(values)})
    if text is not None:
        element.text = text
    return element


def _slot(parent: etree._Element, slot: SlotPlan) -> None:
    _el(parent, W + "PieceSlot", {"entryName": slot.entry_name, "gpid": str(slot.gpid),
                                   "height": str(slot.height), "width": str(slot.width)},
        slot.definition.encode())


def _documentation(root: etree._Element, plan: ModulePlan) -> None:
    docs = _el(root, M + "Documentation")
    for title, path in plan.help_files:
        _el(docs, M + "documentation.HelpFile",
            {"fileName": path, "fileType": "archive", "title": title})


def _global_options(root: etree._Element) -> None:
    _el(root, M + "GlobalOptions", {
        "autoReport": "Always", "chatterHTMLSupport": "Never", "disablePieceIndexing": "false",
        "hotKeysOnClosedWindows": "Never", "inventoryForAll": "Always",
        "nonOwnerUnmaskable": "Never", "playerIdFormat": "$PlayerName$",
        "promptString": "Opponents can unmask my pieces", "purgeBlankPropertyPrompts": "true",
        "sendToLocationMoveTrails": "Never",
        # Hex ids like 0203 must stay strings in expressions (reference §3.1).
        "storeLeadingZeroIntegersAsStrings": "true",
    })


def _map(root: etree._Element, plan: ModulePlan) -> None:
    the_map = _el(root, M + "Map", {
        "backgroundcolor": "255,255,255", "buttonName": "Map",
        "changeFormat": "$message$", "color": "0,0,0",
        "createFormat": "$pieceName$ created in $location$ *", "description": "",
        "edgeHeight": "0", "edgeWidth": "0", "hideKey": "", "hotkey": "",
        "icon": "/images/map.gif", "launch": "false", "mapName": plan.map_name,
        "allowMultiple": "true" if len(plan.boards) > 1 else "false",
        "markMoved": "Always", "markUnmovedHotkey": "", "markUnmovedIcon": "/images/unmoved.gif",
        "markUnmovedReport": "", "markUnmovedText": "",
        "markUnmovedTooltip": "Mark all pieces on this map as not moved", "moveKey": "",
        "moveToFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
        "moveWithinFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
        "onlyReportChangedLocation": "false", "showKey": "", "thickness": "2",
    })
    picker = _el(the_map, MAP + "BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": "125", "slotScale": "0.2", "slotWidth": "350", "title": "Choose Boards"})
    setup = board_setup(plan)
    if setup is not None:
        _el(picker, "setup").text = setup
    for board in plan.boards:
        element = _el(picker, BP + "Board",
                      {"image": board.image, "name": board.name, "reversible": "false"})
        grid = _el(element, BP + "board.HexGrid", board.grid.hex_grid_attributes())
        _el(grid, BP + "board.mapgrid.HexGridNumbering", board.grid.numbering_attributes())
    _el(the_map, MAP + "StackMetrics", {
        "bottom": "40,0", "disabled": "false", "down": "37,0", "exSepX": "6", "exSepY": "18",
        "top": "38,0", "unexSepX": "2", "unexSepY": "4", "up": "39,0"})
    for helper in MAP_HELPERS:
        _el(the_map, MAP + helper)
    _el(the_map, MAP + "ImageSaver", {"buttonText": "", "hotkey": "", "icon": "/images/camera.gif",
                                      "tooltip": "Save map as PNG image"})
    _el(the_map, MAP + "CounterDetailViewer", {"delay": "700", "hotkey": "",
                                               "minDisplayPieces": "2", "showgraph": "true",
                                               "showtext": "true", "zoomlevel": "1.0"})
    _el(the_map, MAP + "Zoomer", {"zoomLevels": "0.25,0.5,0.75,1.0,1.5,2.0", "zoomStart": "3",
                                  "inIconName": "/images/zoomIn.gif",
                                  "outIconName": "/images/zoomOut.gif"})
    _el(the_map, M + "properties.GlobalProperties")
    _el(the_map, MAP + "SelectionHighlighters")
    _el(the_map, MAP + "HighlightLastMoved", {"color": "255,0,0", "enabled": "true",
                                              "thickness": "2"})
    for stack in plan.stacks:
        element = _el(the_map, MAP + "SetupStack", {
            "location": stack.location, "name": stack.name, "owningBoard": stack.board,
            "useGridLocation": "true", "x": str(stack.x), "y": str(stack.y)})
        for slot in stack.slots:
            _slot(element, slot)


def board_setup(plan: ModulePlan) -> str | None:
    """The BoardPicker's default board layout (``BoardPicker.encode`` of VASSAL 3.6/3.7:
    the map's name + ``BoardPicker``, then each board's name, column and row, tab
    separated), when every board has a slot; VASSAL then opens the map without asking.

    >>> from pipeline.vassal.grid import GridPlan
    >>> g = GridPlan(None, 0.0)  # type: ignore[arg-type]
    >>> plan = ModulePlan("m", "1", "", 0, (), (BoardPlan("A", "a.png", g, (0, 0)),
    ...     BoardPlan("B", "b.png", g, (1, 0))), (), (), (), 1)
    >>> board_setup(plan).split("\\t")
    ['Main MapBoardPicker', 'A', '0', '0', 'B', '1', '0']
    """
    if len(plan.boards) < 2 or any(b.slot is None for b in plan.boards):
        return None
    parts = [plan.map_name + "BoardPicker"]
    for board in plan.boards:
        assert board.slot is not None
        parts += [board.name, str(board.slot[0]), str(board.slot[1])]
    return "\t".join(parts)


def _palette(root: etree._Element, plan: ModulePlan) -> None:
    window = _el(root, M + "PieceWindow", {
        "defaultWidth": "0", "hidden": "false", "hotkey": "", "icon": "/images/counter.gif",
        "name": "Pieces", "scale": "1.0", "text": "Pieces",
        "tooltip": "Show/Hide the Pieces window"})
    tabs = _el(window, W + "TabWidget", {"entryName": "Pieces"})
    for tab_name, groups in plan.palette:
        tab = _el(tabs, W + "TabWidget", {"entryName": tab_name})
        for group_name, slots in groups:
            panel = _el(tab, W + "PanelWidget", {"entryName": group_name, "fixed": "false",
                                                 "nColumns": "8", "scale": "1.0", "vert": "false"})
            for slot in slots:
                _slot(panel, slot)


def _dice(root: etree._Element, n_dice: int, n_sides: int) -> None:
    label = f"{n_dice}d{n_sides}"
    _el(root, M + "DiceButton", {
        "addToTotal": "0", "canDisable": "false", "hotkey": "", "icon": "", "keepCount": "1",
        "keepDice": "false", "keepOption": ">", "lockAdd": "false", "lockDice": "false",
        "lockPlus": "false", "lockSides": "false", "nDice": str(n_dice), "nSides": str(n_sides),
        "name": label, "plus": "0", "prompt": "false", "propertyGate": "",
        "reportFormat": "** $name$ = $result$ *** &lt;$PlayerName$&gt;",
        "reportTotal": "true" if n_dice > 1 else "false", "sortDice": "false", "text": label,
        "tooltip": f"Roll {label}"})


def _turns(root: etree._Element, first: int, last: int | None) -> None:
    tracker = _el(root, M + "turn.TurnTracker", {
        "buttonText": "Turn", "description": "", "hotkey": "", "icon": "",
        "length": "-1", "lengthStyle": "Maximum", "name": "Turn", "nexthotkey": "",
        "prevhotkey": "", "reportFormat": "* Turn updated from $oldTurn$ to $newTurn$",
        "tooltip": "Game turn", "turnFormat": "Turn $level1$"})
    looping = {"loop": "true", "loopLimit": str(last)} if last is not None else {
        "loop": "false", "loopLimit": "-1"}
    _el(tracker, M + "turn.CounterTurnLevel", {
        "incr": "1", "name": "Turn", "property": "Turn", "start": str(first),
        "turnFormat": "$value$", **looping})


def _charts(root: etree._Element, charts: tuple[tuple[str, str], ...]) -> None:
    # One toolbar button; each play aid a tab (the same PNGs bocage aids prints).
    window = _el(root, M + "ChartWindow", {
        "description": "Play aids made by bocage aids", "hotkey": "", "icon": "",
        "name": "Charts", "text": "Charts", "tooltip": "Show/Hide the play aids"})
    tabs = _el(window, W + "TabWidget", {"entryName": "Charts"})
    for chart_name, file_name in charts:
        _el(tabs, W + "Chart", {"chartName": chart_name, "description": chart_name,
                                "fileName": file_name})


def build_file_xml(plan: ModulePlan) -> bytes:
    """The ``buildFile.xml`` bytes of a module plan (UTF-8, deterministic)."""
    root = etree.Element("VASSAL.build.GameModule", {
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": plan.vassal_version,
        "description": plan.description, "name": plan.name,
        "nextPieceSlotId": str(plan.next_gpid), "version": plan.version})
    try:
        _el(root, M + "BasicCommandEncoder")  # decodes piece definitions: first
        _documentation(root, plan)
        roster = _el(root, M + "PlayerRoster", {
            "buttonIcon": "", "buttonKeyStroke": "", "buttonText": "Retire",
            "buttonToolTip": "Become an observer, or let another player take your side"})
        for side in plan.sides:
            _el(roster, "entry", text=side)
        _global_options(root)
        _map(root, plan)
        _el(root, M + "Chatter")
        _el(root, M + "KeyNamer")
        _el(root, M + "properties.GlobalProperties")
        _el(root, M + "properties.GlobalTranslatableMessages")
        prototypes = _el(root, M + "PrototypesContainer")
        for name, description, definition in plan.prototypes:
            _el(prototypes, M + "PrototypeDefinition", {"description": description, "name": name},
                definition.encode())
        _palette(root, plan)
        if plan.charts:
            _charts(root, plan.charts)
        if plan.dice is not None:
            _dice(root, *plan.dice)
        if plan.turns is not None:
            _turns(root, *plan.turns)
        _el(root, "VASSAL.i18n.Language")
    except ValueError as exc:  # lxml refuses characters XML cannot hold
        raise ModuleError(None, f"a name or value cannot be written in XML ({exc})") from None
    data: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                 standalone=False, pretty_print=True)
    return data


def moduledata_xml(plan: ModulePlan) -> bytes:
    """The ``moduledata`` bytes: name, version, VASSAL version, date saved (reference §1)."""
    root = etree.Element("data", {"version": "1"})
    for tag, text in (("version", plan.version), ("extra1", ""), ("extra2", ""),
                      ("VassalVersion", plan.vassal_version),
                      ("dateSaved", str(plan.date_saved)),
                      ("description", plan.description), ("name", plan.name)):
        element = etree.SubElement(root, tag)
        element.text = text or None
    data: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                 standalone=False, pretty_print=True)
    return data
