package org.tcnfs.nfs4.export;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.export.ExportTable.Mount;
import org.tcnfs.nfs4.status.AccessException;
import org.tcnfs.nfs4.status.BadCookieException;
import org.tcnfs.nfs4.status.BadHandleException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.status.PermException;
import org.tcnfs.nfs4.status.RoFsException;
import org.tcnfs.nfs4.status.StaleException;
import org.tcnfs.nfs4.status.XDevException;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.FileSystemId;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.FsStat;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.vfs.WriteResult;
import org.tcnfs.nfs4.vfs.WriteStability;

/**
 * One caller's view of the exports: the exports its client address may see, joined under a pseudo root,
 * with the export options and POSIX owner/group/mode checks applied. Made per request by
 * {@link ExportTable#forCaller}.
 *
 * <h2>The tree</h2>
 * If a visible export sits at "/", the root is that export's root. Otherwise the root and the directories
 * leading to the visible exports are synthetic read-only directories (mode 0555, owned by root, file
 * system {@link ExportTable#PSEUDO_FSID}) with deterministic handles, listing only the next components of
 * visible exports. An export inside another visible export (such as {@code /srv/data} in {@code /srv}) is
 * entered by looking up its name in the outer export's directory, which must exist there; READDIR shows
 * its root's attributes there, LOOKUPP leads back, and such a mount point cannot be removed or renamed
 * (NFS4ERR_ACCESS).
 *
 * <h2>Handles</h2>
 * A handle goes to the export whose file system recognizes it (longest path first). An export the client
 * may not see, or a pseudo directory of another client's tree, answers <b>NFS4ERR_ACCESS</b> (the handle is
 * valid, the caller just may not use it; WRONGSEC would ask for a security flavor change that cannot
 * help). A handle nobody recognizes is NFS4ERR_STALE if some file system issues handles of its length,
 * else NFS4ERR_BADHANDLE.
 *
 * <h2>Options and permissions</h2>
 * The first rule of an export that matches the client decides. A read-only export answers NFS4ERR_ROFS to
 * every change (as do the pseudo directories); the caller's credential is squashed per export. Checks:
 * LOOKUP and LOOKUPP need search (x) on the directory; creating, removing, renaming and linking need w and
 * x on the directories; in a sticky directory only the owner of the entry or of the directory (or root)
 * may remove or rename it (NFS4ERR_PERM); moving a directory to another parent needs w on it. READDIR needs
 * r. READ needs r and WRITE w on the file, except that a file's owner may always read and write it
 * (like Linux nfsd: NFS opens are checked by the client, and the owner could grant itself the bits
 * anyway). Root passes r and w checks, and x checks on anything but a regular file without any x bit.
 * SETATTR: mode only by the owner or root (a non-member's set-gid bit is dropped), owner only by root,
 * group by root or by the owner to a group it is in (else NFS4ERR_PERM); explicit times by the owner or
 * root (NFS4ERR_PERM), server-time times also with write permission (NFS4ERR_ACCESS); size needs write
 * permission (owner override as for WRITE). A change of owner or group drops set-uid and (with group
 * execute) set-gid from files. Devices may be created by root only (NFS4ERR_PERM).
 *
 * <p>Created objects belong to the squashed caller, whatever owner the operation passes; their group is
 * the directory's if it has the set-gid bit (which new directories then inherit). RENAME and LINK across
 * exports (or between an export and a pseudo directory) are NFS4ERR_XDEV.
 *
 * <p>Immutable and thread-safe; the file systems underneath do their own locking.
 */
public final class PseudoFs implements VirtualFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(PseudoFs.class);
    private static final int R = 4;
    private static final int W = 2;
    private static final int X = 1;
    private static final int PSEUDO_MODE = 0555;
    private static final long FIRST_COOKIE = 3;
    private static final long DIR_SIZE = 4096;

    private final ExportTable table;
    private final Map<Mount, View> views;
    private final Map<String, View> viewsByPath;
    private final View rootView;
    private final Map<View, View> outerOf;
    private final Map<View, List<View>> nestedIn;
    private final Map<Inode, PseudoNode> pseudoByHandle;
    private final Map<String, PseudoNode> pseudoByPath;

    /** One visible export with what this caller may do there. */
    private record View(Mount mount, ExportOptions options, Credential cred) {
        VirtualFileSystem fs() {
            return mount.export().fs();
        }

        String path() {
            return mount.export().path();
        }
    }

    /** A synthetic directory. */
    private record PseudoNode(String path, Inode handle, long fileId, List<String> children, byte[] verifier) {
    }

    PseudoFs(ExportTable table, Credential credential, InetAddress client) {
        this.table = table;
        Map<Mount, View> visible = new HashMap<>();
        Map<String, View> byPath = new HashMap<>();
        for (Mount mount : table.mounts()) {
            Optional<ExportOptions> options = mount.export().optionsFor(client);
            if (options.isPresent()) {
                View view = new View(mount, options.get(), options.get().squash(credential));
                visible.put(mount, view);
                byPath.put(view.path(), view);
            }
        }
        this.views = Map.copyOf(visible);
        this.viewsByPath = Map.copyOf(byPath);
        this.rootView = byPath.get("/");

        Map<View, View> outer = new HashMap<>();
        Map<View, List<View>> nested = new HashMap<>();
        TreeMap<String, TreeSet<String>> children = new TreeMap<>();
        if (rootView == null) {
            children.put("/", new TreeSet<>());
        }
        for (View view : visible.values()) {
            View around = null;
            for (String a = ExportTable.parentPath(view.path()); a != null && around == null;
                    a = ExportTable.parentPath(a)) {
                around = byPath.get(a);
            }
            if (around != null) {
                outer.put(view, around);
                nested.computeIfAbsent(around, k -> new ArrayList<>()).add(view);
            } else if (!view.path().equals("/")) {
                String child = view.path();
                for (String a = ExportTable.parentPath(child); a != null; child = a, a = ExportTable.parentPath(a)) {
                    children.computeIfAbsent(a, k -> new TreeSet<>()).add(lastComponent(child));
                }
            }
        }
        this.outerOf = Map.copyOf(outer);
        Map<View, List<View>> frozen = new HashMap<>();
        nested.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        this.nestedIn = Map.copyOf(frozen);

        Map<Inode, PseudoNode> nodesByHandle = new HashMap<>();
        Map<String, PseudoNode> nodesByPath = new HashMap<>();
        children.forEach((path, names) -> {
            List<String> list = List.copyOf(names);
            PseudoNode node = new PseudoNode(path, ExportTable.pseudoHandle(path), ExportTable.pseudoFileId(path),
                    list, listVerifier(path, list));
            nodesByHandle.put(node.handle(), node);
            nodesByPath.put(path, node);
        });
        this.pseudoByHandle = Map.copyOf(nodesByHandle);
        this.pseudoByPath = Map.copyOf(nodesByPath);
    }

    // ---- navigation ----

    @Override
    public Inode getRootInode() throws IOException {
        return rootView != null ? rootView.fs().getRootInode() : pseudoByPath.get("/").handle();
    }

    /** True for this caller's pseudo directories and for handles any export's file system issued. */
    @Override
    public boolean recognizes(Inode inode) throws IOException {
        if (pseudoByHandle.containsKey(inode) || table.isPseudoHandle(inode)) {
            return true;
        }
        for (Mount mount : table.routingOrder()) {
            if (mount.export().fs().recognizes(inode)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Inode lookup(Inode parent, String name) throws IOException {
        return lookupWithAttributes(parent, name).inode();
    }

    /**
     * {@link #lookup(Inode, String)}, with the attributes of the object found where its export's file system read
     * them on the way (an object of an export in which no other export is mounted), else without.
     */
    @Override
    public Found lookupWithAttributes(Inode parent, String name) throws IOException {
        PseudoNode node = pseudoByHandle.get(parent);
        if (node != null) {
            if (!node.children().contains(name)) {
                throw new NoEntException(name);
            }
            String path = ExportTable.childPath(node.path(), name);
            PseudoNode child = pseudoByPath.get(path);
            if (child != null) {
                return new Found(child.handle(), null);
            }
            return new Found(viewsByPath.get(path).fs().getRootInode(), null);
        }
        View view = view(parent);
        VirtualFileSystem.DirectoryCheck search = dir -> {
            if (dir.type() != FileType.DIRECTORY) {
                throw new NotDirException();
            }
            require(dir, view, X, "search");
        };
        if (!nestedIn.containsKey(view)) {
            // no export is mounted in this one: the file system resolves the directory once for check and lookup
            return view.fs().lookupWithAttributes(parent, name, search);
        }
        search.check(view.fs().getattr(parent));
        View mounted = mountedAt(view, parent, name);
        if (mounted != null) {
            return new Found(mounted.fs().getRootInode(), null);
        }
        return new Found(view.fs().lookup(parent, name), null);
    }

    @Override
    public Inode parentOf(Inode dir) throws IOException {
        PseudoNode node = pseudoByHandle.get(dir);
        if (node != null) {
            String parent = ExportTable.parentPath(node.path());
            if (parent == null) {
                throw new NoEntException("the pseudo root has no parent");
            }
            return pseudoByPath.get(parent).handle();
        }
        View view = view(dir);
        Stat stat = view.fs().getattr(dir);
        if (stat.type() != FileType.DIRECTORY) {
            throw new NotDirException();
        }
        require(stat, view, X, "search");
        if (!dir.equals(view.fs().getRootInode())) {
            return view.fs().parentOf(dir);
        }
        String parent = ExportTable.parentPath(view.path());
        if (parent == null) {
            throw new NoEntException("the root has no parent");
        }
        View around = outerOf.get(view);
        if (around == null) {
            return pseudoByPath.get(parent).handle();
        }
        Inode mountPointParent = resolveWithin(around, parent);
        if (mountPointParent == null) {
            throw new NoEntException("the directory holding " + view.path() + " is missing in " + around.path());
        }
        return mountPointParent;
    }

    // ---- creation and removal ----

    @Override
    public Inode create(Inode parent, String name, Credential owner, int mode) throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        Credential newOwner = ownerIn(view, dir);
        return view.fs().create(parent, name, newOwner, fileMode(view, newOwner, mode));
    }

    @Override
    public Inode create(Inode parent, String name, Credential owner, int mode, TimeChange atime, TimeChange mtime)
            throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        Credential newOwner = ownerIn(view, dir);
        return view.fs().create(parent, name, newOwner, fileMode(view, newOwner, mode), atime, mtime);
    }

    @Override
    public Created createThenChange(Inode parent, String name, Credential owner, int mode, TimeChange atime,
            TimeChange mtime) throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        Credential newOwner = ownerIn(view, dir);
        return view.fs().createThenChange(parent, name, newOwner, fileMode(view, newOwner, mode), atime, mtime);
    }

    @Override
    public Inode mkdir(Inode parent, String name, Credential owner, int mode) throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        int newMode = mode & 07777;
        if ((dir.mode() & 02000) != 0) {
            newMode |= 02000;
        }
        return view.fs().mkdir(parent, name, ownerIn(view, dir), newMode);
    }

    @Override
    public Inode symlink(Inode parent, String name, String target, Credential owner, int mode) throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        return view.fs().symlink(parent, name, target, ownerIn(view, dir), mode & 07777);
    }

    @Override
    public Inode mknod(Inode parent, String name, FileType type, int major, int minor, Credential owner, int mode)
            throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "create in");
        if ((type == FileType.BLOCK || type == FileType.CHAR) && !view.cred().isRoot()) {
            throw new PermException("only root may create devices");
        }
        Credential newOwner = ownerIn(view, dir);
        return view.fs().mknod(parent, name, type, major, minor, newOwner, fileMode(view, newOwner, mode));
    }

    @Override
    public void link(Inode target, Inode parent, String name) throws IOException {
        View view = writable(parent);
        if (pseudoByHandle.containsKey(target) || !view(target).mount().equals(view.mount())) {
            throw new XDevException("link across exports");
        }
        directory(view, parent, W | X, "link in");
        view.fs().link(target, parent, name);
    }

    @Override
    public void remove(Inode parent, String name) throws IOException {
        removable(parent, name).fs().remove(parent, name);
    }

    @Override
    public long removeThenChange(Inode parent, String name) throws IOException {
        return removable(parent, name).fs().removeThenChange(parent, name);
    }

    /** The view in which {@code name} may be removed from {@code parent} (REMOVE's checks), else its refusal. */
    private View removable(Inode parent, String name) throws IOException {
        View view = writable(parent);
        Stat dir = directory(view, parent, W | X, "remove from");
        if (mountedAt(view, parent, name) != null) {
            throw new AccessException(name + " is the mount point of an export");
        }
        if (sticky(dir, view.cred())) {
            Stat victim = view.fs().getattr(view.fs().lookup(parent, name));
            if (victim.uid() != view.cred().uid()) {
                throw new PermException("sticky directory: " + name + " belongs to someone else");
            }
        }
        return view;
    }

    @Override
    public void rename(Inode fromParent, String fromName, Inode toParent, String toName) throws IOException {
        boolean fromPseudo = pseudoByHandle.containsKey(fromParent);
        boolean toPseudo = pseudoByHandle.containsKey(toParent);
        if (fromPseudo != toPseudo) {
            throw new XDevException("rename between the pseudo file system and an export");
        }
        View view = writable(fromParent);
        if (!view(toParent).mount().equals(view.mount())) {
            throw new XDevException("rename across exports");
        }
        VirtualFileSystem fs = view.fs();
        Credential cred = view.cred();
        Stat from = directory(view, fromParent, W | X, "rename from");
        Stat to = fromParent.equals(toParent) ? from : directory(view, toParent, W | X, "rename into");
        if (mountedAt(view, fromParent, fromName) != null || mountedAt(view, toParent, toName) != null) {
            throw new AccessException("cannot rename the mount point of an export");
        }
        Inode source = fs.lookup(fromParent, fromName);
        Stat sourceStat = fs.getattr(source);
        Inode existing = lookupOrNull(fs, toParent, toName);
        if (source.equals(existing)) {
            return;
        }
        if (sticky(from, cred) && sourceStat.uid() != cred.uid()) {
            throw new PermException("sticky directory: " + fromName + " belongs to someone else");
        }
        if (existing != null && sticky(to, cred) && fs.getattr(existing).uid() != cred.uid()) {
            throw new PermException("sticky directory: " + toName + " belongs to someone else");
        }
        if (sourceStat.type() == FileType.DIRECTORY && !fromParent.equals(toParent)) {
            require(sourceStat, view, W, "move directory");
        }
        fs.rename(fromParent, fromName, toParent, toName);
    }

    @Override
    public void keepWhileOpen(Inode inode) throws IOException {
        if (!pseudoByHandle.containsKey(inode)) {
            view(inode).fs().keepWhileOpen(inode);
        }
    }

    @Override
    public void releaseOpen(Inode inode) {
        for (Mount mount : table.routingOrder()) {
            mount.export().fs().releaseOpen(inode);
        }
    }

    // ---- data ----

    @Override
    public ReadResult read(Inode inode, long offset, ByteBuffer dst) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            throw new IsDirException();
        }
        View view = view(inode);
        Stat stat = view.fs().getattr(inode);
        if (stat.type() == FileType.REGULAR && stat.uid() != view.cred().uid()) {
            require(stat, view, R, "read");
        }
        return view.fs().read(inode, offset, dst);
    }

    @Override
    public WriteResult write(Inode inode, long offset, ByteBuffer data, WriteStability stability) throws IOException {
        View view = writable(inode);
        Stat stat = view.fs().getattr(inode);
        if (stat.type() == FileType.REGULAR && stat.uid() != view.cred().uid()) {
            require(stat, view, W, "write");
        }
        return view.fs().write(inode, offset, data, stability);
    }

    @Override
    public void commit(Inode inode, long offset, long count) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            throw new IsDirException();
        }
        view(inode).fs().commit(inode, offset, count);
    }

    // ---- attributes ----

    @Override
    public Stat getattr(Inode inode) throws IOException {
        PseudoNode node = pseudoByHandle.get(inode);
        if (node != null) {
            return pseudoStat(node);
        }
        return view(inode).fs().getattr(inode);
    }

    @Override
    public void setattr(Inode inode, SetAttributes attributes) throws IOException {
        if (attributes.isEmpty() && pseudoByHandle.containsKey(inode)) {
            return;
        }
        View view = writable(inode);
        VirtualFileSystem fs = view.fs();
        Stat stat = fs.getattr(inode);
        Credential cred = view.cred();
        boolean root = cred.isRoot();
        boolean owner = cred.uid() == stat.uid();
        SetAttributes change = attributes;

        boolean uidChanges = change.uid() != null && change.uid() != stat.uid();
        boolean gidChanges = change.gid() != null && change.gid() != stat.gid();
        if (uidChanges && !root) {
            throw new PermException("only root may change the owner");
        }
        if (gidChanges && !root && !(owner && cred.inGroup(change.gid()))) {
            throw new PermException("only root, or the owner to one of its groups, may change the group");
        }
        if (change.mode() != null) {
            if (!root && !owner) {
                throw new PermException("only the owner may change the mode");
            }
            int group = change.gid() != null ? change.gid() : stat.gid();
            if (!root && stat.type() != FileType.DIRECTORY && (change.mode() & 02000) != 0 && !cred.inGroup(group)) {
                change = change.withMode(change.mode() & ~02000);
            }
        } else if ((uidChanges || gidChanges) && stat.type() != FileType.DIRECTORY && (stat.mode() & 06000) != 0) {
            int cleared = stat.mode() & ~04000;
            if ((stat.mode() & 010) != 0) {
                cleared &= ~02000;
            }
            if (cleared != stat.mode()) {
                change = change.withMode(cleared);
            }
        }
        if (change.atime() != null || change.mtime() != null) {
            if (!root && !owner) {
                if (!isServerTime(change.atime()) || !isServerTime(change.mtime())) {
                    throw new PermException("only the owner may set explicit times");
                }
                require(stat, view, W, "touch");
            }
        }
        if (change.size() != null && stat.type() == FileType.REGULAR && !owner) {
            require(stat, view, W, "truncate");
        }
        fs.setattr(inode, change);
    }

    @Override
    public DirectoryListing list(Inode dir, byte[] verifier, long cookie, int maxEntries) throws IOException {
        PseudoNode node = pseudoByHandle.get(dir);
        if (node != null) {
            return listPseudo(node, verifier, cookie, maxEntries);
        }
        View view = view(dir);
        Stat stat = view.fs().getattr(dir);
        if (stat.type() == FileType.DIRECTORY) {
            require(stat, view, R, "list");
        }
        DirectoryListing listing = view.fs().list(dir, verifier, cookie, maxEntries);
        if (!nestedIn.containsKey(view)) {
            return listing;
        }
        List<DirEntry> entries = new ArrayList<>(listing.entries().size());
        for (DirEntry entry : listing.entries()) {
            View mounted = mountedAt(view, dir, entry.name());
            if (mounted == null) {
                entries.add(entry);
            } else {
                Stat rootStat = mounted.fs().getattr(mounted.fs().getRootInode());
                entries.add(new DirEntry(entry.name(), entry.cookie(), rootStat));
            }
        }
        return new DirectoryListing(listing.verifier(), entries, listing.complete());
    }

    @Override
    public String readlink(Inode inode) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            throw new InvalException("not a symbolic link");
        }
        return view(inode).fs().readlink(inode);
    }

    @Override
    public FsStat getFsStat(Inode inode) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            return new FsStat(0, 0, 0, 0, 0);
        }
        return view(inode).fs().getFsStat(inode);
    }

    @Override
    public Set<AccessRight> access(Inode inode, Set<AccessRight> requested) throws IOException {
        Set<AccessRight> granted = EnumSet.noneOf(AccessRight.class);
        if (pseudoByHandle.containsKey(inode)) {
            for (AccessRight right : requested) {
                if (right == AccessRight.READ || right == AccessRight.LOOKUP) {
                    granted.add(right);
                }
            }
            return granted;
        }
        View view = view(inode);
        Stat stat = view.fs().getattr(inode);
        boolean dir = stat.type() == FileType.DIRECTORY;
        boolean writable = !view.options().isReadOnly();
        Credential cred = view.cred();
        for (AccessRight right : requested) {
            boolean ok = switch (right) {
                case READ -> permits(stat, cred, R);
                case LOOKUP -> dir && permits(stat, cred, X);
                case EXECUTE -> !dir && permits(stat, cred, X);
                case MODIFY, EXTEND -> writable && permits(stat, cred, dir ? W | X : W);
                case DELETE -> writable && dir && permits(stat, cred, W | X);
            };
            if (ok) {
                granted.add(right);
            }
        }
        return granted;
    }

    @Override
    public FileSystemId fileSystemId(Inode inode) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            return ExportTable.PSEUDO_FSID;
        }
        return view(inode).mount().fsid();
    }

    @Override
    public long mountedOnFileId(Inode inode, Stat stat) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            return stat.fileId();
        }
        View view = view(inode);
        if (view.path().equals("/") || !inode.equals(view.fs().getRootInode())) {
            return stat.fileId();
        }
        View around = outerOf.get(view);
        if (around != null) {
            Inode mountPoint = resolveWithin(around, view.path());
            if (mountPoint != null) {
                return around.fs().getattr(mountPoint).fileId();
            }
        }
        return ExportTable.pseudoFileId(view.path());
    }

    // ---- routing ----

    /** The visible export holding {@code inode}. */
    private View view(Inode inode) throws IOException {
        boolean hidden = false;
        List<Mount> order = table.routingOrder();
        for (int i = 0; i < order.size(); i++) { // no iterator: every operation on a handle asks (issue 16, h-warm)
            Mount mount = order.get(i);
            if (mount.export().fs().recognizes(inode)) {
                View view = views.get(mount);
                if (view != null) {
                    return view;
                }
                hidden = true;
            }
        }
        if (hidden || table.isPseudoHandle(inode)) {
            LOG.debug("handle {} belongs to an export hidden from this client", inode);
            throw new AccessException("not exported to this client");
        }
        if (table.isPlausibleLength(inode.length())) {
            throw new StaleException("unknown file handle");
        }
        throw new BadHandleException("no export issues file handles of " + inode.length() + " bytes");
    }

    /**
     * Whether this view refuses every change to the export whose file system has the root handle
     * {@code exportRoot}: the export is read-only for this caller, or not visible to it, or not in this table
     * (removed by a reload): no handle of it reaches a file system through this view then. The transaction
     * layer asks, so that a transaction there makes no backups.
     *
     * @throws IOException if an export's file system cannot name its root
     */
    public boolean isReadOnly(Inode exportRoot) throws IOException {
        for (View view : views.values()) {
            if (view.fs().getRootInode().equals(exportRoot)) {
                return view.options().isReadOnly();
            }
        }
        return true;
    }

    /**
     * Whether the caller's rule for the export whose root is {@code exportRoot} says {@code async}: its plain
     * compounds may reply before their name changes are durable (false if the export is not visible).
     */
    public boolean isAsync(Inode exportRoot) throws IOException {
        for (View view : views.values()) {
            if (view.fs().getRootInode().equals(exportRoot)) {
                return view.options().async();
            }
        }
        return false;
    }

    /** The visible export of {@code inode} if it may be changed. */
    private View writable(Inode inode) throws IOException {
        if (pseudoByHandle.containsKey(inode)) {
            throw new RoFsException("the pseudo file system is read-only");
        }
        View view = view(inode);
        if (view.options().isReadOnly()) {
            throw new RoFsException("export " + view.path() + " is read-only");
        }
        return view;
    }

    /** The export mounted at {@code name} in directory {@code dir} of {@code view}, or null. */
    private View mountedAt(View view, Inode dir, String name) throws IOException {
        List<View> nested = nestedIn.get(view);
        if (nested == null) {
            return null;
        }
        for (View candidate : nested) {
            if (lastComponent(candidate.path()).equals(name)
                    && dir.equals(resolveWithin(view, ExportTable.parentPath(candidate.path())))) {
                return candidate;
            }
        }
        return null;
    }

    /** The object at absolute pseudo path {@code path} inside {@code view}'s tree, or null if missing. */
    private static Inode resolveWithin(View view, String path) throws IOException {
        String rel = view.path().equals("/") ? path : path.substring(view.path().length());
        Inode current = view.fs().getRootInode();
        for (String component : rel.split("/")) {
            if (component.isEmpty()) {
                continue;
            }
            current = lookupOrNull(view.fs(), current, component);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    private static Inode lookupOrNull(VirtualFileSystem fs, Inode dir, String name) throws IOException {
        try {
            return fs.lookup(dir, name);
        } catch (NoEntException | NotDirException e) {
            return null;
        }
    }

    // ---- permissions ----

    private static Stat directory(View view, Inode dir, int want, String what) throws IOException {
        Stat stat = view.fs().getattr(dir);
        if (stat.type() != FileType.DIRECTORY) {
            throw new NotDirException();
        }
        require(stat, view, want, what);
        return stat;
    }

    private static void require(Stat stat, View view, int want, String what) throws AccessException {
        if (!permits(stat, view.cred(), want)) {
            LOG.debug("{} denied to {} on file {} (mode {}, owner {}:{})", what, view.cred(), stat.fileId(),
                    Integer.toOctalString(stat.mode()), stat.uid(), stat.gid());
            throw new AccessException(what + ": permission denied");
        }
    }

    /** POSIX mode check of the {@code want} bits (r=4, w=2, x=1) for {@code cred}. */
    static boolean permits(Stat stat, Credential cred, int want) {
        if (cred.isRoot()) {
            return (want & X) == 0 || stat.type() == FileType.DIRECTORY || (stat.mode() & 0111) != 0;
        }
        int bits;
        if (cred.uid() == stat.uid()) {
            bits = stat.mode() >> 6;
        } else if (cred.inGroup(stat.gid())) {
            bits = stat.mode() >> 3;
        } else {
            bits = stat.mode();
        }
        return (bits & want & 7) == want;
    }

    private static boolean sticky(Stat dir, Credential cred) {
        return (dir.mode() & 01000) != 0 && !cred.isRoot() && cred.uid() != dir.uid();
    }

    private static boolean isServerTime(TimeChange change) {
        return change == null || change.isServerTime();
    }

    /** The squashed caller, with the directory's group if it has the set-gid bit. */
    private static Credential ownerIn(View view, Stat dir) {
        Credential cred = view.cred();
        int gid = (dir.mode() & 02000) != 0 ? dir.gid() : cred.gid();
        return gid == cred.gid() ? cred : new Credential(cred.uid(), gid, cred.groups());
    }

    /** {@code mode} without a set-gid bit for a group the creator is not in. */
    private static int fileMode(View view, Credential owner, int mode) {
        int result = mode & 07777;
        Credential cred = view.cred();
        if ((result & 02000) != 0 && !cred.isRoot() && owner.gid() != cred.gid() && !cred.inGroup(owner.gid())) {
            result &= ~02000;
        }
        return result;
    }

    // ---- pseudo directories ----

    private Stat pseudoStat(PseudoNode node) {
        return new Stat(FileType.DIRECTORY, PSEUDO_MODE, 2 + node.children().size(), 0, 0, DIR_SIZE, DIR_SIZE,
                node.fileId(), 0, 0, table.created(), table.created(), table.created(), table.created(),
                table.created().toEpochMilli());
    }

    private DirectoryListing listPseudo(PseudoNode node, byte[] verifier, long cookie, int maxEntries)
            throws IOException {
        List<String> names = node.children();
        int start = 0;
        if (cookie != 0) {
            if (cookie < FIRST_COOKIE || cookie >= FIRST_COOKIE + names.size()) {
                throw new BadCookieException("unknown cookie " + cookie);
            }
            if (!isZero(verifier) && !Arrays.equals(verifier, node.verifier())) {
                throw new NotSameException("pseudo directory changed");
            }
            start = (int) (cookie - FIRST_COOKIE) + 1;
        }
        List<DirEntry> entries = new ArrayList<>();
        int i = start;
        for (; i < names.size() && entries.size() < maxEntries; i++) {
            String name = names.get(i);
            String path = ExportTable.childPath(node.path(), name);
            PseudoNode child = pseudoByPath.get(path);
            Stat stat;
            if (child != null) {
                stat = pseudoStat(child);
            } else {
                VirtualFileSystem fs = viewsByPath.get(path).fs();
                stat = fs.getattr(fs.getRootInode());
            }
            entries.add(new DirEntry(name, FIRST_COOKIE + i, stat));
        }
        return new DirectoryListing(node.verifier(), entries, i >= names.size());
    }

    private static byte[] listVerifier(String path, List<String> children) {
        long h = 1125899906842597L;
        for (byte b : (path + "\0" + String.join("\0", children)).getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        if (h == 0) {
            h = 1;
        }
        return ByteBuffer.allocate(8).putLong(h).array();
    }

    private static boolean isZero(byte[] bytes) {
        if (bytes == null) {
            return true;
        }
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String lastComponent(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public String toString() {
        return "PseudoFs" + viewsByPath.keySet();
    }
}
