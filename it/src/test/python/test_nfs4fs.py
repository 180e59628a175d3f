"""nfs4fs (the vectorized VFSI NFSv4.1 client, fsspec API) against a running server.

Connection: nfs4fs takes the port inside ``host`` ("127.0.0.1:2049") and the export as ``root`` (a path
prefix inside the server's namespace). nfs4fs has no byte-range lock API, so locks are tested from Java.
chmod and truncate by path have no fsspec method; they go through the native client, which is what
fsspec's own methods call too.

Run: python3 -m pytest it/src/test/python/test_nfs4fs.py --nfs-port 2049 --nfs-export /
"""

import posixpath

import pytest

from conftest import SIZES, payload, sha256

fsspec = pytest.importorskip("fsspec")
pytest.importorskip("nfs4fs")

MIB = 1024 * 1024


def open_fs(target):
    return fsspec.filesystem(
        "nfs4",
        host=f"{target.host}:{target.port}",
        root=target.export_path,
        auth="auth_sys",
        minor_version=1,
        skip_instance_cache=True,
        connect_timeout=10.0,
        request_timeout=60.0,
        read_all_max_total_bytes=160 * MIB,
        directory_max_entries=100_000,
        cache_type="none",
    )


@pytest.fixture
def fs(target):
    filesystem = open_fs(target)
    yield filesystem
    filesystem.close()


@pytest.fixture
def workdir(fs, unique_name):
    directory = "/" + unique_name
    fs.mkdir(directory, create_parents=False)
    yield directory
    fs.rm(directory, recursive=True)


def names(fs, directory):
    return sorted(posixpath.basename(p.rstrip("/")) for p in fs.ls(directory, detail=False, refresh=True))


def native(fs, path):
    """The path as nfs4fs's native client wants it (the export prefix added)."""
    return fs._native_path(fs._strip_protocol(path))


def test_files_of_every_size_read_back_with_the_same_sha256(fs, workdir):
    small = {f"{workdir}/f{size}": payload(size, 1) for size in SIZES if size < 64 * MIB}
    fs.pipe(small)
    read = fs.cat(list(small))
    for path, data in small.items():
        assert path in read, f"{path} missing from cat() result"
        assert len(read[path]) == len(data), f"{path}: read {len(read[path])} bytes, wrote {len(data)}"
        assert sha256(read[path]) == sha256(data), f"{path}: content differs"
        assert fs.info(path)["size"] == len(data), f"{path}: size attribute wrong"


def test_a_64_mib_file_streamed_in_chunks_reads_back_with_the_same_sha256(fs, workdir):
    path = f"{workdir}/big.bin"
    data = payload(64 * MIB, 2)
    with fs.open(path, "wb") as f:
        for offset in range(0, len(data), MIB):
            f.write(data[offset:offset + MIB])
    assert fs.info(path)["size"] == len(data)
    chunks = []
    with fs.open(path, "rb", cache_type="none") as f:
        while True:
            chunk = f.read(3 * MIB + 17)
            if not chunk:
                break
            chunks.append(chunk)
    assert sha256(b"".join(chunks)) == sha256(data)
    assert sha256(fs.cat_file(path)) == sha256(data)


def test_a_file_overwritten_in_the_middle_has_old_and_new_bytes(fs, workdir):
    path = f"{workdir}/patch.bin"
    data = bytearray(payload(3 * MIB, 3))
    fs.pipe_file(path, bytes(data))
    patch = payload(5000, 4)
    with fs.open(path, "r+b") as f:
        f.seek(MIB - 7)
        f.write(patch)
    data[MIB - 7:MIB - 7 + len(patch)] = patch
    assert sha256(fs.cat_file(path)) == sha256(bytes(data))


def test_a_directory_of_10000_entries_lists_every_name_once(fs, workdir):
    directory = f"{workdir}/many"
    fs.mkdir(directory, create_parents=False)
    expected = [f"entry-{i:05d}" for i in range(10_000)]
    fs.pipe({f"{directory}/{name}": b"" for name in expected})
    listed = [posixpath.basename(p.rstrip("/")) for p in fs.ls(directory, detail=False, refresh=True)]
    assert len(listed) == len(set(listed)), "a name was listed twice"
    assert sorted(listed) == expected


def test_nested_directories_are_created_and_listed(fs, workdir):
    fs.makedirs(f"{workdir}/a/b/c", exist_ok=False)
    fs.pipe_file(f"{workdir}/a/b/c/leaf", b"leaf")
    assert fs.isdir(f"{workdir}/a/b")
    assert names(fs, f"{workdir}/a/b/c") == ["leaf"]
    found = sorted(posixpath.relpath("/" + fs._strip_protocol(p).lstrip("/"), workdir) for p in fs.find(workdir))
    assert found == ["a/b/c/leaf"]


def test_rename_moves_a_file_and_a_directory(fs, workdir):
    fs.pipe_file(f"{workdir}/old", b"content")
    fs.mv(f"{workdir}/old", f"{workdir}/new")
    assert not fs.exists(f"{workdir}/old")
    assert fs.cat_file(f"{workdir}/new") == b"content"

    fs.makedirs(f"{workdir}/d1/sub")
    fs.pipe_file(f"{workdir}/d1/sub/x", b"x")
    fs.mv(f"{workdir}/d1", f"{workdir}/d2", recursive=True)
    assert not fs.exists(f"{workdir}/d1")
    assert fs.cat_file(f"{workdir}/d2/sub/x") == b"x"


def test_rename_over_an_existing_file_replaces_it(fs, workdir):
    fs.pipe({f"{workdir}/src": b"new", f"{workdir}/dst": b"old"})
    fs.mv(f"{workdir}/src", f"{workdir}/dst")
    assert names(fs, workdir) == ["dst"]
    assert fs.cat_file(f"{workdir}/dst") == b"new"


def test_hard_link_shares_content_and_survives_removal_of_the_original(fs, workdir):
    fs.pipe_file(f"{workdir}/orig", b"shared")
    fs.hardlink(f"{workdir}/orig", f"{workdir}/link")
    assert fs.info(f"{workdir}/orig")["nlink"] == 2
    assert fs.info(f"{workdir}/orig")["fileid"] == fs.info(f"{workdir}/link")["fileid"]
    fs.rm_file(f"{workdir}/orig")
    assert fs.cat_file(f"{workdir}/link") == b"shared"
    assert fs.info(f"{workdir}/link")["nlink"] == 1


def test_symlink_reads_back_its_target(fs, workdir):
    fs.pipe_file(f"{workdir}/target", b"t")
    fs.symlink("target", f"{workdir}/sym")
    assert fs.readlink(f"{workdir}/sym") == "target"
    listed = {posixpath.basename(e["name"]): e for e in fs.ls(workdir, detail=True, refresh=True)}
    assert listed["sym"]["type"] == "symlink"
    assert fs._client.lstat(native(fs, f"{workdir}/sym"))["islink"] is True
    assert fs.cat_file(f"{workdir}/sym") == b"t", "reading through the link reaches the target"


def test_remove_deletes_files_and_empty_directories_only(fs, workdir):
    fs.pipe_file(f"{workdir}/file", b"f")
    fs.makedirs(f"{workdir}/full/inner")
    fs.mkdir(f"{workdir}/empty", create_parents=False)
    fs.rm_file(f"{workdir}/file")
    fs.rmdir(f"{workdir}/empty")
    with pytest.raises(OSError):
        fs.rmdir(f"{workdir}/full")
    assert names(fs, workdir) == ["full"]
    fs.rm(f"{workdir}/full", recursive=True)
    assert names(fs, workdir) == []
    with pytest.raises(FileNotFoundError):
        fs.cat_file(f"{workdir}/file")


def test_chmod_changes_the_mode(fs, workdir):
    fs.pipe_file(f"{workdir}/m", b"m")
    fs._client.chmod(native(fs, f"{workdir}/m"), 0o640)
    assert fs.info(f"{workdir}/m")["mode"] & 0o7777 == 0o640
    fs._client.chmod(native(fs, f"{workdir}/m"), 0o600)
    assert fs.info(f"{workdir}/m")["mode"] & 0o7777 == 0o600


def test_truncate_shrinks_and_extends_with_zeros(fs, workdir):
    data = payload(10_000, 5)
    fs.pipe_file(f"{workdir}/t", data)
    fs._client.truncate(native(fs, f"{workdir}/t"), 100)
    assert fs.cat_file(f"{workdir}/t") == data[:100]
    with fs.open(f"{workdir}/t", "r+b") as f:
        f.truncate(5000)
    assert fs.info(f"{workdir}/t")["size"] == 5000
    assert fs.cat_file(f"{workdir}/t") == data[:100] + bytes(4900)


def test_missing_file_is_file_not_found(fs, workdir):
    with pytest.raises(FileNotFoundError):
        fs.cat_file(f"{workdir}/nope")
    assert not fs.exists(f"{workdir}/nope")


def test_two_clients_see_each_others_files(target, fs, workdir):
    other = open_fs(target)
    try:
        fs.pipe_file(f"{workdir}/from-one", b"1")
        assert other.cat_file(f"{workdir}/from-one") == b"1"
        other.pipe_file(f"{workdir}/from-two", b"2")
        assert names(fs, workdir) == ["from-one", "from-two"]
    finally:
        other.close()
