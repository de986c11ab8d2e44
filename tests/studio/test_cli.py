"""``bocage studio`` as a user runs it: the address it prints serves the page with its
token only; bad folders and scans get one line and exit 2."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from tests.studio.conftest import copy_demo


@pytest.mark.slow
def test_the_studio_serves_its_address_and_refuses_requests_without_the_token(tmp_path):
    folder = copy_demo(tmp_path / "demo")
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", "studio",
               str(folder), "--port", "0", "--no-browser"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            _check_served(process)
        finally:
            process.terminate()
            process.wait(timeout=30)


def _check_served(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    first = process.stdout.readline()
    opening = process.stdout.readline()
    assert first.startswith("bocage studio:") and "map.json" in first
    url = opening.split()[1]
    assert url.startswith("http://127.0.0.1:") and "?token=" in url
    with urllib.request.urlopen(url, timeout=60) as page:
        assert "<title>bocage studio</title>" in page.read().decode()
    bare = url.split("?")[0] + "api/state"
    try:
        urllib.request.urlopen(bare, timeout=60)
        raise AssertionError("a request without the token was answered")
    except urllib.error.HTTPError as refused:
        with refused:
            assert refused.code == 403
    with urllib.request.urlopen(url.replace("/?", "/api/state?"), timeout=120) as state:
        assert b'"hexes"' in state.read()


def test_bad_input_gets_one_line_and_exit_2(tmp_path):
    runner = CliRunner()
    empty = runner.invoke(cli, ["studio", str(tmp_path), "--no-browser"])
    assert empty.exit_code == 2
    assert empty.output.strip().splitlines() == [
        f"bocage: {tmp_path}: not a game folder for the studio (no map.json)"]
    folder = copy_demo(tmp_path / "demo")
    bad = folder / "notes.jpg"
    bad.write_text("not an image")
    result = runner.invoke(cli, ["studio", str(folder), "--scan", str(bad), "--no-browser"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert str(bad) in result.output
    before = (folder / "map.json").read_bytes()
    broken = copy_demo(tmp_path / "broken")
    (broken / "map.json").write_text('{"kind": "map", "game": ')
    bad_map = runner.invoke(cli, ["studio", str(broken), "--no-browser"])
    assert bad_map.exit_code == 2 and bad_map.output.count("\n") == 1
    assert bad_map.output.startswith(f"bocage: {broken / 'map.json'}")
    anchor = runner.invoke(cli, ["studio", str(folder), "--anchor", "0101", "--no-browser"])
    assert anchor.exit_code == 2
    assert anchor.output == ("bocage: --anchor: '0101' is not HEX=X,Y (the pixel centre of a"
                             " hex, e.g. 0101=120.5,88)\n")
    missing = runner.invoke(cli, ["studio", str(folder), "--scan", "nope.jpg", "--no-browser"])
    assert missing.exit_code == 2 and "nope.jpg: no such file" in missing.output
    assert (folder / "map.json").read_bytes() == before
    assert not Path(folder / "map.json.bak").exists()


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    import socket

    folder = copy_demo(tmp_path / "demo")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["studio", str(folder), "--port", str(port),
                                          "--no-browser"])
    assert result.exit_code == 2
    assert result.output.startswith(f"bocage: cannot listen on 127.0.0.1:{port}")
    assert result.output.count("\n") == 1
