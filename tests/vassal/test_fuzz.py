"""Fuzzing the module reader: whatever a downloaded .vmod holds, one line or a result.

A module built by bocage is damaged at random (bytes flipped, cut short, an entry
replaced by random bytes, random XML or a picture that lies about its size), and
random ZIPs are made from scratch. ``vassal check``, ``inspect`` and ``preview``
read each through the library. The property: a result, or a
:class:`~pipeline.errors.BocageError` whose message names the module on one line.
Any other exception is a bug.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import BocageError
from pipeline.vassal import build_module
from pipeline.vassal.check import check_module
from pipeline.vassal.describe import describe_module
from pipeline.vassal.preview import preview_module

from .conftest import make_game

FUZZ = settings(max_examples=int(os.environ.get("BOCAGE_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

READERS: dict[str, Callable[[Path], object]] = {
    "check": check_module,
    "inspect": describe_module,
    "preview": lambda path: preview_module(path, scale=0.25),
}


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A module built by bocage (a path: hypothesis prints the arguments of a failure)."""
    root = tmp_path_factory.mktemp("module")
    game = make_game(root, board_size=(300, 300))
    build_module(game, root / "m.vmod", boards={"omaha": game / "board.png"})
    return root / "m.vmod"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-modules")


def _put(target: zipfile.ZipFile, name: str, content: bytes) -> None:
    # A fixed time stamp: the same draws must give the same bytes (hypothesis replays them).
    target.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), content)


def outcome(call: Callable[[], object], name: str) -> None:
    try:
        call()
    except BocageError as exc:
        message = str(exc)
        assert message.startswith(name), message
        assert "\n" not in message, message


def _lying_png(width: int, height: int) -> bytes:
    """A PNG header claiming ``width`` x ``height`` over almost no data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = b"IHDR" + header
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(header)) + body
            + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))


ENTRY_DATA = (st.binary(max_size=200)
              | st.text(max_size=200).map(str.encode)
              | st.sampled_from([b"<?xml version='1.0'?><a>", b"<VASSAL.build.GameModule/>",
                                 b"<!DOCTYPE x [<!ENTITY e 'e'>]><x>&e;</x>",
                                 _lying_png(60_000, 60_000), _lying_png(0, 5),
                                 _lying_png(3, 3)]))


DAMAGE = st.tuples(st.sampled_from(["flip", "cut", "entry"]), st.floats(0, 1, exclude_max=True),
                   st.integers(1, 255), ENTRY_DATA)


def damage(original: bytes, steps: list[tuple[str, float, int, bytes]]) -> bytes:
    """The module with each step's damage done (a plan drawn up front, applied here)."""
    data = original
    for how, where, xor, replacement in steps:
        if how == "flip" and data:
            at = int(where * len(data))
            data = data[:at] + bytes([data[at] ^ xor]) + data[at + 1:]
        elif how == "cut":
            data = data[: int(where * len(data))]
        elif how == "entry":
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as source:
                    entries = [(n, source.read(n)) for n in source.namelist()]
            except (zipfile.BadZipFile, OSError, EOFError, zlib.error, ValueError,
                    NotImplementedError):
                continue  # already beyond reading: the readers get it as it is
            if not entries:
                continue
            victim = entries[int(where * len(entries))][0]
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w") as target:
                for name, content in entries:
                    _put(target, name, replacement if name == victim else content)
            data = out.getvalue()
    return data


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(steps=st.lists(DAMAGE, min_size=1, max_size=3))
def test_damaged_modules_are_read_or_refused_in_one_line(module, scratch, reader, steps):
    path = scratch / f"damaged-{reader}.vmod"
    path.write_bytes(damage(module.read_bytes(), steps))
    outcome(lambda: READERS[reader](path), str(path))


@st.composite
def random_zip(draw: st.DrawFn) -> bytes:
    names = st.sampled_from(["buildFile.xml", "buildFile", "moduledata", "images/b.png",
                             "images/p.png", "../up.txt", "/abs", "images/../../x"]) | st.text(
        min_size=1, max_size=12)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in draw(st.lists(names, max_size=5, unique=True)):
            _put(target, name, draw(ENTRY_DATA))
    return out.getvalue()


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(content=random_zip())
def test_random_zips_are_read_or_refused_in_one_line(scratch, reader, content):
    path = scratch / f"random-{reader}.vmod"
    path.write_bytes(content)
    outcome(lambda: READERS[reader](path), str(path))
