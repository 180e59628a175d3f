#!/usr/bin/env python3
"""faultfs: a recording FUSE pass-through and an offline generator of power-cut states (test tooling).

Two commands (see docs/durability.md, "The fault layer"):

  faultfs.py record BACKING MOUNTPOINT LOG [IDS]
      Mounts MOUNTPOINT as a pass-through to the directory BACKING (pyfuse3, libfuse 3). Every call that
      changes something (create, mkdir, mknod, symlink, link, unlink, rmdir, rename, write, truncate, chmod)
      is applied to BACKING and then appended to LOG as one record, before the reply; so is every fsync and
      fdatasync of a file and every fsync of a directory. The records name inodes by ids of this layer (never
      reused), not paths, so hard links, renamed directories and open unlinked files are followed exactly.
      BACKING's contents at mount time are taken as durable (the first records describe them). Nothing is
      really synced: durability is what the log says. LOG's size in bytes is the position of the
      layer's clock: a process that reads it after an operation returned knows that every record of that
      operation lies before that position. Runs until unmounted (fusermount3 -u) or SIGTERM/SIGINT.

  faultfs.py serve
      Reads commands on stdin: "mount BACKING MOUNTPOINT LOG [IDS]" mounts as record does and answers
      "mounted"; the next line, "unmount", unmounts and answers "unmounted"; then the next mount. For
      many short mounts in a row (one interpreter start in all).

  faultfs.py states LOG
      Reads commands on stdin, one per line: "POS DIR IDS" writes into the new directory DIR the state the
      disk would hold after a power cut at byte position POS of LOG, and into the file IDS the inode ids
      of its paths, and answers "ok" (or "error ...") on stdout. Positions must not decrease from one
      command to the next (the log is replayed once). "record DIR MOUNTPOINT LOG2 IDS" then serves that
      state with the inode numbers the recorded run saw (the server keeps inode numbers in its handle
      table, as on a real disk, where a power cut does not change them).

The model of a power cut (strict POSIX, as on a file system that keeps nothing it was not asked to sync):
  - a file's data and size are durable as of its last fsync or fdatasync (O_SYNC/O_DSYNC writes count as
    an fdatasync after each write); its mode as of its last fsync;
  - a directory entry (create, mkdir, mknod, symlink, link, unlink, rmdir) is durable as of the last
    fsync of the directory that holds it; a new inode's initial mode, and a symlink's target, are durable
    with its first durable entry;
  - a rename between two directories is durable, at both ends at once, as of the first fsync of either
    directory: ext4, XFS and btrfs journal a rename as one transaction (ALICE, OSDI 2014). With
    FAULTFS_STRICT_RENAME=1 in the environment of "states", each end is durable only with its own
    directory's fsync (strict POSIX);
  - everything else is lost: the crash state is the tree reached from the root through durable entries,
    with each file's durable contents. Records are atomic (no torn writes); owners and times are not
    modelled.
"""

import errno
import json
import os
import stat
import struct
import sys

HEADER = struct.Struct("<IBI")  # total length, record type, header length; then JSON header, then payload

# record types
R_INODE = 1      # new inode: {"id", "kind": "f"|"d"|"l"|"n", "mode", "target"?}
R_LINK = 2       # {"dir", "name", "id"}: name now refers to id (replacing what it named)
R_UNLINK = 3     # {"dir", "name"}
R_RENAME = 4     # {"src", "sname", "dst", "dname", "exchange"}
R_WRITE = 5      # {"id", "off"} + payload
R_TRUNCATE = 6   # {"id", "size"}
R_CHMOD = 7      # {"id", "mode"}
R_FSYNC = 8      # {"id", "datasync"}: a file, or a directory (its entries)
R_SYNCALL = 9    # everything so far is durable (end of the initial scan)

ROOT = 1


class Log:
    """Appends records to the log with one write(2) each (O_APPEND), so a record is whole once it returns."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)

    def put(self, kind, header, payload=b""):
        h = json.dumps(header, separators=(",", ":")).encode()
        os.write(self.fd, HEADER.pack(HEADER.size + len(h) + len(payload), kind, len(h)) + h + payload)


def read_records(path):
    """Yields (end position, type, header, payload) for every whole record of the log."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + HEADER.size <= len(data):
        total, kind, hlen = HEADER.unpack_from(data, pos)
        if pos + total > len(data):
            break
        h = json.loads(data[pos + HEADER.size:pos + HEADER.size + hlen])
        payload = data[pos + HEADER.size + hlen:pos + total]
        pos += total
        yield pos, kind, h, payload


# ---- record: the FUSE pass-through -------------------------------------------------------------------------

def make_recorder(backing, log_path, ids_path=None):
    """The pass-through over BACKING that logs into LOG_PATH (see the module documentation)."""
    import pyfuse3
    from pyfuse3 import FUSEError

    class Node:
        __slots__ = ("id", "links", "entries")

        def __init__(self, ident, directory):
            self.id = ident
            self.links = set()  # (parent id, name bytes)
            self.entries = {} if directory else None  # name bytes -> id

    class Recorder(pyfuse3.Operations):
        enable_writeback_cache = False

        def __init__(self):
            super().__init__()
            self.log = Log(log_path)
            self.nodes = {ROOT: Node(ROOT, True)}
            self.next_id = ROOT + 1
            self.known = {}  # relative path bytes -> id, from a state written by "states"
            if ids_path:
                with open(ids_path) as f:
                    saved = json.load(f)
                self.next_id = saved["next"]
                self.known = {os.fsencode(k): v for k, v in saved["paths"].items()}
            self.files = {}  # fh -> (fd, id, sync writes)
            self.next_fh = 1
            self.scan(ROOT, os.fsencode(backing), b"")
            self.log.put(R_SYNCALL, {})

        # -- bookkeeping
        def new_node(self, path, directory, ident=None):
            if ident is None:
                ident = self.next_id
                self.next_id += 1
            node = Node(ident, directory)
            self.nodes[ident] = node
            st = os.lstat(path)
            kind = "d" if stat.S_ISDIR(st.st_mode) else "l" if stat.S_ISLNK(st.st_mode) else \
                "f" if stat.S_ISREG(st.st_mode) else "n"
            h = {"id": ident, "kind": kind, "mode": stat.S_IMODE(st.st_mode)}
            if kind == "l":
                h["target"] = os.fsdecode(os.readlink(path))
            self.log.put(R_INODE, h)
            return node

        def scan(self, ident, path, rel):
            for name in sorted(os.listdir(path)):
                child_path = os.path.join(path, name)
                child_rel = os.path.join(rel, name)
                st = os.lstat(child_path)
                known = self.known.get(child_rel)
                if known is not None and known in self.nodes:  # a hard link to an inode seen already
                    self.attach(ident, name, known)
                    self.log.put(R_LINK, {"dir": ident, "name": os.fsdecode(name), "id": known})
                    continue
                child = self.new_node(child_path, stat.S_ISDIR(st.st_mode), known)
                self.attach(ident, name, child.id)
                self.log.put(R_LINK, {"dir": ident, "name": os.fsdecode(name), "id": child.id})
                if stat.S_ISDIR(st.st_mode):
                    self.scan(child.id, child_path, child_rel)
                elif stat.S_ISREG(st.st_mode):
                    with open(child_path, "rb") as f:
                        data = f.read()
                    if data:
                        self.log.put(R_WRITE, {"id": child.id, "off": 0}, data)

        def attach(self, parent, name, ident):
            self.nodes[parent].entries[name] = ident
            self.nodes[ident].links.add((parent, name))

        def detach(self, parent, name):
            ident = self.nodes[parent].entries.pop(name)
            self.nodes[ident].links.discard((parent, name))
            return ident

        def path(self, ident):
            if ident == ROOT:
                return os.fsencode(backing)
            node = self.nodes.get(ident)
            if node is None or not node.links:
                raise FUSEError(errno.ENOENT)
            parent, name = min(node.links)
            return os.path.join(self.path(parent), name)

        def child(self, parent, name):
            node = self.nodes.get(parent)
            if node is None or node.entries is None:
                raise FUSEError(errno.ENOTDIR)
            ident = node.entries.get(name)
            if ident is None:
                raise FUSEError(errno.ENOENT)
            return ident

        def attrs(self, ident, st):
            e = pyfuse3.EntryAttributes()
            for a in ("st_mode", "st_nlink", "st_uid", "st_gid", "st_rdev", "st_size", "st_atime_ns",
                      "st_mtime_ns", "st_ctime_ns", "st_blksize", "st_blocks"):
                setattr(e, a, getattr(st, a))
            e.st_ino = ident
            e.generation = 0
            e.entry_timeout = 1.0
            e.attr_timeout = 1.0
            return e

        def stat_of(self, ident):
            for fd, fid, _ in self.files.values():
                if fid == ident:
                    return os.fstat(fd)
            return os.lstat(self.path(ident))

        @staticmethod
        def oserror(e):
            return FUSEError(e.errno or errno.EIO)

        # -- queries
        async def lookup(self, parent_inode, name, ctx):
            if name == b".":
                ident = parent_inode
            elif name == b"..":
                links = self.nodes[parent_inode].links
                ident = min(links)[0] if links else ROOT
            else:
                ident = self.child(parent_inode, name)
            try:
                return self.attrs(ident, self.stat_of(ident))
            except OSError as e:
                raise self.oserror(e)

        async def getattr(self, inode, ctx=None):
            try:
                return self.attrs(inode, self.stat_of(inode))
            except OSError as e:
                raise self.oserror(e)

        async def readlink(self, inode, ctx):
            try:
                return os.readlink(self.path(inode))
            except OSError as e:
                raise self.oserror(e)

        async def opendir(self, inode, ctx):
            if self.nodes.get(inode) is None or self.nodes[inode].entries is None:
                raise FUSEError(errno.ENOTDIR)
            return inode

        async def readdir(self, fh, start_id, token):
            node = self.nodes[fh]
            names = sorted(node.entries)
            for i in range(start_id, len(names)):
                ident = node.entries[names[i]]
                try:
                    a = self.attrs(ident, self.stat_of(ident))
                except OSError:
                    continue
                if not pyfuse3.readdir_reply(token, names[i], a, i + 1):
                    break

        async def releasedir(self, fh):
            pass

        async def statfs(self, ctx):
            s = os.statvfs(backing)
            r = pyfuse3.StatvfsData()
            for a in ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree",
                      "f_favail", "f_namemax"):
                setattr(r, a, getattr(s, a))
            return r

        async def access(self, inode, mode, ctx):
            return True

        async def getxattr(self, inode, name, ctx):
            raise FUSEError(pyfuse3.ENOATTR)

        async def listxattr(self, inode, ctx):
            return []

        # -- namespace changes
        def made(self, parent, name, path, directory):
            node = self.new_node(path, directory)
            self.attach(parent, name, node.id)
            self.log.put(R_LINK, {"dir": parent, "name": os.fsdecode(name), "id": node.id})
            return node.id

        async def mkdir(self, parent_inode, name, mode, ctx):
            path = os.path.join(self.path(parent_inode), name)
            try:
                os.mkdir(path, mode & ~ctx.umask)
            except OSError as e:
                raise self.oserror(e)
            ident = self.made(parent_inode, name, path, True)
            return self.attrs(ident, os.lstat(path))

        async def mknod(self, parent_inode, name, mode, rdev, ctx):
            path = os.path.join(self.path(parent_inode), name)
            try:
                os.mknod(path, mode & ~ctx.umask, rdev)
            except OSError as e:
                raise self.oserror(e)
            ident = self.made(parent_inode, name, path, False)
            return self.attrs(ident, os.lstat(path))

        async def symlink(self, parent_inode, name, target, ctx):
            path = os.path.join(self.path(parent_inode), name)
            try:
                os.symlink(target, path)
            except OSError as e:
                raise self.oserror(e)
            ident = self.made(parent_inode, name, path, False)
            return self.attrs(ident, os.lstat(path))

        async def create(self, parent_inode, name, mode, flags, ctx):
            path = os.path.join(self.path(parent_inode), name)
            try:
                fd = os.open(path, (flags & ~(os.O_APPEND | os.O_NOCTTY)) | os.O_CREAT | os.O_EXCL,
                             mode & ~ctx.umask)
            except OSError as e:
                raise self.oserror(e)
            ident = self.made(parent_inode, name, path, False)
            return self.open_fh(fd, ident, flags), self.attrs(ident, os.fstat(fd))

        async def link(self, inode, new_parent_inode, new_name, ctx):
            path = os.path.join(self.path(new_parent_inode), new_name)
            try:
                os.link(self.path(inode), path)
            except OSError as e:
                raise self.oserror(e)
            self.attach(new_parent_inode, new_name, inode)
            self.log.put(R_LINK, {"dir": new_parent_inode, "name": os.fsdecode(new_name), "id": inode})
            return self.attrs(inode, os.lstat(path))

        async def unlink(self, parent_inode, name, ctx):
            self.child(parent_inode, name)
            try:
                os.unlink(os.path.join(self.path(parent_inode), name))
            except OSError as e:
                raise self.oserror(e)
            self.detach(parent_inode, name)
            self.log.put(R_UNLINK, {"dir": parent_inode, "name": os.fsdecode(name)})

        async def rmdir(self, parent_inode, name, ctx):
            self.child(parent_inode, name)
            try:
                os.rmdir(os.path.join(self.path(parent_inode), name))
            except OSError as e:
                raise self.oserror(e)
            self.detach(parent_inode, name)
            self.log.put(R_UNLINK, {"dir": parent_inode, "name": os.fsdecode(name)})

        async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
            self.child(parent_inode_old, name_old)
            old = os.path.join(self.path(parent_inode_old), name_old)
            new = os.path.join(self.path(parent_inode_new), name_new)
            try:
                if flags:
                    renameat2(old, new, flags)
                else:
                    os.rename(old, new)
            except OSError as e:
                raise self.oserror(e)
            exchange = bool(flags & pyfuse3.RENAME_EXCHANGE)
            moved = self.detach(parent_inode_old, name_old)
            if exchange:
                other = self.detach(parent_inode_new, name_new)
                self.attach(parent_inode_old, name_old, other)
            elif name_new in self.nodes[parent_inode_new].entries:
                self.detach(parent_inode_new, name_new)
            self.attach(parent_inode_new, name_new, moved)
            self.log.put(R_RENAME, {"src": parent_inode_old, "sname": os.fsdecode(name_old),
                                    "dst": parent_inode_new, "dname": os.fsdecode(name_new),
                                    "exchange": exchange})

        # -- data and attributes
        def open_fh(self, fd, ident, flags):
            fh = self.next_fh
            self.next_fh += 1
            self.files[fh] = (fd, ident, bool(flags & (os.O_SYNC | os.O_DSYNC)))
            return pyfuse3.FileInfo(fh=fh)

        async def open(self, inode, flags, ctx):
            try:
                fd = os.open(self.path(inode), flags & ~(os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOCTTY))
            except OSError as e:
                raise self.oserror(e)
            if flags & os.O_TRUNC:
                self.log.put(R_TRUNCATE, {"id": inode, "size": 0})
            return self.open_fh(fd, inode, flags)

        async def read(self, fh, off, size):
            return os.pread(self.files[fh][0], size, off)

        async def write(self, fh, off, buf):
            fd, ident, sync = self.files[fh]
            try:
                n = os.pwrite(fd, buf, off)
            except OSError as e:
                raise self.oserror(e)
            self.log.put(R_WRITE, {"id": ident, "off": off}, bytes(buf[:n]))
            if sync:
                self.log.put(R_FSYNC, {"id": ident, "datasync": True})
            return n

        async def setattr(self, inode, attr, fields, fh, ctx):
            try:
                target = self.files[fh][0] if fh is not None and fh in self.files else self.path(inode)
                if fields.update_size:
                    os.truncate(target, attr.st_size)
                    self.log.put(R_TRUNCATE, {"id": inode, "size": attr.st_size})
                if fields.update_mode:
                    os.chmod(target, stat.S_IMODE(attr.st_mode))
                    self.log.put(R_CHMOD, {"id": inode, "mode": stat.S_IMODE(attr.st_mode)})
                if fields.update_uid or fields.update_gid:
                    os.chown(target, attr.st_uid if fields.update_uid else -1,
                             attr.st_gid if fields.update_gid else -1, follow_symlinks=False)
                if fields.update_atime or fields.update_mtime:
                    st = os.lstat(self.path(inode)) if not isinstance(target, int) else os.fstat(target)
                    times = (attr.st_atime_ns if fields.update_atime else st.st_atime_ns,
                             attr.st_mtime_ns if fields.update_mtime else st.st_mtime_ns)
                    if isinstance(target, int):
                        os.utime(target, ns=times)
                    else:
                        os.utime(target, ns=times, follow_symlinks=False)
                return self.attrs(inode, self.stat_of(inode))
            except OSError as e:
                raise self.oserror(e)

        async def flush(self, fh):
            pass

        async def release(self, fh):
            fd = self.files.pop(fh)[0]
            os.close(fd)

        async def fsync(self, fh, datasync):
            self.log.put(R_FSYNC, {"id": self.files[fh][1], "datasync": bool(datasync)})

        async def fsyncdir(self, fh, datasync):
            self.log.put(R_FSYNC, {"id": fh, "datasync": False})

    return Recorder()


def fuse_options():
    import pyfuse3
    options = set(pyfuse3.default_options)
    options.add("fsname=faultfs")
    options.discard("default_permissions")
    return options


def record(backing, mountpoint, log_path, ids_path=None):
    import pyfuse3
    import trio
    ops = make_recorder(backing, log_path, ids_path)
    pyfuse3.init(ops, mountpoint, fuse_options())

    import signal

    def stop(*_):
        pyfuse3.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("mounted", flush=True)
    try:
        trio.run(pyfuse3.main)
    finally:
        pyfuse3.close(unmount=True)
        os.close(ops.log.fd)


def serve():
    """Mounts one state after another, on commands from stdin (one process: no interpreter start per mount)."""
    import pyfuse3
    import trio

    async def until_unmount():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pyfuse3.main)
            while True:
                line = await trio.to_thread.run_sync(sys.stdin.readline)
                if not line or line.strip() == "unmount":
                    break
                print("error: expected unmount", flush=True)
            pyfuse3.terminate()

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        words = line.split()
        if not words:
            continue
        try:
            if words[0] != "mount" or len(words) not in (4, 5):
                raise ValueError("expected: mount BACKING MOUNTPOINT LOG [IDS]")
            ops = make_recorder(words[1], words[3], words[4] if len(words) == 5 else None)
            pyfuse3.init(ops, words[2], fuse_options())
        except Exception as e:  # report and go on: the caller decides
            print("error %s: %s" % (type(e).__name__, e), flush=True)
            continue
        print("mounted", flush=True)
        try:
            trio.run(until_unmount)
        finally:
            pyfuse3.close(unmount=True)
            os.close(ops.log.fd)
        print("unmounted", flush=True)


def renameat2(old, new, flags):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd = -100
    if libc.renameat2(at_fdcwd, old, at_fdcwd, new, flags) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


# ---- states: the offline crash-state generator ------------------------------------------------------------

class Inode:
    __slots__ = ("kind", "data", "durable", "mode", "durable_mode", "target", "entries", "durable_entries")

    def __init__(self, kind, mode, target):
        self.kind = kind
        self.data = bytearray()
        self.durable = b""
        self.mode = mode
        self.durable_mode = mode
        self.target = target
        self.entries = {} if kind == "d" else None
        self.durable_entries = {} if kind == "d" else None

    def sync(self, datasync):
        if self.kind == "d":
            self.durable_entries = dict(self.entries)
        else:
            self.durable = bytes(self.data)
        if not datasync:
            self.durable_mode = self.mode


class Model:
    def __init__(self, strict_rename=False):
        self.inodes = {ROOT: Inode("d", 0o755, None)}
        self.strict_rename = strict_rename
        self.renames = []  # renames between two directories not yet durable in both: (src, sname, dst, dname, ids)

    def apply(self, kind, h, payload):
        if kind == R_INODE:
            self.inodes[h["id"]] = Inode(h["kind"], h["mode"], h.get("target"))
        elif kind == R_LINK:
            self.inodes[h["dir"]].entries[h["name"]] = h["id"]
        elif kind == R_UNLINK:
            self.inodes[h["dir"]].entries.pop(h["name"], None)
        elif kind == R_RENAME:
            src, dst = self.inodes[h["src"]].entries, self.inodes[h["dst"]].entries
            moved = src.pop(h["sname"])
            other = dst.get(h["dname"]) if h["exchange"] else None
            if h["exchange"]:
                src[h["sname"]] = other
            dst[h["dname"]] = moved
            if h["src"] != h["dst"] and not self.strict_rename:
                self.renames.append((h["src"], h["sname"], h["dst"], h["dname"], moved, other))
        elif kind == R_WRITE:
            data = self.inodes[h["id"]].data
            off = h["off"]
            if len(data) < off:
                data.extend(bytes(off - len(data)))
            data[off:off + len(payload)] = payload
        elif kind == R_TRUNCATE:
            data = self.inodes[h["id"]].data
            if len(data) > h["size"]:
                del data[h["size"]:]
            else:
                data.extend(bytes(h["size"] - len(data)))
        elif kind == R_CHMOD:
            self.inodes[h["id"]].mode = h["mode"]
        elif kind == R_FSYNC:
            if self.inodes[h["id"]].kind == "d":
                self.rename_durably(h["id"])
            self.inodes[h["id"]].sync(h["datasync"])
        elif kind == R_SYNCALL:
            for inode in self.inodes.values():
                inode.sync(False)

    def rename_durably(self, ident):
        """An fsync of either directory of a rename makes the whole rename durable (a journaled rename)."""
        left = []
        for r in self.renames:
            src, sname, dst, dname, moved, other = r
            if ident not in (src, dst):
                left.append(r)
                continue
            sd, dd = self.inodes[src].durable_entries, self.inodes[dst].durable_entries
            if other is None:
                sd.pop(sname, None)
            else:
                sd[sname] = other
            dd[dname] = moved
        self.renames = left

    def materialize(self, out, ids_path):
        os.makedirs(out)
        self.out = out
        self.extra_links = {}
        made = {}
        self._dir(ROOT, out, made, set())
        paths = {os.path.relpath(p, out): i for i, p in made.items()}
        paths.update(self.extra_links)
        with open(ids_path, "w") as f:
            json.dump({"next": max(self.inodes) + 1, "paths": paths}, f)

    def _dir(self, ident, path, made, seen):
        seen = seen | {ident}
        for name, child in sorted(self.inodes[ident].durable_entries.items()):
            p = os.path.join(path, name)
            inode = self.inodes[child]
            if child in made:
                if inode.kind != "d":
                    os.link(made[child], p)
                    self.extra_links[os.path.relpath(p, self.out)] = child
                continue
            if inode.kind == "d":
                if child in seen:
                    continue
                os.mkdir(p)
                os.chmod(p, inode.durable_mode)
                made[child] = p
                self._dir(child, p, made, seen)
            elif inode.kind == "l":
                os.symlink(inode.target, p)
                made[child] = p
            elif inode.kind == "f":
                with open(p, "wb") as f:
                    f.write(inode.durable)
                os.chmod(p, inode.durable_mode)
                made[child] = p
            else:
                with open(p, "wb"):
                    pass
                made[child] = p


def states(log_path):
    model = Model(strict_rename=os.environ.get("FAULTFS_STRICT_RENAME") == "1")
    records = read_records(log_path)
    pending = None
    last = -1
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            pos_text, out, ids = line.split(" ", 2)
            pos = int(pos_text)
            if pos < last:
                raise ValueError("position %d before %d" % (pos, last))
            last = pos
            while True:
                if pending is None:
                    pending = next(records, None)
                    if pending is None:
                        break
                end, kind, h, payload = pending
                if end > pos:
                    break
                model.apply(kind, h, payload)
                pending = None
            model.materialize(out, ids)
            print("ok", flush=True)
        except Exception as e:  # report and go on: the caller decides
            print("error %s: %s" % (type(e).__name__, e), flush=True)


def main(argv):
    if len(argv) in (5, 6) and argv[1] == "record":
        record(argv[2], argv[3], argv[4], argv[5] if len(argv) == 6 else None)
    elif len(argv) == 3 and argv[1] == "states":
        states(argv[2])
    elif len(argv) == 2 and argv[1] == "serve":
        serve()
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
