"""What keeps the studio private to the person who started it.

The studio listens on the loopback address only, and every request must show the
random token of the opening URL (``?token=...`` or the ``X-Bocage-Token`` header),
so another user of the machine, or a web page open in the same browser, cannot read
the scan or change the map. Requests another site makes are refused on their
``Origin`` and ``Sec-Fetch-Site`` headers, and a ``Host`` other than the studio's own
(a DNS-rebinding page) is refused too. Files are served only from the game folder and
the scan: :func:`inside` resolves a name and refuses one that leaves its folder.

>>> guard = Guard(app=None, token="t0k", port=8765)
>>> guard.refusal({"headers": [(b"host", b"127.0.0.1:8765")], "query_string": b"token=t0k"})
>>> guard.refusal({"headers": [(b"host", b"127.0.0.1:8765")], "query_string": b""})
'this request has no token: open the address bocage studio printed'
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from pipeline.errors import DataError

__all__ = ["HOST", "TOKEN_HEADER", "Guard", "inside", "new_token"]

HOST = "127.0.0.1"
TOKEN_HEADER = "x-bocage-token"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_token() -> str:
    """A fresh random token for the opening URL (24 random bytes, URL-safe)."""
    return secrets.token_urlsafe(24)


def inside(root: Path, name: str | Path) -> Path:
    """``name`` resolved under ``root``; a name that leaves ``root`` is refused.

    Links are followed before the check, so a link out of the folder is refused too.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> inside(root, "out/map.geojson") == root.resolve() / "out" / "map.geojson"
    True
    >>> inside(root, "../elsewhere.json")
    Traceback (most recent call last):
    ...
    pipeline.errors.DataError: ../elsewhere.json: is outside the game folder; name a file inside it
    """
    base = root.resolve()
    target = (base / name).resolve()
    if target != base and base not in target.parents:
        raise DataError(str(name), "", "is outside the game folder; name a file inside it")
    return target


class Guard:
    """ASGI middleware that refuses any request not from the studio's own page.

    Parameters
    ----------
    app
        The application it guards.
    token
        The token every request must carry.
    port
        The port the studio listens on (for the ``Host`` and ``Origin`` checks).
    """

    def __init__(self, app: ASGIApp | None, token: str, port: int) -> None:
        self.app = app
        self.token = token
        self.hosts = {f"{HOST}:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            assert self.app is not None
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # the studio speaks plain HTTP only (no websockets)
            await send({"type": "websocket.close", "code": 1008})
            return
        why = self.refusal(scope)
        if why is not None:
            body = json.dumps({"error": why}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        assert self.app is not None
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> str | None:
        """Why a request is refused, or ``None`` when it may go on."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if headers.get("host") not in self.hosts:
            return "this studio answers only on its own address (the Host header is not it)"
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return f"requests from {origin} are refused: the studio answers its own page only"
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return "requests made by another site are refused"
        given = headers.get(TOKEN_HEADER)
        if given is None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("token") or [None])[0]
        if given is None:
            return "this request has no token: open the address bocage studio printed"
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "wrong token: open the address bocage studio printed"
        return None
