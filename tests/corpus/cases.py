"""The bad-input corpus: every case made by code, run through the real command line.

Each :class:`Case` is a command a new user might type with one thing wrong (an
output that is an input, a bomb of an image, NaN in a scenario, a NUL in a unit
name, a size typed in the wrong unit, a hostile module...). :func:`make_shared`
builds the good files the cases lean on once (a game folder with a board and
counter images, a module built from it, a play-aid folder); a case's ``setup``
makes its own bad file in its own folder. Arguments name them with ``{shared}``
and ``{case}``.

The property every case must keep (``tests/corpus/test_corpus.py``): exit code
2, one line on stderr starting ``bocage:`` and naming the file (``expect``), no
traceback, nothing on stdout, nothing written anywhere (the case's folder, the
shared files and the temporary folder are unchanged by hash), ``/dev/null``
still a device.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]

Setup = Callable[[Path, Path], None]


@dataclass(frozen=True)
class Case:
    """One bad command: its arguments, what its one line must name, how to make its files."""

    id: str
    args: tuple[str, ...]
    expect: str
    setup: Setup | None = None
    env: dict[str, str] = field(default_factory=dict)

    def argv(self, shared: Path, case: Path) -> list[str]:
        return [a.format(shared=shared, case=case) for a in self.args]

    def expected(self, shared: Path, case: Path) -> str:
        return self.expect.format(shared=shared, case=case)


# -- good files the cases lean on -------------------------------------------------------------


def png_bomb(path: Path, width: int, height: int) -> None:
    """A valid 1-bit PNG of ``width`` x ``height`` zeros: tiny on disk, huge decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    row = b"\0" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)
                     + chunk(b"IEND", b""))


def make_shared(root: Path) -> None:
    """The good inputs: ``maps/demo`` with a layout, board and counters; a module; aids."""
    from pipeline.vassal import build_module
    from tests.vassal.conftest import make_game

    game = make_game(root)
    build_module(game, root / "m.vmod", boards={"omaha": game / "board.png"},
                 counters=root / "counters" / "demo")
    aids = root / "aids"
    aids.mkdir()
    Image.new("RGB", (60, 40), "white").save(aids / "tec.png")
    shutil.copy(ROOT / "maps" / "demo" / "scan.jpg", root / "scan.jpg")
    png_bomb(root / "bomb.png", 60_000, 60_000)
    shutil.copytree(ROOT / "tests" / "rules" / "scenarios", root / "scenarios")


# -- bad files, made per case ----------------------------------------------------------------


def _copy(name: str, to: str = "") -> Setup:
    """Copy a shared file into the case folder (as ``to``)."""

    def setup(shared: Path, case: Path) -> None:
        shutil.copy(shared / name, case / (to or Path(name).name))

    return setup


def _write(name: str, data: bytes | str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        target = case / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            target.write_text(data, encoding="utf-8")
        else:
            target.write_bytes(data)

    return setup


def _all(*steps: Setup) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        for step in steps:
            step(shared, case)

    return setup


def _edit_units(change: Callable[[str], str], name: str = "units.csv") -> Setup:
    def setup(shared: Path, case: Path) -> None:
        text = (shared / "counters" / "demo" / "units.csv").read_text(encoding="utf-8")
        (case / name).write_text(change(text), encoding="utf-8")

    return setup


def _game_with(edit: Callable[[Path, Path], None]) -> Setup:
    """The shared game folder copied to ``case/game``, then ``edit(game, shared)``."""

    def setup(shared: Path, case: Path) -> None:
        shutil.copytree(shared / "maps" / "demo", case / "game")
        edit(case / "game", shared)

    return setup


def _json_edit(name: str, change: Callable[[str], str]) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        text = (shared / "maps" / "demo" / name).read_text(encoding="utf-8")
        (case / name).write_text(change(text), encoding="utf-8")

    return setup


def _scenario(change: Callable[[str], str]) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        text = (shared / "scenarios" / "fm_omaha.json").read_text(encoding="utf-8")
        (case / "cases.json").write_text(change(text), encoding="utf-8")

    return setup


def _symlink(name: str, target: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        os.symlink(target.format(shared=shared, case=case), case / name)

    return setup


def _hardlink(name: str, source: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        os.link(case / source, case / name)

    return setup


def _fifo(name: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        os.mkfifo(case / name)

    return setup


def _socket(name: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(case / name))
        sock.close()

    return setup


def device(path: Path, major: int, minor: int, system: str) -> None:
    """A character device at ``path`` that behaves as ``system`` (``/dev/full``...).

    As root, a node of its own (``mknod``): should a regression replace it by a
    file, the machine's device is untouched. Otherwise a link to the system's
    device, which only root could replace.
    """
    if os.geteuid() == 0:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    else:
        os.symlink(system, path)


def _device(name: str, major: int, minor: int, system: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        device(case / name, major, minor, system)

    return setup


def _mkdir(name: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        (case / name).mkdir(parents=True)

    return setup


def _sparse(name: str, size: int, head: bytes) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        with (case / name).open("wb") as fh:
            fh.write(head)
            fh.truncate(size)

    return setup


def _rows(name: str, count: int) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        with (case / name).open("w", encoding="utf-8") as fh:
            fh.write("id,side,type\n")
            fh.writelines(f"u{n},allied,infantry\n" for n in range(count))

    return setup


def _image(name: str, fmt: str = "PNG", size: tuple[int, int] = (40, 40),
           cut: bool = False) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        path = case / name
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", size, "red").save(path, fmt)
        if cut:
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2])

    return setup


def _bomb(name: str) -> Setup:
    def setup(shared: Path, case: Path) -> None:
        path = case / name
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared / "bomb.png", path)

    return setup


def _faces_with(name: str, make: Setup) -> Setup:
    """The shared counter images copied to ``case/faces``, one of them ``name`` made by ``make``."""

    def setup(shared: Path, case: Path) -> None:
        shutil.copytree(shared / "counters" / "demo", case / "faces")
        (case / "faces" / name).unlink(missing_ok=True)
        make(shared, case)

    return setup


def _module(edit: Callable[[zipfile.ZipFile, zipfile.ZipFile], None], name: str = "bad.vmod"
            ) -> Setup:
    """The shared module rewritten entry by entry through ``edit(source, target)``."""

    def setup(shared: Path, case: Path) -> None:
        with zipfile.ZipFile(shared / "m.vmod") as source, \
                zipfile.ZipFile(case / name, "w", zipfile.ZIP_DEFLATED) as target:
            edit(source, target)

    return setup


def _copy_entries(source: zipfile.ZipFile, target: zipfile.ZipFile,
                  skip: frozenset[str] = frozenset()) -> None:
    for info in source.infolist():
        if info.filename not in skip:
            target.writestr(info.filename, source.read(info.filename))


def _with_entry(entry: str, data: bytes) -> Callable[[zipfile.ZipFile, zipfile.ZipFile], None]:
    def edit(source: zipfile.ZipFile, target: zipfile.ZipFile) -> None:
        _copy_entries(source, target, frozenset({entry}))
        target.writestr(entry, data)

    return edit


def _with_bomb_board(shared_bomb: bytes) -> Callable[[zipfile.ZipFile, zipfile.ZipFile], None]:
    return _with_entry("images/board-omaha.png", shared_bomb)


def _bomb_module(shared: Path, case: Path) -> None:
    _module(_with_bomb_board((shared / "bomb.png").read_bytes()))(shared, case)


def _face_bomb_module(shared: Path, case: Path) -> None:
    _module(_with_entry("images/914-352-front.png", (shared / "bomb.png").read_bytes()))(
        shared, case)


def _lying_module(shared: Path, case: Path) -> None:
    """buildFile.xml of 70 MB of spaces whose headers say 100 bytes."""
    path = case / "lying.vmod"
    with zipfile.ZipFile(shared / "m.vmod") as source, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        _copy_entries(source, target, frozenset({"buildFile.xml"}))
        target.writestr("buildFile.xml", b" " * (70 << 20))
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (at := data.find(signature, start)) >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            length = struct.unpack_from("<H", data, at + (26 if signature == b"PK\x03\x04"
                                                           else 28))[0]
            if bytes(data[name_at:name_at + length]) == b"buildFile.xml":
                struct.pack_into("<I", data, at + offset, 100)
            start = at + 4
    path.write_bytes(bytes(data))


_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
           b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
           b'<VASSAL.build.GameModule name="&lol2;"/>')
_XXE = (b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<VASSAL.build.GameModule name="&x;"/>')


def _slip(source: zipfile.ZipFile, target: zipfile.ZipFile) -> None:
    _copy_entries(source, target)
    target.writestr("../../escaped.txt", b"out of the folder")


def _declared_bomb(shared: Path, case: Path) -> None:
    """A module whose central directory declares more than bocage reads in all."""
    _module(_copy_entries)(shared, case)
    path = case / "bad.vmod"
    data = bytearray(path.read_bytes())
    at = data.find(b"PK\x01\x02")
    struct.pack_into("<I", data, at + 24, 0xFFFFFFF0)  # uncompressed size of the first entry
    path.write_bytes(bytes(data))


def _units_and_marker_sharing_an_id(shared: Path, case: Path) -> None:
    (case / "markers.csv").write_text("id,kind\n1,other\n", encoding="utf-8")


def _outside_image(game: Path, shared: Path) -> None:
    data = json.loads((game / "map.json").read_text())
    data["boards"][0]["image"] = "../../secret.png"
    (game / "map.json").write_text(json.dumps(data))
    Image.new("RGB", (40, 40), "blue").save(game.parent.parent / "secret.png")


def _nul_in_game_units(game: Path, shared: Path) -> None:
    units = shared / "counters" / "demo" / "units.csv"
    text = units.read_text(encoding="utf-8")
    (game / "units.csv").write_text(text.replace("914/352", "91\x004/352", 1), encoding="utf-8")


# -- the cases ----------------------------------------------------------------------------------

G = "{shared}/maps/demo"
UNITS = "{shared}/counters/demo/units.csv"
MARKERS = "{shared}/counters/demo/markers.csv"
FACES = "{shared}/counters/demo"
BOARD = "{shared}/maps/demo/board.png"
MODULE = "{shared}/m.vmod"
LEGEND = "{shared}/maps/demo/map.json"
SCAN = "{shared}/scan.jpg"
POSITION = "{shared}/maps/demo/position.json"

CASES: list[Case] = [
    # -- an output that is an input (issue 17, item 1) --------------------------------------
    Case("build-board-is-out", ("vassal", "build", G, "--board", "{case}/board.png", "--counters",
                                FACES, "-o", "{case}/board.png"),
         "{case}/board.png: --output would replace the input", _copy("maps/demo/board.png")),
    Case("validate-report-is-map", ("validate", "{case}/map.json", "--report", "{case}/map.json"),
         "{case}/map.json: --report would replace the input", _copy("maps/demo/map.json")),
    Case("sheet-pdf-is-manifest", ("counters", "sheet", "{case}/units.csv", "-o",
                                   "{case}/units.csv"),
         "{case}/units.csv: --output would replace the input", _copy("counters/demo/units.csv")),
    Case("preview-out-is-module", ("vassal", "preview", "{case}/m.vmod", "-o", "{case}/m.vmod"),
         "{case}/m.vmod: --output would replace the input", _copy("m.vmod")),
    Case("digitize-out-is-legend-and-grid", ("digitize", SCAN, "-l", "{case}/map.json", "--grid",
                                             "{case}/map.json", "-o", "{case}/map.json"),
         "{case}/map.json: --output would replace the input", _copy("maps/demo/map.json")),
    Case("digitize-overlay-is-scan", ("digitize", "{case}/scan.jpg", "-l", LEGEND, "-o",
                                      "{case}/new.json", "--overlay", "{case}/scan.jpg"),
         "{case}/scan.jpg: --overlay would replace the input", _copy("scan.jpg")),
    # The copy of the scan that --gis writes beside the GeoPackage would be the scan itself.
    Case("digitize-gis-copy-is-scan", ("digitize", "{case}/scan.jpg", "-l", LEGEND, "-o",
                                       "{case}/new.json", "--gis", "{case}/scan.gpkg"),
         "{case}/scan.jpg: --gis would replace the input {case}/scan.jpg (SCAN)",
         _copy("scan.jpg")),
    Case("digitize-geojson-hexsides-is-out", ("digitize", SCAN, "-l", LEGEND, "-o",
                                              "{case}/m.hexsides.geojson", "--geojson",
                                              "{case}/m.geojson"),
         "{case}/m.hexsides.geojson: --geojson and --output are the same file"),
    Case("digitize-gis-not-gpkg", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json",
                                   "--gis", "{case}/layers.shp"),
         "{case}/layers.shp: --gis writes a GeoPackage: give a name ending in .gpkg"),
    Case("digitize-gis-to-a-device", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json",
                                      "--gis", "/dev/null"),
         "/dev/null: --gis writes a GeoPackage and a copy of the scan beside it: give a file"),
    Case("digitize-geojson-to-stdout", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json",
                                        "--geojson", "-"),
         "-: --geojson writes a file, not a stream"),
    Case("output-through-a-symlink", ("digitize", SCAN, "-l", "{case}/map.json", "-o",
                                      "{case}/link.json"),
         "{case}/link.json: --output would replace the input {case}/map.json",
         _all(_copy("maps/demo/map.json"), _symlink("link.json", "map.json"))),
    Case("output-is-a-hard-link", ("counters", "sheet", "{case}/units.csv", "-o",
                                   "{case}/other.pdf"),
         "{case}/other.pdf: --output would replace the input {case}/units.csv",
         _all(_copy("counters/demo/units.csv"), _hardlink("other.pdf", "units.csv"))),
    Case("output-spelt-another-way", ("counters", "sheet", "{case}/units.csv", "-o",
                                      "{case}/sub/../units.csv"),
         "--output would replace the input {case}/units.csv",
         _all(_copy("counters/demo/units.csv"), _mkdir("sub"))),
    Case("two-outputs-one-file", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/a.json",
                                  "--geojson", "{case}/./a.json"),
         "{case}/a.json: --geojson and --output are the same file"),
    Case("picture-is-position", ("rules", "moves", G, "-p", "{case}/position.json", "-u", "914/352",
                                 "--picture", "{case}/position.json"),
         "{case}/position.json: --picture would replace the input",
         _copy("maps/demo/position.json")),
    Case("build-out-is-a-chart", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                                  "--charts", "{case}/aids", "-o", "{case}/aids/tec.png"),
         "{case}/aids/tec.png: --output would replace a file of {case}/aids",
         _image("aids/tec.png")),
    Case("build-out-is-game-units", ("vassal", "build", "{case}/game", "--board", BOARD,
                                     "--counters", FACES, "-o", "{case}/game/map.json"),
         "{case}/game/map.json: --output would replace the input", _game_with(lambda g, s: None)),
    Case("aids-out-is-the-game", ("aids", "{case}/game", "--out-dir", "{case}/game"),
         "{case}/game: --out-dir is the input folder", _game_with(lambda g, s: None)),
    Case("aids-out-holds-the-game", ("aids", "{case}/game", "--out-dir", "{case}"),
         "{case}: --out-dir holds the input folder", _game_with(lambda g, s: None)),
    Case("render-out-holds-other-folders", ("counters", "render", UNITS, "--out-dir", "{case}"),
         "{case}: holds a folder 'notes' that is not an output", _mkdir("notes")),
    Case("render-out-is-a-file", ("counters", "render", UNITS, "--out-dir", "{case}/units.csv"),
         "{case}/units.csv: is a file; give a folder", _copy("counters/demo/units.csv")),
    Case("render-input-named-like-a-face", ("counters", "render", "{case}/x-front.png", "--out-dir",
                                            "{case}"),
         "{case}: --out-dir would replace the input {case}/x-front.png",
         _copy("counters/demo/units.csv", "x-front.png")),
    # -- outputs that are not regular files (item 2) ----------------------------------------
    Case("stdout-for-a-module", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                                 "-o", "-"), "-: --output writes a file, not a stream"),
    Case("stdout-twice", ("digitize", SCAN, "-l", LEGEND, "-o", "-", "--overlay", "-"),
         "-: --output and --overlay both write to standard output"),
    Case("stdout-with-json", ("vassal", "preview", MODULE, "-o", "-", "--json"),
         "-: --json and --output both write to standard output"),
    Case("output-is-a-folder", ("counters", "sheet", UNITS, "-o", "{case}"),
         "{case}: is a folder; give a file name"),
    Case("output-under-a-file", ("counters", "sheet", UNITS, "-o", "{case}/units.csv/x.pdf"),
         "{case}/units.csv/x.pdf: cannot write file (Not a directory)",
         _copy("counters/demo/units.csv")),
    Case("output-is-a-socket", ("counters", "sheet", UNITS, "-o", "{case}/sock"),
         "{case}/sock: is a socket", _socket("sock")),
    Case("full-disk", ("counters", "sheet", UNITS, "-o", "{case}/full"),
         "{case}/full: cannot write file (No space left on device)",
         _device("full", 1, 7, "/dev/full")),
    Case("read-only-file-system", ("counters", "sheet", UNITS, "-o", "/proc/bocage.pdf"),
         "/proc/bocage.pdf: cannot write"),
    # -- inputs that are not what the option takes (item 8) ---------------------------------
    Case("folder-for-legend", ("digitize", SCAN, "-l", "{shared}/maps", "-o", "{case}/m.json"),
         "{shared}/maps: is a folder; --legend takes a file"),
    Case("folder-for-scan", ("digitize", "{shared}/maps", "-l", LEGEND, "-o", "{case}/m.json"),
         "{shared}/maps: is a folder; SCAN takes a file"),
    Case("folder-for-manifest", ("counters", "render", "{shared}/counters", "--out-dir",
                                 "{case}/o"),
         "{shared}/counters: is a folder; MANIFESTS takes a file"),
    Case("file-for-game-folder", ("aids", LEGEND, "--out-dir", "{case}/o"),
         "map.json: is not a folder; GAME_DIR takes a folder"),
    Case("missing-module", ("vassal", "check", "{case}/nothing.vmod"),
         "{case}/nothing.vmod: no such file"),
    Case("pipe-for-manifest", ("counters", "render", "{case}/fifo", "--out-dir", "{case}/o"),
         "{case}/fifo: is a pipe; MANIFESTS takes a regular file", _fifo("fifo")),
    Case("device-for-data-file", ("check", "/dev/zero"),
         "/dev/zero: is a character device; PATHS takes a regular file"),
    Case("device-for-scan", ("digitize", "/dev/zero", "-l", LEGEND, "-o", "{case}/m.json"),
         "/dev/zero: is a character device; SCAN takes a regular file"),
    # -- images (items 3, 5) ------------------------------------------------------------------
    Case("bomb-scan", ("digitize", "{shared}/bomb.png", "-l", LEGEND, "-o", "{case}/m.json"),
         "{shared}/bomb.png: image is 60,000 x 60,000 px, over the limit of 250,000,000 pixels"),
    Case("bomb-board", ("vassal", "build", G, "--board", "{shared}/bomb.png", "--counters", FACES,
                        "-o", "{case}/m.vmod"),
         "{shared}/bomb.png: image is 60,000 x 60,000 px"),
    Case("bomb-in-a-module", ("vassal", "preview", "{case}/bad.vmod", "-o", "{case}/p.png"),
         "{case}/bad.vmod: images/board-omaha.png: image is 60,000 x 60,000 px", _bomb_module),
    Case("limit-lowered-by-environment", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json"),
         "scan.jpg: image is 1,338 x 1,370 px, over the limit of 1,000 pixels",
         env={"BOCAGE_MAX_PIXELS": "1000"}),
    Case("limit-not-a-number", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json"),
         "BOCAGE_MAX_PIXELS: 'lots' is not a whole number of pixels",
         env={"BOCAGE_MAX_PIXELS": "lots"}),
    Case("truncated-png-scan", ("digitize", "{case}/cut.png", "-l", LEGEND, "-o", "{case}/m.json"),
         "{case}/cut.png: image file is truncated", _image("cut.png", cut=True)),
    Case("truncated-jpeg-board", ("vassal", "build", G, "--board", "{case}/cut.jpg", "--counters",
                                  FACES, "-o", "{case}/m.vmod"),
         "{case}/cut.jpg: image file is truncated",
         _image("cut.jpg", "JPEG", (400, 400), cut=True)),
    Case("text-named-png", ("digitize", "{case}/notes.png", "-l", LEGEND, "-o", "{case}/m.json"),
         "{case}/notes.png: not an image Pillow can read", _write("notes.png", "not a picture")),
    Case("empty-scan", ("digitize", "{case}/empty.png", "-l", LEGEND, "-o", "{case}/m.json"),
         "{case}/empty.png: not an image", _write("empty.png", b"")),
    Case("board-not-an-image", ("vassal", "build", G, "--board", "{case}/board.png", "--counters",
                                FACES, "-o", "{case}/m.vmod"),
         "{case}/board.png: cannot read image",
         _write("board.png", b"\x89PNG\r\n\x1a\nnonsense")),
    Case("chart-symlink-to-private-file", ("vassal", "build", G, "--board", BOARD, "--counters",
                                           FACES, "--charts", "{case}/aids", "--output",
                                           "{case}/m.vmod"),
         "{case}/aids/tec.png: is a symbolic link; charts are read only from regular files",
         _all(_mkdir("aids"), _image("private.png"),
              _symlink("aids/tec.png", "{case}/private.png"))),
    Case("chart-not-an-image", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                                "--charts", "{case}/aids", "-o", "{case}/m.vmod"),
         "{case}/aids/tec.png: not an image", _write("aids/tec.png", "secret text")),
    Case("chart-bomb", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                        "--charts", "{case}/aids", "-o", "{case}/m.vmod"),
         "{case}/aids/tec.png: image is 60,000 x 60,000 px", _bomb("aids/tec.png")),
    Case("face-symlink", ("vassal", "build", G, "--board", BOARD, "--counters", "{case}/faces",
                          "-o", "{case}/m.vmod"),
         "{case}/faces/914-352-front.png: is a symbolic link",
         _faces_with("914-352-front.png", _all(_image("private.png"),
                                               _symlink("faces/914-352-front.png",
                                                        "{case}/private.png")))),
    Case("face-is-jpeg", ("vassal", "build", G, "--board", BOARD, "--counters", "{case}/faces",
                          "-o", "{case}/m.vmod"),
         "{case}/faces/914-352-front.png: counter images must be PNG, this is JPEG",
         _faces_with("914-352-front.png", _image("faces/914-352-front.png", "JPEG"))),
    Case("face-truncated", ("vassal", "build", G, "--board", BOARD, "--counters", "{case}/faces",
                            "-o", "{case}/m.vmod"),
         "{case}/faces/914-352-front.png: image file is truncated",
         _faces_with("914-352-front.png", _image("faces/914-352-front.png", size=(300, 300),
                                                 cut=True))),
    Case("board-outside-the-game-folder", ("vassal", "build", "{case}/game", "--counters", FACES,
                                           "-o", "{case}/m.vmod"),
         "{case}/game/map.json: boards[0].image: '../../secret.png' is outside the game folder",
         _game_with(_outside_image)),
    # -- JSON (item 7) --------------------------------------------------------------------------
    Case("scenario-nan", ("rules", "test", "{case}/cases.json"),
         "{case}/cases.json: invalid JSON (NaN is not valid JSON)",
         _scenario(lambda t: t.replace('"passes"', 'NaN', 1) if '"passes"' in t
                   else t.replace("true", "NaN", 1))),
    Case("scenario-duplicate-key", ("rules", "test", "{case}/cases.json"),
         "{case}/cases.json: [0]: key 'id' is given twice",
         _scenario(lambda t: t.replace('"id":', '"id": "x", "id":', 1))),
    Case("scenario-deep", ("rules", "test", "{case}/cases.json"),
         "{case}/cases.json: invalid JSON (nested more than 64 deep)",
         _write("cases.json", "[" * 100_000 + "]" * 100_000)),
    Case("scenario-deep-within-parser", ("rules", "test", "{case}/cases.json"),
         "{case}/cases.json: ", _write("cases.json", "[" * 80 + "]" * 80)),
    Case("map-nan", ("validate", "{case}/map.json"), "{case}/map.json: invalid JSON (NaN",
         _json_edit("map.json", lambda t: t.replace('"cols": 25', '"cols": NaN', 1))),
    Case("map-huge-number", ("validate", "{case}/map.json"),
         "{case}/map.json: invalid JSON (the number 1e400 is too large, on line",
         _json_edit("map.json", lambda t: t.replace('"cols": 25', '"cols": 1e400', 1))),
    Case("map-nul-in-title", ("check", "{case}/map.json"),
         "{case}/map.json: title: the text holds the control character U+0000",
         _json_edit("map.json", lambda t: t.replace('"title": "', '"title": "\\u0000', 1))),
    Case("position-lone-surrogate", ("rules", "moves", G, "-p", "{case}/position.json", "-u",
                                     "914/352"),
         "{case}/position.json: ", _json_edit("position.json",
                                              lambda t: t.replace('"914/352"', '"\\ud800"', 1))),
    Case("json-not-utf8", ("check", "{case}/map.json"), "{case}/map.json: not UTF-8 text",
         _write("map.json", b'{"kind": "map", "title": "\xff"}')),
    Case("json-over-the-size-limit", ("check", "{case}/map.json"),
         "{case}/map.json: is over 64 MiB", _sparse("map.json", (64 << 20) + 1, b"{")),
    Case("json-top-level-list", ("validate", "{case}/map.json"),
         "{case}/map.json: expected a JSON object", _write("map.json", "[1, 2]")),
    Case("style-bad-colour", ("counters", "render", UNITS, "--style", "{case}/style.json",
                              "--out-dir",
                              "{case}/o"),
         "{case}/style.json: ", _write("style.json", '{"units": {"background": "green"}}')),
    # -- CSV (items 4, 8) -----------------------------------------------------------------------
    Case("nul-in-unit-name-render", ("counters", "render", "{case}/units.csv", "--out-dir",
                                     "{case}/o"),
         "{case}/units.csv:3: id: the cell holds the control character U+0000",
         _edit_units(lambda t: t.replace("914/352", "91\x004/352", 1))),
    Case("nul-in-unit-name-build", ("vassal", "build", "{case}/game", "--board", BOARD,
                                    "--counters", FACES, "-o", "{case}/m.vmod"),
         "{case}/game/units.csv:3: id: the cell holds the control character U+0000",
         _game_with(_nul_in_game_units)),
    Case("empty-manifest", ("counters", "render", "{case}/units.csv", "--out-dir", "{case}/o"),
         "{case}/units.csv: no units or markers below the header",
         _write("units.csv", "id,side,type\n")),
    Case("empty-manifest-sheet", ("counters", "sheet", "{case}/units.csv", "-o",
                                  "{case}/s.pdf"),
         "{case}/units.csv: no units or markers below the header",
         _write("units.csv", "id,side,type\n")),
    Case("zero-byte-manifest", ("counters", "render", "{case}/units.csv", "--out-dir", "{case}/o"),
         "{case}/units.csv:1: no header row", _write("units.csv", "")),
    Case("million-row-manifest", ("counters", "render", "{case}/units.csv", "--out-dir",
                                  "{case}/o"),
         "{case}/units.csv: is over 16 MiB", _rows("units.csv", 1_000_000)),
    Case("too-many-rows", ("counters", "sheet", "{case}/units.csv", "-o", "{case}/s.pdf"),
         "{case}/units.csv:10002: more than 10,000 rows", _rows("units.csv", 12_000)),
    Case("marker-count-billion", ("counters", "sheet", "{case}/markers.csv", "-o",
                                  "{case}/s.pdf"),
         "{case}/markers.csv:2: count: must be <= 1000",
         _write("markers.csv", "id,kind,count\nsf,support_fire,1000000000\n")),
    Case("manifest-not-utf8", ("counters", "render", "{case}/units.csv", "--out-dir", "{case}/o"),
         "{case}/units.csv:2: side: not UTF-8 text (byte 0xe9)",
         _write("units.csv", b"id,side,type\na,alli\xe9d,infantry\n")),
    Case("ragged-row", ("counters", "render", "{case}/units.csv", "--out-dir", "{case}/o"),
         "{case}/units.csv:2: row has 2 fields but the header has 3",
         _write("units.csv", "id,side,type\na,allied\n")),
    Case("unknown-type", ("counters", "render", "{case}/units.csv", "--out-dir", "{case}/o"),
         "{case}/units.csv:2: unknown unit type 'armr'",
         _write("units.csv", "id,side,type\na,allied,armr\n")),
    Case("duplicate-id", ("check", "{case}/units.csv"), "{case}/units.csv:3: duplicate unit id",
         _write("units.csv", "id,side,type\na,allied,infantry\na,allied,armor\n")),
    Case("unit-and-marker-share-an-id", ("counters", "render", UNITS, "{case}/markers.csv",
                                         "--out-dir", "{case}/o"),
         "counters: id '1' is given twice", _units_and_marker_sharing_an_id),
    # -- modules (the kinds that already passed) ----------------------------------------------
    Case("zip-slip", ("vassal", "check", "{case}/bad.vmod"), "{case}/bad.vmod:",
         _module(_slip)),
    Case("xxe", ("vassal", "inspect", "{case}/bad.vmod"), "{case}/bad.vmod:",
         _module(_with_entry("buildFile.xml", _XXE))),
    Case("billion-laughs", ("vassal", "preview", "{case}/bad.vmod", "-o", "{case}/p.png"),
         "{case}/bad.vmod:", _module(_with_entry("buildFile.xml", _LAUGHS))),
    Case("declared-zip-bomb", ("vassal", "check", "{case}/bad.vmod"), "{case}/bad.vmod:",
         _declared_bomb),
    Case("lying-zip-header", ("vassal", "check", "{case}/lying.vmod"), "{case}/lying.vmod:",
         _lying_module),
    Case("not-a-zip", ("vassal", "preview", "{case}/bad.vmod", "-o", "{case}/p.png"),
         "{case}/bad.vmod:", _write("bad.vmod", os.urandom(0) + b"PK\x03\x04 not really")),
    Case("truncated-module", ("vassal", "inspect", "{case}/m.vmod"), "{case}/m.vmod:",
         lambda shared, case: (case / "m.vmod").write_bytes(
             (shared / "m.vmod").read_bytes()[:5000])),
    Case("import-a-face-bomb", ("vassal", "import", "{case}/bad.vmod", "--out-dir", "{case}/game"),
         "{case}/bad.vmod: images/914-352-front.png: image is 60,000 x 60,000 px",
         _face_bomb_module),
    Case("import-into-a-full-folder", ("vassal", "import", MODULE, "--out-dir", "{case}/game"),
         "{case}/game: already exists and is not an empty folder",
         _write("game/notes.txt", "the builder's")),
    Case("import-out-holds-the-module", ("vassal", "import", "{case}/m.vmod", "--out-dir",
                                         "{case}"),
         "{case}: already exists and is not an empty folder", _copy("m.vmod")),
    Case("read-save-out-is-the-save", ("vassal", "read-save", "{case}/g.vsav", "--module", MODULE,
                                       "-o", "{case}/g.vsav"),
         "{case}/g.vsav: --output would replace the input {case}/g.vsav (SAVE)",
         _write("g.vsav", b"!VCSK saved game")),
    Case("read-save-folder", ("vassal", "read-save", "{shared}/maps"),
         "{shared}/maps: is a folder; SAVE takes a file"),
    # -- positions and paths for the rules ------------------------------------------------------
    Case("position-hex-off-the-map", ("rules", "supply", G, "-p", "{case}/position.json"),
         "{case}/position.json: ",
         _json_edit("position.json", lambda t: t.replace('"2417"', '"9999"', 1))),
    Case("position-is-a-folder", ("rules", "stacking", G, "-p", "{shared}/maps"),
         "{shared}/maps: is a folder; --position takes a file"),
    Case("vsav-missing", ("rules", "supply", G, "--vsav", "{case}/game.vsav"),
         "{case}/game.vsav: no such file"),
    # -- options a user types (item 4) ----------------------------------------------------------
    Case("size-zero", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--size", "0in"),
         "counters render: --size: 0 in is out of range (1/4 in to 2 in)"),
    Case("size-huge", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--size", "100000mm"),
         "counters render: --size: "),
    Case("size-not-a-length", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--size",
                               "5/8"),
         "counters render: --size: '5/8' is not a length"),
    Case("bleed-twenty-inches", ("counters", "sheet", UNITS, "-o", "{case}/s.pdf", "--bleed",
                                 "20in"),
         "counters sheet: --bleed: 20 in is out of range (0 in to 1/4 in)"),
    Case("margin-huge", ("counters", "sheet", UNITS, "-o", "{case}/s.pdf", "--margin", "5in"),
         "counters sheet: --margin: 5 in is out of range"),
    Case("back-offset-huge", ("counters", "sheet", UNITS, "-o", "{case}/s.pdf",
                              "--back-offset", "10in,0mm"),
         "counters sheet: --back-offset: 10 in is out of range"),
    Case("dpi-nan", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--dpi", "nan"),
         "counters render: --dpi: 'nan' is not a number"),
    Case("dpi-huge", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--dpi", "100000"),
         "counters render: --dpi: 100000.0 is not in the range 30<=x<=2400"),
    Case("face-too-many-pixels", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--size",
                                  "2in", "--dpi", "2400"),
         "--dpi: a face would be 4,800 px a side"),
    Case("piece-size-huge", ("vassal", "build", G, "--board", BOARD, "--counters", FACES, "-o",
                             "{case}/m.vmod", "--piece-size", "100000"),
         "vassal build: --piece-size: 100000 is not in the range 0<=x<=2000"),
    Case("date-saved-negative", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                                 "-o", "{case}/m.vmod", "--date-saved", "-5"),
         "vassal build: --date-saved: -5 is not in the range"),
    Case("name-with-control-character", ("vassal", "build", G, "--board", BOARD, "--counters",
                                         FACES, "-o", "{case}/m.vmod", "--name", "a\x07b"),
         "vassal build: --name: holds the control character U+0007"),
    Case("version-too-long", ("vassal", "build", G, "--board", BOARD, "--counters", FACES,
                              "-o", "{case}/m.vmod", "--module-version", "1" * 1000),
         "vassal build: --module-version: is 1,000 characters long"),
    Case("scale-zero", ("vassal", "preview", MODULE, "-o", "{case}/p.png", "--scale", "0"),
         "vassal preview: --scale: 0.0 is not in the range 0<x<=64"),
    Case("scale-nan", ("vassal", "preview", MODULE, "-o", "{case}/p.png", "--scale", "nan"),
         "vassal preview: --scale: 'nan' is not a number"),
    Case("scale-too-big-for-the-map", ("vassal", "preview", MODULE, "-o", "{case}/p.png",
                                       "--scale", "60"),
         "--scale: "),
    Case("hex-size-zero", ("aids", G, "--out-dir", "{case}/o", "--hex-size", "0"),
         "aids: --hex-size: 0.0 is not in the range 0.1<=x<=3.0"),
    Case("map-too-many-pixels", ("aids", G, "--out-dir", "{case}/o", "--hex-size", "3",
                                 "--map-dpi", "600"),
         "--map-dpi: board 'omaha' (25 x 22 hexes) would be drawn on about"),
    Case("anchor-nan", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json", "--anchor",
                        "0101=nan,5", "--anchor", "0202=5,5"),
         "--anchor: '0101=nan,5' is not HEX=X,Y"),
    Case("title-with-escape", ("digitize", SCAN, "-l", LEGEND, "-o", "{case}/m.json", "--title",
                               "a\x1b[2Jb"),
         "digitize: --title: holds the control character U+001B"),
    Case("paper-unknown", ("counters", "sheet", UNITS, "-o", "{case}/s.pdf", "--paper",
                           "legal"),
         "counters sheet: --paper: 'legal' is not one of 'letter', 'a4'"),
    Case("option-unknown", ("counters", "render", UNITS, "--out-dir", "{case}/o", "--colour",
                            "red"),
         "counters render: No such option '--colour'. Did you mean '--out-dir'?"),
    Case("option-missing", ("counters", "render", UNITS),
         "counters render: Missing option '--out-dir'"),
]
