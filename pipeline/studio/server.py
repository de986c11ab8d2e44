"""The studio's web server: the page, the scan's tiles and the map's JSON (Starlette).

Every route is behind :class:`~pipeline.studio.guard.Guard` (loopback only, the token,
no other site). The page and its JavaScript are files of this package
(``static/``, the map viewer vendored with its licence), so the studio works offline.
Work that takes time (reading the scan, a label's new reading, a save) runs in a
worker thread; a change answers with the whole new state, so a page is never out of
date after its own edit, and a change made against an old version is refused with
409 (:class:`~pipeline.studio.workspace.EditConflict`).

:class:`StudioServer` runs it on a socket it binds itself (port 0 picks a free one),
in the foreground (``bocage studio``) or in a thread (the tests and the bench).
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pipeline.errors import BocageError
from pipeline.studio.guard import HOST, Guard, new_token
from pipeline.studio.tiles import Pyramid
from pipeline.studio.view import page_state
from pipeline.studio.workspace import EditConflict, Workspace

__all__ = ["STATIC", "StudioServer", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"

Handler = Callable[[Request], Awaitable[Response]]


def create_app(workspace: Workspace, token: str, port: int) -> Guard:
    """The guarded ASGI application for one workspace.

    Parameters
    ----------
    workspace
        The map and scan to serve.
    token
        The token every request must carry.
    port
        The port it is served on (requests naming another ``Host`` are refused).
    """
    pyramid = Pyramid(workspace.pixels)
    page = (STATIC / "index.html").read_text(encoding="utf-8")

    async def index(request: Request) -> Response:
        return HTMLResponse(page.replace("{{token}}", token),
                            headers={"Cache-Control": "no-store"})

    async def scan(request: Request) -> Response:
        return JSONResponse({**pyramid.describe(), "name": workspace.source})

    async def tile(request: Request) -> Response:
        level = int(request.path_params["level"])
        col, row = int(request.path_params["col"]), int(request.path_params["row"])
        try:
            data = await run_in_threadpool(pyramid.tile, level, col, row)
        except BocageError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return Response(data, media_type="image/jpeg",
                        headers={"Cache-Control": "private, max-age=3600"})

    async def state(request: Request) -> Response:
        try:
            return JSONResponse(await run_in_threadpool(page_state, workspace))
        except BocageError as exc:  # the scan could not be read: say why on the page
            return JSONResponse({"error": str(exc)}, status_code=400)

    def change(act: Callable[[Workspace, dict[str, Any]], object]) -> Handler:
        async def handle(request: Request) -> Response:
            try:
                body = await request.json()
            except (json.JSONDecodeError, UnicodeDecodeError):
                return JSONResponse({"error": "the request body is not JSON"}, status_code=400)
            version = body.get("version") if isinstance(body, dict) else None
            if not isinstance(version, int) or isinstance(version, bool):
                return JSONResponse({"error": "the request needs the page's version"},
                                    status_code=400)

            def work() -> dict[str, Any]:
                done = act(workspace, body)
                out = page_state(workspace)
                if isinstance(done, (str, list)):
                    out["done"] = [str(p) for p in done] if isinstance(done, list) else done
                return out

            try:
                return JSONResponse(await run_in_threadpool(work))
            except EditConflict as exc:
                fresh = await run_in_threadpool(page_state, workspace)
                return JSONResponse({"error": str(exc), "conflict": True, "state": fresh},
                                    status_code=409)
            except (BocageError, KeyError, TypeError, ValueError) as exc:
                return JSONResponse({"error": _message(exc)}, status_code=400)
        return handle

    routes = [
        Route("/", index),
        Route("/api/scan", scan),
        Route("/api/state", state),
        Route("/tiles/{level:int}/{col:int}_{row:int}.jpg", tile),
        Route("/api/terrain", change(_terrain), methods=["POST"]),
        Route("/api/hexside", change(_hexside), methods=["POST"]),
        Route("/api/anchor", change(_anchor), methods=["POST"]),
        Route("/api/undo", change(lambda w, b: w.undo(b["version"])), methods=["POST"]),
        Route("/api/redo", change(lambda w, b: w.redo(b["version"])), methods=["POST"]),
        Route("/api/save", change(lambda w, b: str(w.save(b["version"]))), methods=["POST"]),
        Route("/api/export", change(_export), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    return Guard(Starlette(routes=routes), token, port)


def _message(exc: Exception) -> str:
    if isinstance(exc, BocageError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"the request lacks {exc}"
    return f"bad request: {exc}"


def _terrain(w: Workspace, b: dict[str, Any]) -> None:
    terrain = b.get("terrain")
    w.set_terrain(str(b["hex"]), None if terrain is None else str(terrain), b["version"])


def _hexside(w: Workspace, b: dict[str, Any]) -> str:
    direction = b["direction"]
    if not isinstance(direction, (int, str)):
        raise ValueError("direction must be a number or a name")
    return w.toggle_hexside(str(b["hex"]), direction, str(b["feature"]), b["version"])


def _anchor(w: Workspace, b: dict[str, Any]) -> None:
    w.move_anchor(str(b["hex"]), float(b["x"]), float(b["y"]), b["version"])


def _export(w: Workspace, b: dict[str, Any]) -> list[Path]:
    return w.export(str(b.get("geojson", "map.geojson")), str(b.get("overlay", "overlay.png")),
                    version=b["version"])


class StudioServer:
    """The studio on a loopback socket: start it, open :attr:`url`, stop it.

    Parameters
    ----------
    workspace
        The map and scan to serve.
    port
        The port (``0``: any free one).
    token
        The opening URL's token (a fresh random one by default).

    Examples
    --------
    ``with StudioServer(Workspace(folder)) as server: print(server.url)`` serves in a
    thread until the block ends; :meth:`run` serves in the foreground.
    """

    def __init__(self, workspace: Workspace, port: int = 0, token: str | None = None) -> None:
        self.workspace = workspace
        self.token = token or new_token()
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self._socket.bind((HOST, port))
            # Listening now: a browser opened on the printed address before the server
            # runs waits in the queue instead of being refused.
            self._socket.listen(128)
        except OSError as exc:
            self._socket.close()
            raise BocageError(f"cannot listen on {HOST}:{port} ({exc.strerror or exc});"
                              " choose another --port") from None
        self.port = int(self._socket.getsockname()[1])
        app = create_app(workspace, self.token, self.port)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The opening address, token included."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def run(self) -> None:
        """Serve in the foreground until interrupted."""
        self._server.run(sockets=[self._socket])

    def start(self) -> None:
        """Serve in a background thread; returns when the server is listening."""
        self._thread = threading.Thread(target=self.run, daemon=True)
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise BocageError("the studio's server stopped as it started")
            threading.Event().wait(0.01)

    def stop(self) -> None:
        """Stop serving (the thread started by :meth:`start` ends)."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._socket.close()

    def __enter__(self) -> StudioServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
