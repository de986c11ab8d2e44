"""The studio: digitize, correct and check a map in the browser (``bocage studio``).

A local web application over one game folder and a scan of its map:

* :mod:`~pipeline.studio.workspace` holds the map being checked: the scan, the
  digitizer's reading, a person's edits and the findings, and saves map.json;
* :mod:`~pipeline.studio.reading` is the one place the digitizer is called;
* :mod:`~pipeline.studio.document` makes the map.json it saves, and reads a person's
  word back from one;
* :mod:`~pipeline.studio.edits` keeps what a person changed, with undo and redo;
* :mod:`~pipeline.studio.view` is what the page is sent;
* :mod:`~pipeline.studio.tiles` cuts the scan into the viewer's deep-zoom tiles;
* :mod:`~pipeline.studio.guard` keeps the studio private (loopback, token, same origin,
  files inside the game folder);
* :mod:`~pipeline.studio.server` serves it all (Starlette on uvicorn).

The studio holds no digitizing or validation logic: the reading is
:mod:`pipeline.digitize`'s and the findings :mod:`pipeline.validate`'s.
"""

from pipeline.studio.edits import Edit, EditLog, Overrides
from pipeline.studio.guard import Guard, inside, new_token
from pipeline.studio.server import StudioServer, create_app
from pipeline.studio.tiles import Pyramid
from pipeline.studio.view import page_state
from pipeline.studio.workspace import EditConflict, Workspace

__all__ = [
    "Edit",
    "EditConflict",
    "EditLog",
    "Guard",
    "Overrides",
    "Pyramid",
    "StudioServer",
    "Workspace",
    "create_app",
    "inside",
    "new_token",
    "page_state",
]
