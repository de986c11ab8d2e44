"""pipeline.files: outputs whole or not at all, devices written through, folders swapped whole."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

import pipeline.files as files
from pipeline.errors import DataError
from pipeline.files import (
    atomic_file,
    atomic_folder,
    check_output_folder,
    clean_leftovers,
    output_target,
    write_bytes_atomic,
)
from tests.corpus.cases import device
from tests.needs import missing

DEAD_PID = 999_999_999  # above any pid_max: never a live process


def test_a_file_is_replaced_whole_with_its_mode_and_nothing_left(tmp_path):
    target = tmp_path / "map.json"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.json"]


def test_an_error_part_way_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_file(target) as fh:
        fh.write(b"half")
        raise RuntimeError("the renderer failed")
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]


def test_a_ctrl_c_part_way_leaves_the_old_file(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), atomic_file(target) as fh:
        fh.write(b"half")
        raise KeyboardInterrupt
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]


def test_a_symlink_keeps_its_link_and_its_target_is_written(tmp_path):
    (tmp_path / "real.json").write_bytes(b"old")
    (tmp_path / "link.json").symlink_to("real.json")
    write_bytes_atomic(tmp_path / "link.json", b"new")
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "real.json").read_bytes() == b"new"


def test_a_dangling_symlink_creates_the_file_it_names(tmp_path):
    (tmp_path / "link.json").symlink_to("made.json")
    write_bytes_atomic(tmp_path / "link.json", b"new")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "made.json").read_bytes() == b"new"


def test_a_device_is_written_through_and_stays_a_device(tmp_path):
    null = tmp_path / "null"
    device(null, 1, 3, "/dev/null")
    assert output_target(null).kind == "stream"
    write_bytes_atomic(null, b"into the void")
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_a_full_device_is_one_line_and_stays_a_device(tmp_path):
    full = tmp_path / "full"
    device(full, 1, 7, "/dev/full")
    with pytest.raises(DataError) as info:
        write_bytes_atomic(full, b"x" * 100_000)
    assert str(info.value) == f"{full}: cannot write file (No space left on device)"
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_pipe_is_written_through(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_bytes_atomic(fifo, b"through the pipe")
    reader.join(timeout=30)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_descriptor_name_writes_into_the_file_behind_it(tmp_path):
    # /dev/stdout redirected to a file resolves to that file: it must be written
    # through, or the shell's redirection would keep the old, unlinked one.
    behind = tmp_path / "redirected.txt"
    with behind.open("wb") as fh:
        fh.write(b"before ")
        fh.flush()
        alias = Path(f"/proc/self/fd/{fh.fileno()}")
        if not alias.exists():
            missing("/proc/self/fd (Linux only)")
        assert output_target(alias).kind == "stream"
        write_bytes_atomic(alias, b"after")
    assert behind.read_bytes() == b"before after"


def test_dash_is_standard_output(capsysbinary):
    write_bytes_atomic("-", b"\x89PNG data")
    assert capsysbinary.readouterr().out == b"\x89PNG data"


def test_nothing_reaches_standard_output_when_the_writer_fails(capsysbinary):
    with pytest.raises(RuntimeError), atomic_file("-") as fh:
        fh.write(b"half a picture")
        raise RuntimeError("failed")
    assert capsysbinary.readouterr().out == b""


@pytest.mark.parametrize("kind", ["folder", "socket"])
def test_what_cannot_take_a_file_is_refused_in_one_line(tmp_path, kind):
    path = tmp_path / kind
    if kind == "folder":
        path.mkdir()
        message = "is a folder; give a file name"
    else:
        import socket

        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
        message = "is a socket; bocage writes files, character devices and pipes"
    with pytest.raises(DataError) as info:
        write_bytes_atomic(path, b"x")
    assert str(info.value) == f"{path}: {message}"


# -- leftovers ---------------------------------------------------------------------------------


def test_leftovers_of_dead_runs_are_removed_by_the_next_write(tmp_path):
    dead = tmp_path / f".out.pdf.{DEAD_PID}.0123abcd.bocage-tmp"
    dead.write_bytes(b"half")
    alive = tmp_path / f".out.pdf.{os.getpid()}.0123abcd.bocage-tmp"  # a write going on now
    alive.write_bytes(b"in progress")
    other = tmp_path / f".other.pdf.{DEAD_PID}.0123abcd.bocage-tmp"  # another target's
    other.write_bytes(b"not this one")
    write_bytes_atomic(tmp_path / "out.pdf", b"new")
    assert not dead.exists() and alive.exists() and other.exists()


def test_a_folder_swap_cut_between_its_renames_is_put_back(tmp_path):
    old = tmp_path / f".faces.{DEAD_PID}.0123abcd.bocage-old"
    old.mkdir()
    (old / "a-front.png").write_bytes(b"old face")
    half = tmp_path / f".faces.{DEAD_PID}.89abcdef.bocage-tmp"
    half.mkdir()
    assert clean_leftovers(tmp_path, "faces") == [half]
    assert (tmp_path / "faces" / "a-front.png").read_bytes() == b"old face"


# -- folders -----------------------------------------------------------------------------------


def _faces(name: str) -> bool:
    return name.endswith(".png")


def test_a_new_folder_appears_whole(tmp_path):
    with atomic_folder(tmp_path / "faces", owns=_faces) as folder:
        folder.write("a.png", b"a")
        assert not (tmp_path / "faces").exists()  # nothing shows until the end
    assert sorted(p.name for p in (tmp_path / "faces").iterdir()) == ["a.png"]


def test_a_folder_is_replaced_as_a_set_and_other_files_are_kept_as_they_were(tmp_path):
    out = tmp_path / "faces"
    with atomic_folder(out, owns=_faces) as folder:
        folder.write("a.png", b"old a")
        folder.write("gone.png", b"old unit")
    (out / "units.csv").write_bytes(b"the builder's manifest")
    inode = (out / "units.csv").stat().st_ino
    with atomic_folder(out, owns=_faces) as folder:
        folder.write("a.png", b"new a")
    assert sorted(p.name for p in out.iterdir()) == ["a.png", "units.csv"]
    assert (out / "a.png").read_bytes() == b"new a"
    assert (out / "units.csv").stat().st_ino == inode  # the same file, not a copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faces"]


@pytest.mark.parametrize("stop", [RuntimeError, KeyboardInterrupt])
def test_a_folder_left_part_way_is_as_it_was(tmp_path, stop):
    out = tmp_path / "faces"
    with atomic_folder(out, owns=_faces) as folder:
        folder.write("a.png", b"old")
    with pytest.raises(stop), atomic_folder(out, owns=_faces) as folder:
        folder.write("a.png", b"new")
        raise stop()
    assert [(p.name, p.read_bytes()) for p in out.iterdir()] == [("a.png", b"old")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faces"]


def test_a_folder_swaps_in_two_renames_where_it_cannot_exchange(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_exchange", lambda a, b: False)
    out = tmp_path / "faces"
    for data in (b"old", b"new"):
        with atomic_folder(out) as folder:
            folder.write("a.png", data)
    assert (out / "a.png").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faces"]


def test_a_symlinked_folder_keeps_its_link(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    with atomic_folder(tmp_path / "link") as folder:
        folder.write("a.png", b"a")
    assert (tmp_path / "link").is_symlink() and (tmp_path / "real" / "a.png").exists()


def test_a_folder_holding_other_folders_or_a_file_is_refused_before_any_work(tmp_path):
    (tmp_path / "out" / "notes").mkdir(parents=True)
    with pytest.raises(DataError) as info:
        check_output_folder(tmp_path / "out", _faces)
    assert str(info.value) == (f"{tmp_path / 'out'}: holds a folder 'notes' that is not an"
                               " output; give a folder of its own")
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(DataError, match="is a file; give a folder"):
        check_output_folder(tmp_path / "file")


def test_a_folder_writer_takes_plain_new_names_only(tmp_path):
    with atomic_folder(tmp_path / "out") as folder:
        for bad in ("../escape.png", "", ".."):
            with pytest.raises(ValueError):
                folder.write(bad, b"x")
        folder.write("a.png", b"a")
        with pytest.raises(ValueError):
            folder.write("a.png", b"again")


def test_a_folder_writer_names_its_files_as_the_folder_was_given(tmp_path, monkeypatch):
    # Messages keep the user's names: "aids/tec.pdf", not the folder's real path.
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    monkeypatch.chdir(tmp_path)
    with atomic_folder("link") as folder:
        named = folder.write("a.png", b"a")
    assert named == Path("link") / "a.png"
    assert (tmp_path / "real" / "a.png").read_bytes() == b"a"


def _write_staged(job: tuple[files.StagedFolder, str]) -> str:
    staged, name = job
    staged.write(name, name.encode())
    return name


def test_files_other_processes_write_join_the_folder_whole(tmp_path):
    from pipeline.workers import map_in_processes

    out = tmp_path / "faces"
    with atomic_folder(out) as folder:
        names = [f"{n}-front.png" for n in range(6)]
        written = list(map_in_processes(_write_staged, [(folder.staged, n) for n in names],
                                        jobs=2, chunk=1, serial_below=0))
        assert written == names and not out.exists()  # nothing shows before the swap
        assert [folder.add(n) for n in names] == [out / n for n in names]
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    assert (out / "3-front.png").read_bytes() == b"3-front.png"
    assert folder.names == names


def test_a_staged_file_is_new_and_plain_and_counted_once(tmp_path):
    with atomic_folder(tmp_path / "faces") as folder:
        folder.staged.write("a.png", b"a")
        with pytest.raises(DataError, match="faces: cannot write file"):
            folder.staged.write("a.png", b"again")  # another worker's file is never replaced
        for bad in ("", "..", "x/y.png"):
            with pytest.raises(ValueError, match="not a new plain file name"):
                folder.staged.write(bad, b"x")
        folder.add("a.png")
        with pytest.raises(ValueError, match=r"not a new plain file name: 'a\.png'"):
            folder.add("a.png")
        with pytest.raises(ValueError, match=r"not a new plain file name: 'a\.png'"):
            folder.write("a.png", b"a third")
    assert (tmp_path / "faces" / "a.png").read_bytes() == b"a"
