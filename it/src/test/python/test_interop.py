"""Files written by one third-party client read back by the other (nfs4fs <-> nfs-rs).

Run: python3 -m pytest it/src/test/python/test_interop.py --nfs-port 2049 --nfs-export /
"""

import posixpath
import time

import pytest

from conftest import payload, sha256

pytest.importorskip("nfs4fs")
nfs_rs = pytest.importorskip("nfs_rs")

from test_nfs4fs import open_fs  # noqa: E402
from test_nfs_rs import connect, read_file, remove_tree, write_file  # noqa: E402

MIB = 1024 * 1024


def read_retrying(rs, path):
    """Reads through nfs-rs, retrying what nfs-rs itself calls safe to retry (NFS4ERR_DELAY while a
    server recalls the other client's delegation), for at most 10 seconds."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return read_file(rs, path)
        except nfs_rs.NfsRetryableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture
def clients(target, unique_name):
    rs = connect(target)
    fs = open_fs(target)
    rs.mkdir(unique_name)
    yield fs, rs, unique_name
    fs.close()
    try:
        remove_tree(rs, unique_name)
    finally:
        rs.close()


def test_files_written_by_nfs4fs_read_back_through_nfs_rs(clients):
    fs, rs, directory = clients
    files = {f"{directory}/n{size}": payload(size, 21) for size in (0, 1, 4096, MIB + 1, 9 * MIB)}
    fs.pipe({"/" + path: data for path, data in files.items()})
    for path, data in files.items():
        assert sha256(read_retrying(rs, path)) == sha256(data), path


def test_files_written_by_nfs_rs_read_back_through_nfs4fs(clients):
    fs, rs, directory = clients
    files = {f"{directory}/r{size}": payload(size, 22) for size in (0, 1, 4096, MIB + 1, 9 * MIB)}
    for path, data in files.items():
        write_file(rs, path, data)
    read = fs.cat(["/" + path for path in files])
    for path, data in files.items():
        assert sha256(read["/" + path]) == sha256(data), path


def test_namespace_changes_of_one_client_are_seen_by_the_other(clients):
    fs, rs, directory = clients
    rs.mkdir(f"{directory}/d")
    write_file(rs, f"{directory}/d/a", b"a")
    rs.symlink("a", f"{directory}/d/s")
    fs.mv(f"/{directory}/d/a", f"/{directory}/d/b")
    listed = sorted(posixpath.basename(p) for p in fs.ls(f"/{directory}/d", detail=False, refresh=True))
    assert listed == ["b", "s"]
    assert sorted(rs.listdir(f"{directory}/d")) == ["b", "s"]
    assert fs.readlink(f"/{directory}/d/s") == "a"
