"""The server's routes through Starlette's test client: the token, the origin, the
host, files only from the package and the game folder, edits and their conflicts."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from starlette.testclient import TestClient

from pipeline.studio import Workspace, create_app
from tests.studio.conftest import copy_demo

pytestmark = pytest.mark.slow

PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"
TOKEN = "test-token-0123456789"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    return Workspace(copy_demo(tmp_path_factory.mktemp("server") / "demo"))


@pytest.fixture(scope="module")
def client(workspace) -> TestClient:
    return TestClient(create_app(workspace, TOKEN, PORT), base_url=BASE)


def auth(**headers: str) -> dict[str, str]:
    return {"X-Bocage-Token": TOKEN, **headers}


@pytest.mark.parametrize("path", ["/", "/api/state", "/api/scan", "/tiles/0/0_0.jpg",
                                  "/static/studio.js"])
def test_a_request_without_the_token_is_refused(client, path):
    response = client.get(path)
    assert response.status_code == 403
    assert "token" in response.json()["error"]
    assert client.get(path, headers={"X-Bocage-Token": "wrong"}).status_code == 403
    assert client.get(path, params={"token": TOKEN[:-1]}).status_code == 403


def test_the_token_in_the_url_or_a_header_is_let_in(client):
    page = client.get("/", params={"token": TOKEN})
    assert page.status_code == 200 and "<title>bocage studio</title>" in page.text
    assert f"static/studio.js?token={TOKEN}" in page.text  # every asset carries it
    assert client.get("/static/studio.js", params={"token": TOKEN}).status_code == 200
    assert client.get("/api/scan", headers=auth()).json()["width"] == 1338


def test_other_sites_and_other_host_names_are_refused(client):
    evil = client.post("/api/terrain", headers=auth(Origin="http://evil.example"),
                       json={"hex": "0101", "terrain": "woods", "version": 0})
    assert evil.status_code == 403 and "evil.example" in evil.json()["error"]
    cross = client.get("/api/state", headers=auth(**{"Sec-Fetch-Site": "cross-site"}))
    assert cross.status_code == 403
    rebound = client.get("/api/state", headers=auth(Host=f"attacker.example:{PORT}"))
    assert rebound.status_code == 403 and "Host" in rebound.json()["error"]
    same = client.get("/api/scan", headers=auth(Origin=BASE, **{"Sec-Fetch-Site": "same-origin"}))
    assert same.status_code == 200


@pytest.mark.parametrize("path", ["/static/../workspace.py", "/static/%2e%2e/workspace.py",
                                  "/static/..%2fworkspace.py", "/static/../../../map.json"])
def test_no_file_outside_the_page_is_served(client, path):
    response = client.get(path, headers=auth())
    assert response.status_code == 404
    assert b"class Workspace" not in response.content


def test_tiles_are_the_scan_at_each_level(client, workspace):
    scan = client.get("/api/scan", headers=auth()).json()
    top = scan["maxLevel"]
    tile = client.get(f"/tiles/{top}/1_1.jpg", headers=auth())
    assert tile.headers["content-type"] == "image/jpeg"
    got = np.asarray(Image.open(io.BytesIO(tile.content)).convert("RGB"), np.float64)
    size, overlap = scan["tileSize"], scan["tileOverlap"]
    x0 = y0 = size - overlap
    want = workspace.pixels[y0:y0 + got.shape[0], x0:x0 + got.shape[1]].astype(np.float64)
    assert got.shape == (size + 2 * overlap, size + 2 * overlap, 3)
    assert np.abs(got - want).mean() < 4  # JPEG at quality 88
    small = client.get(f"/tiles/{top - 3}/0_0.jpg", headers=auth())
    whole = np.asarray(Image.open(io.BytesIO(small.content)).convert("RGB"), np.float64)
    assert whole.shape[:2] == (-(-1370 // 8), -(-1338 // 8))  # one tile holds it all
    assert abs(whole.mean() - workspace.pixels.mean()) < 3
    assert client.get(f"/tiles/{top}/99_0.jpg", headers=auth()).status_code == 404
    assert client.get(f"/tiles/{top + 1}/0_0.jpg", headers=auth()).status_code == 404


def test_an_edit_answers_with_the_new_state_and_a_stale_one_with_409(client):
    state = client.get("/api/state", headers=auth()).json()
    version = state["version"]
    ids = [h["id"] for h in state["hexes"]]
    assert len(ids) == 550 and state["anchors"][0]["hex"] == "0101"
    done = client.post("/api/terrain", headers=auth(),
                       json={"hex": "0305", "terrain": "rough", "version": version}).json()
    assert done["version"] == version + 1
    hexes = {h["id"]: h for h in done["hexes"]}
    assert hexes["0305"]["terrain"] == ["rough"] and hexes["0305"]["provenance"] == "corrected"
    stale = client.post("/api/terrain", headers=auth(),
                        json={"hex": "0306", "terrain": "rough", "version": version})
    assert stale.status_code == 409
    body = stale.json()
    assert body["conflict"] is True and body["state"]["version"] == version + 1
    undone = client.post("/api/undo", headers=auth(), json={"version": version + 1}).json()
    assert {h["id"]: h for h in undone["hexes"]}["0305"]["provenance"] == "read"


@pytest.mark.parametrize("body, message", [
    ({"hex": "0101", "terrain": "woods"}, "version"),
    ({"hex": "9999", "terrain": "woods", "version": -1}, "since this page saw it"),
    ({"terrain": "woods", "version": None}, "version"),
    ({"hex": "0101", "terrain": "woods", "version": True}, "version"),
])
def test_bad_requests_say_what_is_wrong(client, body, message):
    response = client.post("/api/terrain", headers=auth(), json=body)
    assert response.status_code in (400, 409)
    assert message in response.json()["error"]


@pytest.mark.parametrize("path, body, message", [
    ("/api/terrain", {"hex": 101, "terrain": "woods"}, "hex '101' is not on the map"),
    ("/api/anchor", {"hex": "0101", "x": "left", "y": 3}, "bad request"),
    ("/api/anchor", {"hex": "0101", "y": 3}, "lacks 'x'"),
    ("/api/hexside", {"hex": "0101", "direction": [1], "feature": "river"}, "direction"),
    ("/api/hexside", {"hex": "0101", "direction": 9, "feature": "river"}, "direction"),
])
def test_wrong_types_in_a_change_are_refused(client, path, body, message):
    version = client.get("/api/state", headers=auth()).json()["version"]
    response = client.post(path, headers=auth(), json={**body, "version": version})
    assert response.status_code == 400 and message in response.json()["error"]
    assert client.get("/api/state", headers=auth()).json()["version"] == version


def test_a_body_that_is_not_json_is_refused(client):
    response = client.post("/api/save", headers=auth(), content=b"{not json")
    assert response.status_code == 400 and "not JSON" in response.json()["error"]


def test_export_outside_the_folder_is_refused(client, workspace):
    version = client.get("/api/state", headers=auth()).json()["version"]
    response = client.post("/api/export", headers=auth(),
                           json={"geojson": "../../escape.geojson", "version": version})
    assert response.status_code == 400 and "outside the game folder" in response.json()["error"]
    assert not (workspace.folder.parent.parent / "escape.geojson").exists()


def test_a_browser_that_asks_before_the_server_runs_is_answered(workspace):
    import threading
    import urllib.request

    from pipeline.studio import StudioServer

    server = StudioServer(workspace)
    answers: list[int] = []

    def ask() -> None:
        with urllib.request.urlopen(server.url, timeout=60) as page:
            answers.append(page.status)

    asking = threading.Thread(target=ask)
    asking.start()
    asking.join(0.5)  # the address is printed and the browser opened before the server runs
    assert asking.is_alive() and answers == []
    server.start()
    asking.join(60)
    server.stop()
    assert answers == [200]


def test_a_websocket_is_refused_even_with_the_token(client):
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/", headers=auth()):
            pass
    assert refused.value.code == 1008
