"""What VASSAL 3.6/3.7 knows: buildable element classes, trait ids, attribute types.

The tag list is VASSAL's buildable classes (``VASSAL/build/**``, ``VASSAL/i18n``,
``VASSAL/preferences``, from the source tree the reference was checked
against), plus the plain child elements some of them take. Trait ids are
``BasicCommandEncoder``'s prefixes (reference §4.3). Numeric attributes are
the ones whose setters parse with ``Integer.valueOf``/``Double.valueOf``:
a bad value there drops the element (``ERROR``), or only resets a size
(``WARN``).
"""

from __future__ import annotations

__all__ = ["CHILD_TAGS", "INT", "KNOWN_TAGS", "NUMERIC_ATTRIBUTES", "REAL", "ROOT_TAGS",
           "TRAIT_IDS"]

_M = "VASSAL.build.module."
_MAP = _M + "map."
_BP = _MAP + "boardPicker."
_GRID = _BP + "board."
_W = "VASSAL.build.widget."

ROOT_TAGS = frozenset({"VASSAL.build.GameModule", "VASSAL.launch.BasicModule"})

_MODULE = """
AnimatedDiceButton BasicCommandEncoder ChartWindow Chatter ChessClockControl DiceButton
DoActionButton Documentation GlobalKeyCommand GlobalOptions Inventory InternetDiceButton
KeyNamer Map MultiActionButton NotesWindow PieceWindow PlayerHand PlayerRoster Plugin
PredefinedSetup PrivateMap PrototypeDefinition PrototypesContainer RandomTextButton
SpecialDiceButton SpecialDie SpecialDieFace StartupGlobalKeyCommand ToolbarMenu
chessclockcontrol.ChessClock
documentation.AboutScreen documentation.BrowserHelpFile documentation.BrowserPDFFile
documentation.HelpFile documentation.Tutorial
folder.CardFolder folder.DeckSubFolder folder.FontSubFolder folder.GlobalPropertyFolder
folder.MapSubFolder folder.ModuleSubFolder folder.PrototypeFolder folder.SetupStackFolder
font.FontOrganizer font.ModuleFont
gamepieceimage.ColorManager gamepieceimage.ColorSwatch gamepieceimage.FontManager
gamepieceimage.FontStyle gamepieceimage.GamePieceImage gamepieceimage.GamePieceImageDefinitions
gamepieceimage.GamePieceLayout gamepieceimage.GamePieceLayoutsContainer
gamepieceimage.ImageItem gamepieceimage.ShapeItem gamepieceimage.SymbolItem
gamepieceimage.TextBoxItem gamepieceimage.TextItem
properties.BooleanScenarioProperty properties.ChangePropertyButton
properties.CheckboxScenarioOption properties.GlobalProperties properties.GlobalProperty
properties.GlobalTranslatableMessage properties.GlobalTranslatableMessages
properties.IncrementProperty properties.ListScenarioOption properties.ListScenarioProperty
properties.NumberScenarioOption properties.NumberScenarioProperty properties.ScenarioOptions
properties.ScenarioPropertiesOptionTab properties.StringScenarioOption
properties.StringScenarioProperty properties.ZoneProperty
turn.CounterTurnLevel turn.ListTurnLevel turn.TurnGlobalHotkey turn.TurnTracker
"""
_MAP_PARTS = """
BoardPicker CounterDetailViewer DeckGlobalKeyCommand DrawPile Flare ForwardToChatter
ForwardToKeyBuffer GlobalMap HidePiecesButton HighlightLastMoved ImageSaver KeyBufferer
LOS_Thread LayerControl LayeredPieceCollection MapCenterer MapShader MassKeyCommand
MenuDisplayer MoveCameraButton PieceMover PieceRecenterer Scroller SelectionHighlighter
SelectionHighlighters SetupStack SetupStackFolder StackExpander StackMetrics TextSaver Zoomer
deck.DeckKeyCommand deck.DeckSendKeyCommand deck.DeckSortKeyCommand
"""
_GRIDS = """
HexGrid RegionGrid Region SquareGrid ZonedGrid mapgrid.HexGridNumbering
mapgrid.SquareGridNumbering mapgrid.Zone mapgrid.ZoneHighlight mapgrid.ZonedGridHighlighter
"""
_WIDGETS = ("BoxWidget CardSlot Chart HtmlChart ListWidget MapWidget PanelWidget PieceSlot"
            " TabWidget WidgetMap")
_OTHER = """
VASSAL.i18n.Language VASSAL.i18n.Translation
VASSAL.preferences.BooleanPreference VASSAL.preferences.DoublePreference
VASSAL.preferences.EnumPreference VASSAL.preferences.IntegerPreference
VASSAL.preferences.StringPreference VASSAL.preferences.TextPreference
"""

KNOWN_TAGS = frozenset(
    [_M + n for n in _MODULE.split()]
    + [_MAP + n for n in _MAP_PARTS.split()]
    + [_BP + "Board"]
    + [_GRID + n for n in _GRIDS.split()]
    + [_W + n for n in _WIDGETS.split()]
    + _OTHER.split()
) | ROOT_TAGS

# Plain elements a few classes read as data, by the tag of their parent.
CHILD_TAGS: dict[str, frozenset[str]] = {
    _M + "PlayerRoster": frozenset({"entry"}),
    _M + "GlobalOptions": frozenset({"option"}),
    _MAP + "BoardPicker": frozenset({"setup"}),
}

TRAIT_IDS = frozenset("""
piece; deck; stack mark; emb2; emb; label; obs; delete; report; prototype; markmoved; hide;
immob; rotate; pivot; sendto; return; clone; placemark; replace; macro; globalkey; PROP;
calcProp; setprop; setpieceprop; submenu; menuSeparator; hideCmd; restrict; footprint;
translate; AreaOfEffect; table; propertysheet; nonRect; nonRect2; button; globalhotkey;
deselect; mat; matPiece; basicName; border; attach; locCommand; cmt; locmsg; playSound;
dynamicProperty; DynamicProperty; rotatable; freerotate;
""".split())

INT, REAL = "int", "double"
ERROR, WARN = "error", "warning"

# tag -> attribute -> (type, severity of a bad value)
NUMERIC_ATTRIBUTES: dict[str, dict[str, tuple[str, str]]] = {
    "VASSAL.build.GameModule": {"nextPieceSlotId": (INT, ERROR)},
    _GRID + "HexGrid": {"x0": (INT, ERROR), "y0": (INT, ERROR), "dx": (REAL, ERROR),
                        "dy": (REAL, ERROR)},
    _GRID + "SquareGrid": {"x0": (INT, ERROR), "y0": (INT, ERROR), "dx": (REAL, ERROR),
                           "dy": (REAL, ERROR)},
    _GRID + "mapgrid.HexGridNumbering": {
        a: (INT, ERROR) for a in ("hLeading", "vLeading", "hOff", "vOff", "fontSize",
                                  "rotateText", "hDrawOff", "vDrawOff")},
    _GRID + "mapgrid.SquareGridNumbering": {
        a: (INT, ERROR) for a in ("hLeading", "vLeading", "hOff", "vOff", "fontSize",
                                  "rotateText", "hDrawOff", "vDrawOff")},
    _W + "PieceSlot": {"width": (INT, WARN), "height": (INT, WARN), "gpid": (INT, WARN)},
    _MAP + "SetupStack": {"x": (INT, WARN), "y": (INT, WARN)},
    _M + "DiceButton": {"nDice": (INT, ERROR), "nSides": (INT, ERROR), "plus": (INT, ERROR),
                        "addToTotal": (INT, ERROR)},
}
