"""nfs-rs (Python binding of a Rust NFSv3/4.1 client) against a running server.

Connection: ``Client.connect("nfs://HOST:PORT/EXPORT?version=4.1&noresvport=true")``; paths are then
relative to the export. nfs-rs looks up "." for the export root itself, which servers may answer with
NFS4ERR_BADNAME, so every test works in a subdirectory. nfs-rs negotiates locks but has no Python lock
API, so byte-range locks are tested from Java.

Run: python3 -m pytest it/src/test/python/test_nfs_rs.py --nfs-port 2049 --nfs-export /
"""

import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import SIZES, payload, sha256

nfs_rs = pytest.importorskip("nfs_rs")

MIB = 1024 * 1024
# Connections that create or remove the entries of a big directory side by side: each create or remove waits for
# the server's durable reply, and concurrent ones share its fsyncs, so 8 take about a third of the time of one.
PARALLEL_CLIENTS = 8
# A directory with more files than this is emptied by PARALLEL_CLIENTS connections.
PARALLEL_REMOVE_ABOVE = 100


def connect(target, uid=0, gid=0):
    return nfs_rs.Client.connect(target.nfs_rs_url(), uid=uid, gid=gid, connect_timeout=10,
                                 operation_timeout=120)


@pytest.fixture
def client(target):
    c = connect(target)
    yield c
    c.close()


@pytest.fixture
def workdir(client, unique_name, target):
    client.mkdir(unique_name)
    yield unique_name
    remove_tree(client, unique_name, target)


def on_parallel_clients(target, action, paths):
    """Calls action(client, path) for every path, spread over PARALLEL_CLIENTS connections of their own."""
    def run(share):
        c = connect(target)
        try:
            for path in share:
                action(c, path)
        finally:
            c.close()
    shares = [paths[k::PARALLEL_CLIENTS] for k in range(PARALLEL_CLIENTS)]
    with ThreadPoolExecutor(PARALLEL_CLIENTS) as pool:
        for done in [pool.submit(run, share) for share in shares if share]:
            done.result()


def touch_all(target, directory, names):
    """Creates the empty files directory/name for every name, through nfs-rs, on parallel connections."""
    on_parallel_clients(target, lambda c, path: c.touch(path), [f"{directory}/{name}" for name in names])


def remove_tree(client, path, target=None):
    files = []
    for entry in list(client.scandir(path)):
        child = f"{path}/{entry.name}"
        if entry.info.type == nfs_rs.FileType.DIRECTORY:
            remove_tree(client, child, target)
        else:
            files.append(child)
    if target is not None and len(files) > PARALLEL_REMOVE_ABOVE:
        on_parallel_clients(target, lambda c, child: c.unlink(child), files)
    else:
        for child in files:
            client.unlink(child)
    client.rmdir(path)


def write_file(client, path, data, chunk=4 * MIB):
    with client.open(path, "wb") as f:
        for offset in range(0, len(data), chunk):
            assert f.write(data[offset:offset + chunk]) == min(chunk, len(data) - offset)


def read_file(client, path):
    with client.open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("size", SIZES)
def test_file_reads_back_with_the_same_sha256(client, workdir, size):
    path = f"{workdir}/f{size}"
    data = payload(size, 11)
    write_file(client, path, data)
    assert client.stat(path).size == size
    assert sha256(read_file(client, path)) == sha256(data)


def test_positional_writes_and_reads_hit_the_right_bytes(client, workdir):
    path = f"{workdir}/pos"
    data = bytearray(payload(2 * MIB + 11, 12))
    write_file(client, path, bytes(data))
    patch = payload(70_000, 13)
    with client.open(path, "r+b") as f:
        assert f.write_at(patch, MIB - 5) == len(patch)
        assert f.read_at(MIB - 5, len(patch)) == patch
    data[MIB - 5:MIB - 5 + len(patch)] = patch
    assert sha256(read_file(client, path)) == sha256(bytes(data))


def test_writing_past_the_end_leaves_a_zero_filled_gap(client, workdir):
    path = f"{workdir}/gap"
    with client.open(path, "w+b") as f:
        f.write(b"head")
        f.seek(100_000)
        f.write(b"tail")
    data = read_file(client, path)
    assert len(data) == 100_004
    assert data[:4] == b"head" and data[-4:] == b"tail" and data[4:100_000] == bytes(99_996)


def test_a_directory_of_10000_entries_lists_every_name_once(client, workdir, target):
    directory = f"{workdir}/many"
    client.mkdir(directory)
    expected = [f"entry-{i:05d}" for i in range(10_000)]
    touch_all(target, directory, expected)
    listed = client.listdir(directory)
    assert len(listed) == len(set(listed)), "a name was listed twice"
    assert sorted(listed) == expected


def test_directory_pages_resume_from_the_returned_cookie(client, workdir, target):
    directory = f"{workdir}/paged"
    client.mkdir(directory)
    expected = {f"p{i:04d}" for i in range(3000)}
    touch_all(target, directory, sorted(expected))
    seen = []
    position = nfs_rs.DirectoryCookie()
    cookies = set()
    for _ in range(10_000):
        page = client.scandir_page(directory, position)
        seen.extend(entry.name for entry in page.entries)
        if page.eof:
            break
        assert page.next.cookie not in cookies, "the server repeated a cookie"
        cookies.add(page.next.cookie)
        position = page.next
    else:
        pytest.fail("listing did not reach EOF")
    assert sorted(seen) == sorted(expected)


def test_mkdir_with_parents_and_rmdir(client, workdir):
    client.mkdir(f"{workdir}/a/b/c", parents=True, mode=0o750)
    assert client.stat(f"{workdir}/a/b/c").type == nfs_rs.FileType.DIRECTORY
    assert client.stat(f"{workdir}/a/b/c").mode & 0o7777 == 0o750
    with pytest.raises(FileExistsError):
        client.mkdir(f"{workdir}/a")
    with pytest.raises(OSError):
        client.rmdir(f"{workdir}/a")
    client.rmdir(f"{workdir}/a/b/c")
    assert client.listdir(f"{workdir}/a/b") == []


def test_rename_moves_files_and_directories(client, workdir):
    write_file(client, f"{workdir}/old", b"content")
    client.rename(f"{workdir}/old", f"{workdir}/new")
    assert not client.exists(f"{workdir}/old")
    assert read_file(client, f"{workdir}/new") == b"content"
    client.mkdir(f"{workdir}/d1/sub", parents=True)
    write_file(client, f"{workdir}/d1/sub/x", b"x")
    client.rename(f"{workdir}/d1", f"{workdir}/d2")
    assert read_file(client, f"{workdir}/d2/sub/x") == b"x"
    assert sorted(client.listdir(workdir)) == ["d2", "new"]


def test_rename_over_an_existing_file_replaces_it(client, workdir):
    write_file(client, f"{workdir}/src", b"new")
    write_file(client, f"{workdir}/dst", b"old")
    client.rename(f"{workdir}/src", f"{workdir}/dst")
    assert client.listdir(workdir) == ["dst"]
    assert read_file(client, f"{workdir}/dst") == b"new"


def test_rename_into_a_missing_directory_fails_and_keeps_the_source(client, workdir):
    write_file(client, f"{workdir}/keep", b"k")
    with pytest.raises(FileNotFoundError):
        client.rename(f"{workdir}/keep", f"{workdir}/nodir/keep")
    assert read_file(client, f"{workdir}/keep") == b"k"


def test_hard_link_shares_the_file(client, workdir):
    write_file(client, f"{workdir}/orig", b"shared")
    client.link(f"{workdir}/orig", f"{workdir}/link")
    a, b = client.stat(f"{workdir}/orig"), client.stat(f"{workdir}/link")
    assert a.fileid == b.fileid and a.nlink == 2
    with client.open(f"{workdir}/link", "r+b") as f:
        f.write_at(b"SH", 0)
    assert read_file(client, f"{workdir}/orig") == b"SHared"
    client.unlink(f"{workdir}/orig")
    assert client.stat(f"{workdir}/link").nlink == 1


def test_link_onto_an_existing_name_is_file_exists(client, workdir):
    write_file(client, f"{workdir}/one", b"1")
    write_file(client, f"{workdir}/two", b"2")
    with pytest.raises(FileExistsError):
        client.link(f"{workdir}/one", f"{workdir}/two")
    assert read_file(client, f"{workdir}/two") == b"2"


def test_symlink_reads_back_its_target(client, workdir):
    client.symlink("some/relative/../target", f"{workdir}/sym")
    assert client.readlink(f"{workdir}/sym") == "some/relative/../target"
    assert client.stat(f"{workdir}/sym").type == nfs_rs.FileType.SYMLINK
    long_target = "x" * 1000
    client.symlink(long_target, f"{workdir}/long")
    assert client.readlink(f"{workdir}/long") == long_target


def test_remove_deletes_files_and_refuses_missing_ones(client, workdir):
    write_file(client, f"{workdir}/gone", b"g")
    client.unlink(f"{workdir}/gone")
    assert not client.exists(f"{workdir}/gone")
    with pytest.raises(FileNotFoundError):
        client.unlink(f"{workdir}/gone")
    client.unlink(f"{workdir}/gone", missing_ok=True)
    assert client.listdir(workdir) == []


def test_chmod_chown_utime_and_truncate_set_attributes(client, workdir):
    path = f"{workdir}/attrs"
    data = payload(10_000, 14)
    write_file(client, path, data)
    client.chmod(path, 0o640)
    assert client.stat(path).mode & 0o7777 == 0o640
    client.chown(path, 1234, 5678)
    info = client.stat(path)
    assert (info.uid, info.gid) == (1234, 5678)
    stamp = 1_600_000_000_123_456_789
    client.utime(path, ns=(stamp, stamp))
    assert client.stat(path).mtime == stamp
    client.truncate(path, 100)
    assert read_file(client, path) == data[:100]
    client.truncate(path, 5000)
    assert read_file(client, path) == data[:100] + bytes(4900)


def test_writes_update_mtime_and_change(client, workdir):
    path = f"{workdir}/times"
    write_file(client, path, b"a")
    before = client.stat(path)
    time.sleep(0.05)
    with client.open(path, "r+b") as f:
        f.write_at(b"b", 1)
    after = client.stat(path)
    assert after.size == 2
    assert after.mtime >= before.mtime and after.ctime >= before.ctime
    assert (after.mtime, after.ctime) != (before.mtime, before.ctime)


def test_access_reports_what_the_mode_allows(target, client, workdir):
    path = f"{workdir}/private"
    write_file(client, path, b"p")
    client.chmod(path, 0o600)
    other = connect(target, uid=4321, gid=4321)
    try:
        assert client.access(path, os.R_OK | os.W_OK)
        assert not other.access(path, os.R_OK)
        with pytest.raises(PermissionError):
            read_file(other, path)
    finally:
        other.close()


def test_missing_path_is_file_not_found(client, workdir):
    with pytest.raises(FileNotFoundError):
        client.stat(f"{workdir}/nope")
    with pytest.raises(FileNotFoundError):
        read_file(client, f"{workdir}/nope/deeper")


def test_two_clients_see_each_others_writes(target, client, workdir):
    other = connect(target)
    try:
        write_file(client, f"{workdir}/shared", b"first")
        assert read_file(other, f"{workdir}/shared") == b"first"
        with other.open(f"{workdir}/shared", "r+b") as f:
            f.write_at(b"FIRST", 0)
        assert read_file(client, f"{workdir}/shared") == b"FIRST"
    finally:
        other.close()
