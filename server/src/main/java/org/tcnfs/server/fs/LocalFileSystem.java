package org.tcnfs.server.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongPredicate;
import jnr.constants.platform.Errno;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;
import org.tcnfs.nfs4.ops.Names;
import org.tcnfs.nfs4.status.AccessException;
import org.tcnfs.nfs4.status.BadCharException;
import org.tcnfs.nfs4.status.BadCookieException;
import org.tcnfs.nfs4.status.BadHandleException;
import org.tcnfs.nfs4.status.BadNameException;
import org.tcnfs.nfs4.status.BadTypeException;
import org.tcnfs.nfs4.status.ExistException;
import org.tcnfs.nfs4.status.FBigException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.NameTooLongException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NotEmptyException;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.status.StaleException;
import org.tcnfs.nfs4.status.TooSmallException;
import org.tcnfs.nfs4.status.XDevException;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
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
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.HandleTableException;
import org.tcnfs.txn.handles.Link;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.OrderedLog;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.handles.Node;

/**
 * A {@link VirtualFileSystem} that exports one local directory, naming objects by the 16-byte random
 * handles of a {@link HandleTable}.
 *
 * <p><b>Staying inside the export.</b> Every handle resolves through the table to a path of names below the
 * export root; the object found there by {@code lstat} must have the recorded inode number, birth time
 * (where the file system keeps one) and type (a directory also the root's device), and the directory holding it must have no symbolic link on its way
 * from the root (its real path is itself), otherwise the handle is {@link StaleException stale}. Names are
 * checked again here. Symbolic links are created and read, never followed: every call works on the link
 * itself, so a link planted out of band in place of a directory is a link to the server, and looking up
 * through it is {@link NotDirException}. What remains is a window between the check and the system call in
 * which a local user changing the tree at that moment could redirect one call; the server itself never
 * does so, and clients cannot.
 *
 * <p><b>Handles.</b> Stable across restarts (the table is persistent); an object is identified by its
 * inode number within the export and its birth time, which tells it from a later object that reuses the
 * number (except within one tick of the file system's clock; objects this server creates never inherit a
 * handle). A file with several hard links has one handle. A handle whose object was
 * deleted or replaced out of band is stale; objects renamed out of band get a new handle when next looked
 * up (an inode number alone cannot tell a moved object from a new one that reuses the number). Directories
 * on another device (mount points inside the export) are not exported: they are left out of listings and
 * looked up as missing.
 *
 * <p><b>The reserved name.</b> {@value #RESERVED_NAME} at the export root belongs to the server (the
 * transaction layer keeps backups there, see {@link #reservedDirectory()}): it is never listed, looking it
 * up is {@link NoEntException}, creating, linking or renaming onto it is {@link AccessException}.
 *
 * <p><b>Ownership.</b> When the server runs as root, what it creates is {@code lchown}ed to the caller's
 * uid and gid (to the directory's group in a set-group-id directory, whose new subdirectories also inherit
 * the bit), and then given exactly the requested mode, whatever the umask. When it does not run as root,
 * new objects stay owned by the server's user, and SETATTR of the owner fails with PERM unless the kernel
 * allows it. A symbolic link has no mode of its own on Linux: a mode change of one is ignored.
 *
 * <p><b>Change attribute.</b> The ctime in nanoseconds, raised past its previous value on every
 * modification made through this server (see {@code ChangeTracker}), so it differs after each.
 *
 * <p><b>Directory listings.</b> Cookies are derived from the names (see {@code DirectoryIndex}), so they
 * stay valid while the directory changes and survive restarts; the verifier identifies the directory and
 * the cookie scheme. A listing is built from one scan of the directory, kept for a short time while the
 * directory's change attribute is unchanged, and only the entries of the requested page are {@code lstat}ed.
 *
 * <p><b>Data.</b> READ and WRITE use a bounded cache of open {@link FileChannel}s keyed by handle; DATA_SYNC
 * and FILE_SYNC writes and COMMIT force the file to disk; inside a compound that holds its locks, a stable
 * WRITE leaves that to the compound's end ({@code HandleTable.syncAtCompoundEnd}), so a file written
 * several times, and many files, cost one fsync each per compound.
 *
 * <p><b>Durable names.</b> CREATE, OPEN with create, LINK, REMOVE and RENAME make the directories whose entries
 * they changed durable before the reply, as knfsd does for a {@code sync} export: at the end of the compound,
 * once per directory, with the files its stable WRITEs wrote and before its handle changes commit
 * ({@code HandleTable.syncAtCompoundEnd}); a transaction syncs the directories it changed itself (DESIGN.md
 * step 7). Without it an acknowledged name could vanish in a power cut while the handle table or a later
 * committed transaction relied on it (docs/durability.md). On XFS, which makes metadata changes durable in the
 * order they were made ({@link OrderedLog}), a plain compound syncs only the directory of its last change of
 * entries, or none when that change created a file the compound fsyncs anyway: that fsync forces the log up to it,
 * and so every earlier change ({@code -Dtcnfs.ordered-log-syncs=false} turns this off).
 *
 * <p><b>Symbolic links.</b> A handle resolves only to an object whose directory is reached from the root
 * without a symbolic link. With openat2 (Linux 5.6) no absolute path is used: a compound opens such a directory with
 * {@code openat2(RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH)} relative to the root's descriptor (or a closer one it holds),
 * keeps the descriptor for its length ({@code DirectoryDescriptors}) and {@code statx}es the object by its name
 * relative to it (a REMOVE of a file unlinks it so too; of a directory, which ends every compound's checks, by its
 * absolute path), so a link planted after the check is not followed; a directory a LOOKUP of the compound found (not a
 * link) is checked no further, and names below it are looked up relative to the closest descriptor. Without openat2,
 * an {@code lstat} of the absolute path and a {@code realpath} walk once per directory and compound.
 *
 * <p><b>Handle-table reads.</b> What the table answers to resolve a handle (its node and the paths of its links), to
 * find the export of a handle and to find the row of a name in a directory is kept across compounds ({@link
 * HandleTable#cachedRead}, a few thousand answers at most) for as long as the table does not change: any change of the
 * table, by any compound or export, empties it, and a thread whose transaction buffer holds rows of its own uses and
 * fills it only with answers read from rows its buffer did not change. Only the table reads go: the object a row
 * names is {@code statx}ed as before, so a change made beside the server is found exactly as without the cache.
 *
 * <p><b>Within a compound.</b> What a run of a compound's operations that change nothing read (a resolved handle, what
 * a LOOKUP found under a name in a directory) answers the rest of that run ({@link StretchCache}), past a plain
 * compound's REMOVE revised by what it changed; the next compound reads everything again, so a name removed, renamed
 * or created beside the server between two compounds is seen by the second exactly as without these answers.
 *
 * <p>Thread-safe. {@link #close()} releases open files; the handle table belongs to the caller.
 */
public final class LocalFileSystem implements VirtualFileSystem, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalFileSystem.class);
    /** Registrations the handle table refused (answered NFS4ERR_STALE), with the table's reason. */
    private static final RateLimitedLog TABLE_DISAGREED = RateLimitedLog.of(LOG, 5, Duration.ofMinutes(1));
    /** Runs of a registration before a disagreement of the handle table is NFS4ERR_STALE ({@link #registering}). */
    private static final int REGISTRATION_ATTEMPTS = 2;

    /** The name at the export root that is reserved for the server. */
    public static final String RESERVED_NAME = ".tcnfs";
    /** Default number of files kept open for READ and WRITE. */
    public static final int DEFAULT_MAX_OPEN_FILES = 256;
    /** Most files kept usable by handle after losing their last name while open (see {@link #keepWhileOpen}). */
    public static final int MAX_KEPT_OPEN_FILES = 512;

    private static final int MAX_NAME_BYTES = 255;
    private static final int MAX_LINK_BYTES = 4095;
    private static final int LISTING_CACHE_SIZE = 64;
    private static final long LISTING_TTL_NANOS = 2_000_000_000L;
    /** Most directories one compound remembers as reached without a symbolic link ({@link VerifiedDirectories}). */
    private static final int VERIFIED_DIRECTORIES = 1024;
    /** Most directory descriptors one compound keeps open ({@link DirectoryDescriptors}). */
    private static final int DIRECTORY_DESCRIPTORS = 64;
    /** Most resolved handles one stretch of operations that change nothing remembers ({@link StretchCache}). */
    private static final int RESOLVED_IN_STRETCH = 1024;
    private static final int FIRST_COOKIE = 256;
    private static final long VERIFIER_SALT = 0x7463_6e66_7348_0001L;

    /**
     * Whether plain compounds may sync one object per file system that logs in order instead of every directory they
     * changed ({@link OrderedLog}); {@code -Dtcnfs.ordered-log-syncs=false} turns it off (every directory synced).
     */
    private static final boolean ORDERED_LOG_SYNCS =
            !"false".equalsIgnoreCase(System.getProperty("tcnfs.ordered-log-syncs", "true"));

    /**
     * File system types (as the mount table names them, the type {@code statfs} reports) that make metadata changes
     * durable in the order they were made through one log ({@link OrderedLog}): XFS only. ext4 does without
     * {@code fast_commit}, but whether that feature is on is in the superblock, which the server cannot read here.
     */
    private static final Set<String> ORDERED_LOG_FILE_SYSTEMS = Set.of("xfs");

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final String exportId;
    private final Path root;
    private final HandleTable handles;
    private final Posix posix;
    private final Nfh rootHandle;
    private final long rootDev;
    private final long rootGeneration;
    private final boolean runsAsRoot;
    /** Whether regular files are created with O_TMPFILE and linked in, finished ({@link #createsAtomically()}). */
    private volatile boolean linkedCreates;
    private final FileStore store;
    private final ChangeTracker changes = new ChangeTracker();
    private final ChannelCache channels;
    private final KeptOpenFiles keptOpen;
    private final LinkedHashMap<Nfh, CachedIndex> listings = new LinkedHashMap<>(16, 0.75f, true);
    private final LongAdder directorySyncs = new LongAdder();
    private final LongAdder directorySyncOpens = new LongAdder();
    private final LongAdder fileSyncs = new LongAdder();
    private final LongAdder symlinkChecks = new LongAdder();
    private final VerifiedDirectories verifiedDirectories = new VerifiedDirectories(VERIFIED_DIRECTORIES);
    private final StretchCache<Nfh, Resolved> resolvedInStretch =
            new StretchCache<>(RESOLVED_IN_STRETCH, verifiedDirectories::epoch);
    /** What the LOOKUPs of the current stretch found, by directory and name ({@link #lookupWithAttributes}). */
    private final StretchCache<NameIn, Named> namedInStretch =
            new StretchCache<>(RESOLVED_IN_STRETCH, verifiedDirectories::epoch);
    private final DirectoryDescriptors descriptors =
            new DirectoryDescriptors(DIRECTORY_DESCRIPTORS, verifiedDirectories::epoch, this::closeDescriptor);
    private final LongAdder resolutions = new LongAdder();
    /** Handle-table reads asked through {@link #cachedRead}, answered from the table's cache or not. */
    private final LongAdder rowReads = new LongAdder();
    private final LongAdder tableReads = new LongAdder();
    private final LongAdder pathNames = new LongAdder();
    private final LongAdder fileSystemSyncs = new LongAdder();
    /** A descriptor of the export root, for {@code syncfs}; -1 once closed. */
    private volatile int rootFd = -1;
    /** The export's file system as a whole ({@code syncfs} of the root's), for compounds that wrote many files. */
    private final TxnBuffer.FileSystemSync fileSystemSync = this::syncFileSystem;
    /** The export's file system's log when it makes changes durable in order ({@link #orderedLogOf}); else null. */
    private final OrderedLog orderedLog;

    private LocalFileSystem(Builder builder, Path root, Posix posix, PosixStat rootStat, Nfh rootHandle)
            throws IOException {
        this.exportId = builder.exportId;
        this.root = root;
        this.handles = builder.handles;
        this.posix = posix;
        this.rootHandle = rootHandle;
        this.rootDev = rootStat.dev();
        this.rootGeneration = rootStat.generation();
        this.runsAsRoot = posix.isRoot();
        this.linkedCreates = posix.unnamedFilesWork(root);
        this.store = Files.getFileStore(root);
        this.channels = new ChannelCache(builder.maxOpenFiles);
        this.keptOpen = new KeptOpenFiles(posix, MAX_KEPT_OPEN_FILES);
        this.rootFd = posix.openDirectory(root);
        this.orderedLog = ORDERED_LOG_SYNCS && ORDERED_LOG_FILE_SYSTEMS.contains(store.type())
                ? new OrderedLog(exportId + " (" + store.type() + ")") : null;
    }

    /** The export's ordered log for an object on device {@code dev}: null off the export's file system. */
    private OrderedLog orderedLogOf(long dev) {
        return dev == rootDev ? orderedLog : null;
    }

    @Override
    public OptionalLong orderedLogDevice() {
        return orderedLog != null ? OptionalLong.of(rootDev) : OptionalLong.empty();
    }

    /** {@code syncfs(2)} of the export's file system (every change to it made before the call becomes durable). */
    private void syncFileSystem() throws IOException {
        int fd = rootFd;
        if (fd < 0) {
            throw new IOException("export " + exportId + " is closed");
        }
        fileSystemSyncs.increment();
        posix.syncfs(fd, root);
    }

    /**
     * The export's file system for {@code syncfs}, when {@code dev} is its device (no other mount) and it is one
     * whose {@code syncfs} writes back and commits everything (XFS, ext4, btrfs; not FUSE, where the daemon may
     * never hear of it).
     */
    private TxnBuffer.FileSystemSync fileSystemOf(long dev) {
        return dev == rootDev && SYNCFS_FILE_SYSTEMS.contains(store.type()) ? fileSystemSync : null;
    }

    /** File system types whose {@code syncfs(2)} makes every earlier change durable. */
    private static final java.util.Set<String> SYNCFS_FILE_SYSTEMS = java.util.Set.of("xfs", "ext4", "btrfs");

    /** {@code syncfs} calls of the export's file system made since it was built (compounds that wrote many files). */
    public long fileSystemSyncCount() {
        return fileSystemSyncs.sum();
    }

    /**
     * Exports directory {@code root} as {@code exportId}, with default settings.
     *
     * @param exportId names the export in the handle table (1 to 128 bytes of UTF-8); keep it stable, or
     *     every handle of the export goes stale
     * @param root an existing directory (symbolic links in the path are resolved once, here)
     * @param handles the handle table, shared by all exports of the server and closed by the caller
     * @throws IOException if {@code root} is not a directory or the table cannot be written
     */
    public static LocalFileSystem open(String exportId, Path root, HandleTable handles) throws IOException {
        return builder(exportId, root, handles).build();
    }

    /** A builder for the export of {@code root} as {@code exportId}; see {@link #open}. */
    public static Builder builder(String exportId, Path root, HandleTable handles) {
        return new Builder(exportId, root, handles);
    }

    /** The export's id in the handle table. */
    public String exportId() {
        return exportId;
    }

    /** The exported directory (its real path). */
    public Path root() {
        return root;
    }

    /**
     * The server's own directory {@value #RESERVED_NAME} at the export root, created (mode 0700) if missing.
     * Clients cannot see or touch it.
     *
     * @throws IOException if it cannot be created, or something other than a directory has the name
     */
    public Path reservedDirectory() throws IOException {
        Path path = root.resolve(RESERVED_NAME);
        PosixStat stat = posix.lstatOrNull(path);
        if (stat == null) {
            try {
                posix.mkdir(path, 0700);
                // durable before any backup is made in it (BackupStore syncs only what it creates below)
                try (FileChannel channel = FileChannel.open(root, StandardOpenOption.READ)) {
                    channel.force(true);
                }
            } catch (ExistException e) {
                LOG.debug("{} was created concurrently", path);
            }
            stat = posix.lstat(path);
        }
        if (!stat.isDirectory()) {
            throw new IOException(path + " exists and is not a directory");
        }
        return path;
    }

    @Override
    public Inode getRootInode() {
        return inodeOf(rootHandle);
    }

    @Override
    public boolean recognizes(Inode inode) throws IOException {
        if (inode.length() != Nfh.LENGTH) {
            return false;
        }
        try {
            Nfh handle = Nfh.of(inode.toBytes());
            if (resolvedInStretch.get(CompoundScope.stretch(), handle) != null) {
                // resolved by this export in the current stretch (its row named this export): the pseudo file
                // system asks before every operation, a LOOKUP chain's directories need no table read for it
                return true;
            }
            Node node = located(handle).node();
            return node != null && node.exportId().equals(exportId) || keptOpen.contains(handle);
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "recognizing " + inode);
        }
    }

    @Override
    public Inode lookup(Inode parent, String name) throws IOException {
        Child child = visibleChild(parent, name);
        return inodeOf(handleFor(child.dir().handle(), child.name(), child.path(), child.stat()));
    }

    @Override
    public Inode lookup(Inode parent, String name, DirectoryCheck check) throws IOException {
        return lookupWithAttributes(parent, name, check).inode();
    }

    /**
     * The object found, with the attributes its {@code lstat} gave on the way (what {@link #getattr} answers).
     *
     * <p>A name this stretch of the compound already looked up in the same directory ({@link StretchCache}) is
     * answered as it was then, handle and attributes, with no {@code statx} and no table read: the LOOKUP chains of a
     * compound's paths share their directories (an rm -rf's 62 paths per compound, an untar's, a listing's). Only a
     * compound whose operations may repeat a LOOKUP ({@link CompoundScope#namesMayRepeat()}: one that goes back to a
     * handle after a LOOKUP, then looks up again) keeps such answers; a single LOOKUP chain (a kernel client's,
     * libnfs's) never meets a name twice and pays nothing for them. The
     * directory is resolved and its search permission and the name checked every time, so an invalid name or a
     * directory that may not be searched fails as before. Such an answer lives as long as the stretch's resolved
     * handles do and is revised with them: a change of the compound ends the stretch, except a plain compound's REMOVE
     * ({@link #removeThenChange}), which drops the victim's answers (every name of its inode) and renews its
     * directory's; a directory removed or renamed by any compound moves the epoch, which drops them all. The next
     * compound looks every name up again, so a name removed, renamed or created beside the server is seen by it
     * exactly as without this cache (see the class javadoc).
     */
    @Override
    public Found lookupWithAttributes(Inode parent, String name, DirectoryCheck check) throws IOException {
        long epoch = verifiedDirectories.epoch();
        Resolved dir = resolve(parent);
        check.check(toStat(dir.stat()));
        String checked = checkName(name);
        if (!dir.node().isDirectory()) {
            throw new NotDirException("not a directory: a " + dir.node().type());
        }
        long stretch = CompoundScope.stretch();
        NameIn key = stretch == 0 || !CompoundScope.namesMayRepeat() ? null : new NameIn(dir.handle(), checked);
        Named named = key == null ? null : namedInStretch.get(stretch, key);
        if (named != null) {
            return new Found(inodeOf(named.handle()), toStat(named.stat()));
        }
        Child child = visibleChild(dir, checked);
        Nfh found = null;
        if (child.stat().isDirectory()) {
            // a directory (not a link) in one reached without a symbolic link is reached without one too
            verifiedDirectories.verified(CompoundScope.current(), child.path(), epoch);
            // and is what the next operation of a LOOKUP chain (LOOKUP, REMOVE, ...) resolves
            Resolved known = stretch == 0 ? null : knownDirectory(child);
            if (known != null) {
                resolvedInStretch.put(stretch, known.handle(), known, epoch);
                found = known.handle();
            }
        }
        if (found == null) {
            found = handleFor(child.dir().handle(), child.name(), child.path(), child.stat());
        }
        if (key != null) {
            namedInStretch.put(stretch, key, new Named(key, found, child.stat()), epoch);
        }
        return new Found(inodeOf(found), toStat(child.stat()));
    }

    /** A name in a directory: a key of {@link #namedInStretch}. */
    private record NameIn(Nfh dir, String name) {
    }

    /** What a LOOKUP found under the name {@code at}: the object's handle and its {@code lstat}. */
    private record Named(NameIn at, Nfh handle, PosixStat stat) {
        /**
         * This answer past a change of the entry {@code changed} of its directory (a removal, a creation): dropped
         * ({@code null}) for that name; renewed with {@code dirAfter}, the directory's {@code lstat} after the change,
         * where it found the directory (dropped when there is none); else unchanged.
         */
        Named afterEntryChange(NameIn changed, PosixStat dirAfter) {
            if (at.equals(changed)) {
                return null;
            }
            if (!handle.equals(changed.dir())) {
                return this;
            }
            return dirAfter == null ? null : new Named(at, handle, dirAfter);
        }
    }

    @Override
    public Inode parentOf(Inode dir) throws IOException {
        Resolved directory = resolveDirectory(dir);
        if (directory.node().isRoot()) {
            throw new NoEntException("the export root has no parent");
        }
        return inodeOf(directory.node().links().get(0).parent());
    }

    /**
     * True where the export's file system has {@code O_TMPFILE} (XFS, ext4, btrfs, tmpfs): a new regular file is
     * made unnamed, given its owner and mode, and linked under its name in one step, so a crash never leaves it
     * half made (with the server's owner or the interim mode 0600).
     */
    @Override
    public boolean createsAtomically() {
        return linkedCreates;
    }

    @Override
    public Inode create(Inode parent, String name, Credential owner, int mode, TimeChange atime, TimeChange mtime)
            throws IOException {
        if (linkedCreates) {
            return createLinked(parent, name, owner, mode, atime, mtime);
        }
        return VirtualFileSystem.super.create(parent, name, owner, mode, atime, mtime);
    }

    /**
     * {@link #create(Inode, String, Credential, int, TimeChange, TimeChange)}, then the directory's change attribute
     * from one stat of the directory resolved for the creation ({@link #statInside}; under the compound's lock),
     * instead of resolving its handle again (a handle-table read, the path, the {@code lstat}); as
     * {@link #removeThenChange}.
     *
     * <p>The creation changed two objects: the directory, and the new file, which nothing else has seen yet. So it
     * {@linkplain CompoundScope#suspend() suspends} the stretch rather than ending it: it drops what the stretch found
     * under the new name, keeps the directory as read after the creation (under its handle and under every name a
     * LOOKUP found it by; dropped if that read fails), and adds the new file as the creation left it (its handle, its
     * path, the {@code statx} of its descriptor). Where the engine resumes the stretch (a plain compound), the WRITE,
     * GETATTR or SETATTR after the OPEN find the file without resolving its handle. A creation that failed ends the
     * stretch.
     */
    @Override
    public Created createThenChange(Inode parent, String name, Credential owner, int mode, TimeChange atime,
            TimeChange mtime) throws IOException {
        if (!linkedCreates) {
            return VirtualFileSystem.super.createThenChange(parent, name, owner, mode, atime, mtime);
        }
        long stretch = CompoundScope.stretch();
        // before the creation resolves the directory and reads the new file's stat (StretchCache.put)
        long epoch = verifiedDirectories.epoch();
        Creation creation = new Creation(true);
        Inode created;
        try {
            created = createObject(parent, name, owner, mode, FileType.REGULAR, null, atime, mtime, creation);
        } catch (IOException | RuntimeException | Error e) {
            CompoundScope.beginChange();
            throw e;
        }
        PosixStat after = reviseAfterEntryChange(stretch, creation.dir, name, ino -> false);
        resolvedInStretch.put(stretch, creation.made.handle(), creation.made, epoch);
        if (after != null) {
            return new Created(created, changes.change(after.ino(), after.ctimeNanos()));
        }
        return new Created(created, getattr(parent).change());
    }

    /**
     * Revises what stretch {@code stretch} read past a change of the entry {@code name} of {@code dir} (a removal, a
     * creation) that touched only the directory and the objects whose inode numbers {@code gone} accepts: drops those
     * objects' answers and what was found under {@code name}, and keeps the directory as one {@code lstat} of its path
     * ({@link #statInside}) finds it after the change, under its handle and under every name a LOOKUP found it by.
     * Returns that {@code lstat}, or null (the directory's answers dropped) where the path no longer holds the
     * directory (changed beside the server).
     */
    private PosixStat reviseAfterEntryChange(long stretch, Resolved dir, String name, LongPredicate gone)
            throws IOException {
        long epoch = verifiedDirectories.epoch();
        PosixStat now = statInside(dir.path(), null);
        PosixStat after = now != null && matches(dir.node(), now) ? now : null;
        resolvedInStretch.revise(stretch,
                read -> gone.test(read.stat().ino()) || read.handle().equals(dir.handle()) ? null : read);
        NameIn changed = new NameIn(dir.handle(), name);
        namedInStretch.revise(stretch,
                named -> gone.test(named.stat().ino()) ? null : named.afterEntryChange(changed, after));
        if (after != null) {
            resolvedInStretch.put(stretch, dir.handle(), new Resolved(dir.handle(), dir.node(), dir.path(), after),
                    epoch);
        }
        return after;
    }

    @Override
    public Inode create(Inode parent, String name, Credential owner, int mode) throws IOException {
        if (linkedCreates) {
            return createLinked(parent, name, owner, mode, null, null);
        }
        return createObject(parent, name, owner, mode, FileType.REGULAR, path -> {
            try {
                Files.createFile(path, OWNER_ONLY);
            } catch (IOException e) {
                throw FsErrors.of(e, "create " + path);
            }
        });
    }

    @Override
    public Inode mkdir(Inode parent, String name, Credential owner, int mode) throws IOException {
        return createObject(parent, name, owner, mode, FileType.DIRECTORY, path -> posix.mkdir(path, 0700));
    }

    @Override
    public Inode symlink(Inode parent, String name, String target, Credential owner, int mode) throws IOException {
        checkLinkTarget(target);
        return createObject(parent, name, owner, mode, FileType.SYMLINK, path -> posix.symlink(target, path));
    }

    @Override
    public Inode mknod(Inode parent, String name, FileType type, int major, int minor, Credential owner, int mode)
            throws IOException {
        Creator creator = switch (type) {
            case BLOCK -> path -> posix.mknod(path, PosixStat.S_IFBLK | 0600, PosixStat.makedev(major, minor));
            case CHAR -> path -> posix.mknod(path, PosixStat.S_IFCHR | 0600, PosixStat.makedev(major, minor));
            case SOCKET -> path -> posix.mknod(path, PosixStat.S_IFSOCK | 0600, 0);
            case FIFO -> path -> posix.mkfifo(path, 0600);
            default -> throw new BadTypeException("mknod cannot create a " + type);
        };
        return createObject(parent, name, owner, mode, type, creator);
    }

    @Override
    public void link(Inode target, Inode parent, String name) throws IOException {
        String checked = checkName(name);
        requireThisExport(target);
        requireThisExport(parent);
        Resolved object = resolve(target);
        if (object.node().isDirectory()) {
            throw new IsDirException("cannot link a directory");
        }
        Resolved dir = resolveDirectory(parent);
        if (isReserved(dir, checked)) {
            throw new AccessException(RESERVED_NAME + " is reserved");
        }
        Path path = child(dir, checked);
        posix.link(object.path(), path);
        syncDirectory(dir);
        handleFor(dir.handle(), checked, path, posix.lstat(path));
        changes.modified(dir.stat().ino(), dir.stat().ctimeNanos());
        changes.modified(object.stat().ino(), object.stat().ctimeNanos());
    }

    @Override
    public void remove(Inode parent, String name) throws IOException {
        removeEntry(parent, name);
    }

    /**
     * {@link #remove}, then the directory's change attribute from one stat of the directory resolved for the removal
     * ({@link #statInside}; under the compound's lock of it), instead of resolving its handle again (a handle-table
     * read, the path, the {@code lstat}): one resolution less per REMOVE. Should the path no longer hold that directory (changed
     * beside the server), it resolves the handle as {@link #getattr} does.
     *
     * <p>A removal that succeeded changed two objects: the directory and the victim (its link count, or its last name;
     * a removed directory moves the {@link VerifiedDirectories} epoch, which drops every answer). So it
     * {@linkplain CompoundScope#suspend() suspends} the stretch: it drops the victim's answers, resolved handles and
     * looked-up names alike (by inode, whatever handle or name; and the removed name's, whatever it found), and keeps
     * the directory as read after the removal (under its handle and under every name a LOOKUP found it by); the rest of
     * what the stretch read (the export root, the other directories of a LOOKUP chain, the other names) serves on where
     * the engine resumes the stretch (a plain compound). A removal that failed ends the stretch.
     */
    @Override
    public long removeThenChange(Inode parent, String name) throws IOException {
        long stretch = CompoundScope.stretch();
        Removed removed;
        try {
            removed = removeEntry(parent, name);
        } catch (IOException | RuntimeException | Error e) {
            CompoundScope.beginChange();
            throw e;
        }
        CompoundScope.suspend();
        long victim = removed.victim().ino();
        PosixStat after = reviseAfterEntryChange(stretch, removed.dir(), name, ino -> ino == victim);
        if (after != null) {
            return changes.change(after.ino(), after.ctimeNanos());
        }
        return getattr(parent).change();
    }

    /** A removal's directory as resolved for it (its stat from before) and the victim's stat from before. */
    private record Removed(Resolved dir, PosixStat victim) {
    }

    /** Removes {@code name} from {@code parent}. */
    private Removed removeEntry(Inode parent, String name) throws IOException {
        Child child = visibleChild(parent, name);
        Resolved dir = child.dir();
        Path path = child.path();
        PosixStat stat = child.stat();
        if (stat.isDirectory()) {
            verifiedDirectories.forgetAll();
            try {
                Optional<Path> place = handles.placeForRemoved(stat.ino());
                if (place.isPresent()) {
                    moveEmptyDirectory(path, place.get());
                } else {
                    removeInside(dir.path(), path, true);
                }
            } finally {
                verifiedDirectories.forgetAll();
            }
        } else {
            Optional<Path> place = handles.placeForRemoved(stat.ino());
            if (place.isPresent()) {
                moveIntoPlace(path, place.get());
            } else {
                removeInside(dir.path(), path, false);
            }
        }
        syncDirectory(dir);
        try {
            // the object's row may outlive it for a moment (it answers NFS4ERR_STALE): no handle-table commit
            // before the reply (HandleTable.unlinkAfterSync, docs/durability.md)
            Optional<Nfh> later = handles.unlinkAfterSync(dir.handle(), child.name());
            if (later.isPresent()) {
                if (stat.isDirectory() || stat.nlink() <= 1) {
                    channels.invalidate(later.get());
                }
            } else {
                handles.commitAfterSyncs();
                Optional<HandleBatch.Unlinked> unlinked = handles.inGroupCommit(batch -> batch.unlink(dir.handle(),
                        child.name()));
                unlinked.filter(HandleBatch.Unlinked::nodeRemoved).ifPresent(u -> channels.invalidate(u.handle()));
            }
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "forgetting " + path);
        }
        changes.modified(dir.stat().ino(), dir.stat().ctimeNanos());
        survivorChanged(stat);
        return new Removed(dir, stat);
    }

    @Override
    public boolean removesIntoPlace() {
        return true;
    }

    /**
     * The REMOVE of the empty directory {@code path} as one rename into {@code place} (a transaction's
     * backup directory, {@link HandleTable#placeForRemoved}): the name goes in one step, and the same
     * directory is there to be put back if the transaction rolls back. NFS4ERR_NOTEMPTY, changing nothing, for a
     * directory with entries, also for one a process on the server gave an entry between the check and the rename.
     */
    private void moveEmptyDirectory(Path path, Path place) throws IOException {
        if (!posix.isEmptyDirectory(path)) {
            throw new NotEmptyException(path + " is not empty");
        }
        moveIntoPlace(path, place);
        if (!posix.isEmptyDirectory(place)) {
            int back = posix.rename(place, path);
            if (back != 0) {
                LOG.error("{} gained an entry while it was removed and cannot be put back from {} (errno {}): the "
                        + "transaction's rollback moves it back", path, place, back);
            }
            throw new NotEmptyException(path + " gained an entry while it was removed");
        }
    }

    /**
     * The REMOVE of {@code path} as one rename into {@code place} (a transaction's backup directory, {@link
     * HandleTable#placeForRemoved}), which keeps the object (its inode, so its data, attributes and file id) for the
     * transaction's undo: a non-directory so, instead of a hard link made before the REMOVE and an unlink.
     */
    private void moveIntoPlace(Path path, Path place) throws IOException {
        int errno = posix.rename(path, place);
        if (errno != 0) {
            throw FsErrors.ofRename(errno, path, place);
        }
    }

    @Override
    public void rename(Inode fromParent, String fromName, Inode toParent, String toName) throws IOException {
        String from = checkName(fromName);
        String to = checkName(toName);
        requireThisExport(fromParent);
        requireThisExport(toParent);
        Resolved source = resolveDirectory(fromParent);
        Resolved target = fromParent.equals(toParent) ? source : resolveDirectory(toParent);
        if (isReserved(source, from)) {
            throw new NoEntException(from);
        }
        if (isReserved(target, to)) {
            throw new AccessException(RESERVED_NAME + " is reserved");
        }
        Path fromPath = child(source, from);
        Path toPath = child(target, to);
        PosixStat moved = posix.lstat(fromPath);
        PosixStat replaced = posix.lstatOrNull(toPath);
        if (replaced != null && replaced.ino() == moved.ino() && replaced.dev() == moved.dev()) {
            return;
        }
        if (moved.isDirectory() && moved.dev() != rootDev) {
            throw new NoEntException(fromPath + " is a mount point and not exported");
        }
        if (replaced != null && moved.isDirectory() != replaced.isDirectory()) {
            throw new ExistException("cannot replace " + toPath + " by an object of another kind");
        }
        verifiedDirectories.forgetAll();
        int errno = posix.rename(fromPath, toPath);
        verifiedDirectories.forgetAll();
        if (errno != 0) {
            throw FsErrors.ofRename(errno, fromPath, toPath);
        }
        syncDirectory(source);
        if (target != source) {
            syncDirectory(target);
        }
        handles.commitAfterSyncs();
        renameInTable(source.handle(), from, target.handle(), to);
        changes.modified(source.stat().ino(), source.stat().ctimeNanos());
        if (target != source) {
            changes.modified(target.stat().ino(), target.stat().ctimeNanos());
        }
        changes.modified(moved.ino(), moved.ctimeNanos());
        if (replaced != null) {
            survivorChanged(replaced);
        }
    }

    @Override
    public ReadResult read(Inode inode, long offset, ByteBuffer dst) throws IOException {
        Resolved file = resolveRegular(inode);
        if (offset < 0) {
            throw new InvalException("negative offset " + offset);
        }
        int start = dst.position();
        return withChannel(file, ChannelCache.Use.READ, "read", () -> dst.position(start), channel -> {
            long position = offset;
            boolean eof = false;
            while (dst.hasRemaining()) {
                int n = channel.read(dst, position);
                if (n < 0) {
                    eof = true;
                    break;
                }
                position += n;
            }
            int count = dst.position() - start;
            return new ReadResult(count, eof || offset + count >= channel.size());
        });
    }

    @Override
    public WriteResult write(Inode inode, long offset, ByteBuffer data, WriteStability stability)
            throws IOException {
        Objects.requireNonNull(stability, "stability");
        Resolved file = resolveRegular(inode);
        if (offset < 0) {
            throw new InvalException("negative offset " + offset);
        }
        if (offset + data.remaining() < 0) {
            throw new FBigException("write beyond the largest offset");
        }
        // the file may have come from the caller's stretch (WRITE's): from here on it changes
        CompoundScope.beginChange();
        int start = data.position();
        return withChannel(file, ChannelCache.Use.WRITE, "write", () -> data.position(start), channel -> {
            long position = offset;
            while (data.hasRemaining()) {
                position += channel.write(data, position);
            }
            // A compound that holds its locks syncs the files it wrote once, at its end, before the reply.
            if (stability != WriteStability.UNSTABLE
                    && !handles.syncAtCompoundEnd(file.handle(), () -> syncLater(file))) {
                fileSyncs.increment();
                channel.force(stability == WriteStability.FILE_SYNC);
            }
            changes.modified(file.stat().ino(), file.stat().ctimeNanos());
            return new WriteResult(data.position() - start, stability);
        });
    }

    /**
     * Makes the entries of {@code dir} durable before the reply: at the end of the compound that holds its
     * locks (once per directory per compound, see {@link DirectorySync}: a later rename of the directory in the same
     * compound does not matter), or now on a thread outside such a compound.
     */
    private void syncDirectory(Resolved dir) throws IOException {
        if (!handles.syncDirectoryAtCompoundEnd(dir.handle(), () -> directorySyncLater(dir))) {
            int fd = openForSync(dir.path());
            try {
                directorySyncs.increment();
                posix.fsync(fd, dir.path());
            } finally {
                posix.close(fd);
            }
        }
    }

    /**
     * The sync of the directory {@code dir} at the end of its compound (or later, on an {@code async} export): opened,
     * synced and closed by the C library's calls, a compound of REMOVEs keeps one per directory (about 50 per compound
     * of the workload driver's rm -rf), a {@link FileChannel} for each cost a Java channel and a cleaner besides. On a
     * file system that logs in order the buffer syncs only the directory of the compound's last change of entries and
     * drops the others unsynced ({@link OrderedLog}), so there the directory is opened only when it is synced at the
     * compound's end ({@link DirectorySync}), under the compound's locks, after its last change. Elsewhere, and for a
     * compound whose directory syncs wait in the {@code async} queue (which runs them after the compound, when an
     * {@code rm -rf} has often removed the directory already: its path would hold nothing and cost a {@code syncfs}),
     * it is opened now.
     */
    private TxnBuffer.PendingSync directorySyncLater(Resolved dir) throws IOException {
        OrderedLog log = orderedLogOf(dir.stat().dev());
        TxnBuffer.FileSystemSync fileSystem = fileSystemOf(dir.stat().dev());
        boolean lazy = log != null && fileSystem != null && posix.usesDescriptors() && !handles.defersDirectorySyncs();
        return new DirectorySync(dir.path(), dir.node(), lazy ? -1 : openForSync(dir.path()), fileSystem, log);
    }

    /** A descriptor of the directory {@code dir} to sync its entries, counted in {@link #directorySyncOpens}. */
    private int openForSync(Path dir) throws NfsException {
        directorySyncOpens.increment();
        return posix.openDirectory(dir);
    }

    /**
     * A directory's sync kept for the end of its compound. Opened when made ({@code fd} given), or, on a file system
     * that logs in order, only when synced ({@code fd} -1): by its path then, which by that time may hold another
     * directory or none (renamed or removed beside the server meanwhile), so the directory
     * opened must be the one whose entries changed ({@link #matches}, by one {@code statx} of the descriptor), else
     * the whole file system is synced ({@code syncfs}), which makes that change durable wherever the directory went.
     * Closed once; a descriptor number is reused once closed, so it is never synced or closed after that.
     */
    private final class DirectorySync implements TxnBuffer.PendingSync {
        private final Path dir;
        private final Node node;
        private final TxnBuffer.FileSystemSync fileSystem;
        private final OrderedLog log;
        private boolean closed;
        private int fd;

        DirectorySync(Path dir, Node node, int fd, TxnBuffer.FileSystemSync fileSystem, OrderedLog log) {
            this.dir = dir;
            this.node = node;
            this.fd = fd;
            this.fileSystem = fileSystem;
            this.log = log;
        }

        @Override
        public synchronized void sync() throws IOException {
            if (closed) {
                throw new IllegalStateException("the sync of " + dir + " was released");
            }
            if (fd < 0 && !openSameDirectory()) {
                fileSystem.syncAll();
                return;
            }
            directorySyncs.increment();
            posix.fsync(fd, dir);
        }

        /** Opens {@link #dir} now; whether it is still the directory whose entries changed (else nothing is kept). */
        private boolean openSameDirectory() {
            try {
                fd = openForSync(dir);
            } catch (NfsException e) {
                return false;
            }
            try {
                PosixStat now = posix.statAt(fd, null, dir);
                if (now != null && matches(node, now)) {
                    return true;
                }
            } catch (NfsException e) {
                // as if another directory were there
            }
            posix.close(fd);
            fd = -1;
            return false;
        }

        @Override
        public boolean isDirectory() {
            return true;
        }

        @Override
        public TxnBuffer.FileSystemSync fileSystem() {
            return fileSystem;
        }

        @Override
        public OrderedLog orderedLog() {
            return log;
        }

        @Override
        public synchronized void close() {
            if (!closed && fd >= 0) {
                posix.close(fd);
            }
            closed = true;
        }
    }

    /** A sync of {@code file} at the end of its compound, holding the file open until then. */
    private TxnBuffer.PendingSync syncLater(Resolved file) throws IOException {
        TxnBuffer.FileSystemSync fileSystem = fileSystemOf(file.stat().dev());
        OrderedLog log = orderedLogOf(file.stat().dev());
        if (file.kept() != null) {
            // a file kept open after its last name went: its descriptor stays with KeptOpenFiles, it has no path
            return new FileSync(file.kept().channel(), null, () -> { }, fileSystem, log);
        }
        ChannelCache.Lease lease = lease(file, ChannelCache.Use.WRITE);
        return new FileSync(lease.channel(), file.path(), lease::close, fileSystem, log);
    }

    /**
     * A file's sync kept for the end of its compound: an fsync through {@code channel}, which {@code release} gives
     * back afterwards (a lease of the {@link ChannelCache}; nothing for a kept open file). {@code path} is null for a
     * file without a name ({@link TxnBuffer.PendingSync#path()}).
     */
    private final class FileSync implements TxnBuffer.PendingSync {
        private final FileChannel channel;
        private final Path path;
        private final Runnable release;
        private final TxnBuffer.FileSystemSync fileSystem;
        private final OrderedLog log;

        FileSync(FileChannel channel, Path path, Runnable release, TxnBuffer.FileSystemSync fileSystem,
                OrderedLog log) {
            this.channel = channel;
            this.path = path;
            this.release = release;
            this.fileSystem = fileSystem;
            this.log = log;
        }

        @Override
        public void sync() throws IOException {
            try {
                fileSyncs.increment();
                channel.force(true);
            } catch (IOException e) {
                throw FsErrors.of(e, "sync " + (path != null ? path : "an open file without a name"));
            }
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void close() {
            release.run();
        }

        @Override
        public TxnBuffer.FileSystemSync fileSystem() {
            return fileSystem;
        }

        @Override
        public OrderedLog orderedLog() {
            return log;
        }
    }

    @Override
    public void commit(Inode inode, long offset, long count) throws IOException {
        Resolved file = resolveRegular(inode);
        withChannel(file, ChannelCache.Use.READ, "commit", () -> { }, channel -> {
            // COMMIT locks the file for reading: clients committing it at the same moment share an fsync
            handles.sharedFsync().sync(file.handle(), () -> {
                fileSyncs.increment();
                channel.force(true);
            });
            return null;
        });
    }

    @Override
    public Stat getattr(Inode inode) throws IOException {
        return toStat(resolve(inode).stat());
    }

    @Override
    public void setattr(Inode inode, SetAttributes attributes) throws IOException {
        Resolved object = resolve(inode);
        if (attributes.isEmpty()) {
            return;
        }
        // the object may have come from the caller's stretch (SETATTR's): from here on it changes
        CompoundScope.beginChange();
        FileType type = object.node().type();
        Path path = object.path();
        if (attributes.size() != null) {
            if (type == FileType.DIRECTORY) {
                throw new InvalException("cannot set the size of a directory");
            }
            if (type != FileType.REGULAR) {
                throw new InvalException("cannot set the size of a " + type);
            }
            posix.truncate(path, attributes.size());
        }
        if (attributes.uid() != null || attributes.gid() != null) {
            posix.lchown(path, attributes.uid() == null ? -1 : attributes.uid(),
                    attributes.gid() == null ? -1 : attributes.gid());
        }
        if (attributes.mode() != null && type != FileType.SYMLINK) {
            posix.chmod(path, attributes.mode());
        }
        if (attributes.atime() != null || attributes.mtime() != null) {
            posix.setTimes(path, attributes.atime(), attributes.mtime());
        }
        changes.modified(object.stat().ino(), object.stat().ctimeNanos());
    }

    @Override
    public DirectoryListing list(Inode dir, byte[] verifier, long cookie, int maxEntries) throws IOException {
        Resolved directory = resolveDirectory(dir);
        if (cookie < 0 || (cookie > 0 && cookie < FIRST_COOKIE)) {
            throw new BadCookieException("cookie " + Long.toUnsignedString(cookie) + " was never issued");
        }
        if (maxEntries < 1) {
            throw new TooSmallException("no room for an entry");
        }
        byte[] ours = verifierOf(directory.node());
        if (cookie != 0 && verifier != null && !isZero(verifier) && !Arrays.equals(verifier, ours)) {
            throw new NotSameException("cookie verifier belongs to another directory");
        }
        DirectoryIndex index = indexOf(directory);
        List<DirEntry> entries = new ArrayList<>(Math.min(maxEntries, 1024));
        int i = index.indexAfter(cookie);
        for (; i < index.size() && entries.size() < maxEntries; i++) {
            PosixStat stat = statInside(directory.path(), index.name(i));
            if (stat == null || stat.typeOrNull() == null || (stat.isDirectory() && stat.dev() != rootDev)) {
                continue;
            }
            entries.add(new DirEntry(index.name(i), index.cookie(i), toStat(stat)));
        }
        return new DirectoryListing(ours, entries, i >= index.size());
    }

    @Override
    public String readlink(Inode inode) throws IOException {
        Resolved link = resolve(inode);
        if (link.node().type() != FileType.SYMLINK) {
            throw new InvalException("not a symbolic link");
        }
        return Posix.utf8(posix.readlink(link.path()));
    }

    @Override
    public FsStat getFsStat(Inode inode) throws IOException {
        resolve(inode);
        try {
            long[] files = posix.fileSlots(root);
            return new FsStat(store.getTotalSpace(), store.getUnallocatedSpace(), store.getUsableSpace(),
                    files == null ? 0 : files[0], files == null ? 0 : files[1]);
        } catch (IOException e) {
            throw FsErrors.of(e, "statfs " + root);
        }
    }

    /**
     * Keeps the regular file {@code inode}, which a client holds open, usable by its handle should its
     * name about to go be its last one (see {@link KeptOpenFiles}); nothing for other objects or when the
     * handle table knows other names of it (links only the server made, such as a transaction's backup of
     * the victim, do not count: they go when the transaction ends).
     */
    @Override
    public void keepWhileOpen(Inode inode) throws IOException {
        Resolved file = resolve(inode);
        if (file.kept() != null || file.node().type() != FileType.REGULAR || file.node().links().size() > 1) {
            return;
        }
        keptOpen.keep(file.handle(), file.node(), file.path());
    }

    @Override
    public void releaseOpen(Inode inode) {
        if (inode.length() == Nfh.LENGTH && keptOpen.release(Nfh.of(inode.toBytes()))) {
            channels.invalidate(Nfh.of(inode.toBytes()));
        }
    }

    /** How many files are kept usable by handle after losing their last name while open. */
    public int keptOpenFiles() {
        return keptOpen.size();
    }

    /**
     * Closes the files this file system keeps open, also those kept for their opens after their last name
     * went (not the handle table); calling it again is harmless.
     */
    @Override
    public void close() {
        keptOpen.close();
        channels.close();
        int fd = rootFd;
        rootFd = -1;
        if (fd >= 0) {
            posix.close(fd);
        }
    }

    /**
     * Whether the export's file system reports birth times (the export root has one): what tells a handle's object
     * from a later one that reuses its inode number (docs/durability.md, "The async export option").
     */
    public boolean keepsBirthTimes() {
        return rootGeneration != 0;
    }

    /** fsyncs of directories (their entries: name changes) this file system made since it was built. */
    public long directorySyncCount() {
        return directorySyncs.sum();
    }

    /**
     * Directories opened to sync their entries since the file system was built: one per changed directory and
     * compound, except on a file system that logs in order, where only the directories synced are opened.
     */
    public long directorySyncOpenCount() {
        return directorySyncOpens.sum();
    }

    /** fsyncs of files (stable WRITEs, COMMITs) this file system made since it was built. */
    public long fileSyncCount() {
        return fileSyncs.sum();
    }

    /**
     * Checks on the disk that a directory is reached from the export root without a symbolic link (one
     * {@code openat2} each, which opens it: {@link DirectoryDescriptors}) this file system made since it was built; a
     * compound checks each directory once, and none a LOOKUP of it found to be a directory.
     */
    public long symlinkCheckCount() {
        return symlinkChecks.sum();
    }

    /**
     * Names the kernel looked up for the system calls of resolutions, LOOKUPs, listings and REMOVEs since the file
     * system was built: every name of the path each was given (all of an absolute path's, the export root's own too;
     * none for a descriptor's own object). With openat2 only names below the export root, and one per LOOKUP in a
     * directory the compound opened (see "Symbolic links" above).
     */
    public long pathNameCount() {
        return pathNames.sum();
    }

    /**
     * Handles this file system resolved on the disk (its table row, path and {@code lstat}) since it was built;
     * within a stretch of a compound's operations that change nothing, each handle once ({@link StretchCache}).
     */
    public long resolutionCount() {
        return resolutions.sum();
    }

    /**
     * Reads of the handle table this file system made to resolve handles, recognize them and find the rows of names
     * (one snapshot each) since it was built; those {@link HandleTable#cachedRead} answered from its cache are not
     * counted.
     */
    public long tableReadCount() {
        return tableReads.sum();
    }

    /** Reads of the handle table answered from its cache (the table had not changed since they were read). */
    public long cachedRowAnswerCount() {
        long misses = tableReads.sum(); // first: every read it counts was counted in rowReads before
        return rowReads.sum() - misses;
    }

    @Override
    public String toString() {
        return "LocalFileSystem[" + exportId + " at " + root + "]";
    }

    // ---- resolution -------------------------------------------------------------------------------------

    /** A handle checked against the disk: its node, where it is, and what {@code lstat} said. */
    private record Resolved(Nfh handle, Node node, Path path, PosixStat stat, KeptOpenFiles.Kept kept) {
        Resolved(Nfh handle, Node node, Path path, PosixStat stat) {
            this(handle, node, path, stat, null);
        }
    }

    private Resolved resolve(Inode inode) throws IOException {
        long stretch = CompoundScope.stretch();
        Nfh handle = handleOf(inode);
        Resolved known = resolvedInStretch.get(stretch, handle);
        if (known != null) {
            return known;
        }
        long epoch = verifiedDirectories.epoch();
        try {
            Resolved resolved = resolveByName(handle);
            resolvedInStretch.put(stretch, handle, resolved, epoch);
            return resolved;
        } catch (StaleException e) {
            Optional<KeptOpenFiles.Kept> kept = keptOpen.get(handle);
            if (kept.isPresent()) {
                PosixStat stat = posix.statOrNull(kept.get().path());
                if (stat != null && matches(kept.get().node(), stat)) {
                    return new Resolved(handle, kept.get().node(), kept.get().path(), stat, kept.get());
                }
            }
            throw e;
        }
    }

    private Resolved resolveByName(Nfh handle) throws IOException {
        resolutions.increment();
        Located located;
        try {
            located = located(handle);
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "resolving " + handle);
        }
        Node node = located.node();
        if (node == null) {
            throw new StaleException("unknown handle " + handle);
        }
        if (!node.exportId().equals(exportId)) {
            throw new StaleException("handle " + handle + " belongs to export " + node.exportId());
        }
        List<Path> candidates = located.paths();
        for (Path path : candidates) {
            PosixStat stat = node.isDirectory() ? statInside(path, null)
                    : statInside(path.getParent(), path.getFileName().toString());
            if (stat != null && matches(node, stat)) {
                return new Resolved(handle, node, path, stat);
            }
        }
        LOG.debug("handle {} is stale: nothing at {} matches inode {}", handle, candidates, node.ino());
        throw new StaleException("the object of handle " + handle + " is gone");
    }

    private Resolved resolveDirectory(Inode inode) throws IOException {
        Resolved resolved = resolve(inode);
        if (!resolved.node().isDirectory()) {
            throw new NotDirException("not a directory: a " + resolved.node().type());
        }
        return resolved;
    }

    private Resolved resolveRegular(Inode inode) throws IOException {
        Resolved resolved = resolve(inode);
        FileType type = resolved.node().type();
        if (type == FileType.DIRECTORY) {
            throw new IsDirException("a directory has no data");
        }
        if (type != FileType.REGULAR) {
            throw new InvalException("not a regular file: a " + type);
        }
        return resolved;
    }

    private boolean matches(Node node, PosixStat stat) {
        if (!node.isSameObject(stat.ino(), stat.generation()) || stat.typeOrNull() != node.type()) {
            return false;
        }
        return !node.isDirectory() || stat.dev() == rootDev;
    }

    /**
     * What {@code lstat} says of the entry {@code name} of the directory {@code dir} (of {@code dir} itself when
     * {@code name} is null), if {@code dir} is reached from the export root without a symbolic link; else, or if
     * nothing is there, {@code null}. With openat2, by a {@code statx} relative to a descriptor the compound holds
     * ({@link DirectoryDescriptors}; the root's): of the closest directory on the way when this compound already found
     * {@code dir} free of links (it resolved it, or a LOOKUP found it to be a directory: as {@link VerifiedDirectories}
     * served the old absolute paths), else of {@code dir} itself, which it first opens from the closest one with
     * {@link Posix#openDirectoryBeneath} (the check), so nothing can change between the check and the {@code statx}.
     * No absolute path: the kernel looks up names below the export root only. Without openat2, an {@code lstat} of
     * the absolute path and a symbolic-link check of {@code dir} ({@link #insideExport}).
     */
    private PosixStat statInside(Path dir, String name) throws NfsException {
        Path path = name == null ? dir : dir.resolve(name);
        int rootDescriptor = rootFd;
        if (posix.usesDescriptors() && rootDescriptor >= 0) {
            long compound = CompoundScope.current();
            long epoch = verifiedDirectories.epoch();
            DirectoryDescriptors.Held held = closestHeld(compound, dir, rootDescriptor);
            Path anchor = held.dir();
            int anchorFd = held.fd();
            if (reachedWithoutCheck(compound, held, dir)) {
                return statBelow(anchorFd, anchor, path);
            }
            // a symbolic-link check: dir opened from the closest directory above it the compound holds, or the root
            String below = below(anchor, dir);
            symlinkChecks.increment();
            int fd = posix.openDirectoryBeneath(anchorFd, below);
            if (fd == -1) {
                return null;
            }
            if (fd >= 0) {
                try {
                    return statBelow(fd, dir, path);
                } finally {
                    if (!descriptors.keep(compound, dir, fd, epoch)) {
                        posix.close(fd);
                    }
                }
            }
        }
        pathNames.add(path.getNameCount());
        PosixStat stat = posix.lstatOrNull(path);
        return stat != null && insideExport(dir) ? stat : null;
    }

    /** The descriptor {@code compound} holds of {@code dir} or of the closest directory above it, else the root's. */
    private DirectoryDescriptors.Held closestHeld(long compound, Path dir, int rootDescriptor) {
        DirectoryDescriptors.Held held = descriptors.closest(compound, dir, root);
        return held != null ? held : new DirectoryDescriptors.Held(root, rootDescriptor);
    }

    /**
     * Whether names in {@code dir} may be looked up relative to {@code held} ({@link #closestHeld}) without checking
     * {@code dir} first: it is {@code held}'s own directory, or this compound found it free of symbolic links.
     */
    private boolean reachedWithoutCheck(long compound, DirectoryDescriptors.Held held, Path dir) {
        return held.dir().equals(dir) || verifiedDirectories.isVerified(compound, dir);
    }

    /**
     * Removes the entry {@code path} of the directory {@code dir} ({@code rmdir} when {@code directory}, else
     * {@code unlink}): with openat2, relative to the descriptor {@link #statInside} would {@code statx} it by, when
     * that needs no check (the compound resolved {@code dir} or a LOOKUP found it: the removal's own resolution did),
     * so the kernel looks up names below the export root only, none of the absolute path's above it; else by its
     * absolute path.
     */
    private void removeInside(Path dir, Path path, boolean directory) throws NfsException {
        int rootDescriptor = rootFd;
        if (posix.usesDescriptors() && rootDescriptor >= 0) {
            long compound = CompoundScope.current();
            DirectoryDescriptors.Held held = closestHeld(compound, dir, rootDescriptor);
            if (reachedWithoutCheck(compound, held, dir)) {
                posix.unlinkAt(held.fd(), below(held.dir(), path), directory, path);
                return;
            }
        }
        pathNames.add(path.getNameCount());
        if (directory) {
            posix.rmdir(path);
        } else {
            posix.unlink(path);
        }
    }

    /** {@code statx} of {@code path} relative to {@code fd}, a descriptor of its directory {@code anchor} or above. */
    private PosixStat statBelow(int fd, Path anchor, Path path) throws NfsException {
        return posix.statAt(fd, anchor.equals(path) ? null : below(anchor, path), path);
    }

    /** The names of {@code path} below its ancestor {@code anchor}, joined by '/', counted in {@link #pathNames}. */
    private String below(Path anchor, Path path) {
        String above = anchor.toString();
        String below = path.toString().substring(above.endsWith("/") ? above.length() : above.length() + 1);
        int names = 1;
        for (int i = below.indexOf('/'); i >= 0; i = below.indexOf('/', i + 1)) {
            names++;
        }
        pathNames.add(names);
        return below;
    }

    /** Closes a descriptor {@link #descriptors} let go of. */
    private void closeDescriptor(int fd) {
        posix.close(fd);
    }

    /**
     * Whether the directory {@code dir} is reached from the root without a symlink (where openat2 is missing):
     * checked on the disk, once per compound while no directory is removed or renamed ({@link VerifiedDirectories}).
     */
    private boolean insideExport(Path dir) {
        long compound = CompoundScope.current();
        if (dir.equals(root) || verifiedDirectories.isVerified(compound, dir)) {
            return true;
        }
        long epoch = verifiedDirectories.epoch();
        symlinkChecks.increment();
        pathNames.add(dir.getNameCount());
        boolean inside = posix.isDirectoryWithoutSymlinks(dir);
        if (inside) {
            verifiedDirectories.verified(compound, dir, epoch);
        }
        return inside;
    }

    /** Fails with XDEV for a handle of another export in the same table (others fail later as usual). */
    private void requireThisExport(Inode inode) throws IOException {
        Nfh handle = handleOf(inode);
        try {
            Node node = located(handle).node();
            if (node != null && !node.exportId().equals(exportId)) {
                throw new XDevException("handle " + handle + " belongs to export " + node.exportId());
            }
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "resolving " + handle);
        }
    }

    private Path pathOf(List<String> names) {
        Path path = root;
        for (String name : names) {
            path = path.resolve(name);
        }
        return path;
    }

    /** An existing entry of a directory, as a client may see it. */
    private record Child(Resolved dir, String name, Path path, PosixStat stat) {
    }

    /**
     * The entry {@code name} of directory {@code parent}, which a client may see: not the reserved name at
     * the root, and not a directory on another device (a mount point below the export). Both are NOENT.
     */
    private Child visibleChild(Inode parent, String name) throws IOException {
        String checked = checkName(name);
        return visibleChild(resolveDirectory(parent), checked);
    }

    /**
     * The directory {@code child} as resolved, when the handle table already knows it under its name as that
     * object (what {@link #handleFor} finds without registering), else {@code null}.
     */
    private Resolved knownDirectory(Child child) throws IOException {
        try {
            Optional<Node> node = entry(child.dir().handle(), child.name());
            if (node.isEmpty() || !node.get().exportId().equals(exportId) || !matches(node.get(), child.stat())) {
                return null;
            }
            return new Resolved(node.get().handle(), node.get(), child.path(), child.stat());
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "resolving " + child.path());
        }
    }

    /** Like {@link #visibleChild(Inode, String)} in the directory {@code dir}, for a name already checked. */
    private Child visibleChild(Resolved dir, String checked) throws IOException {
        if (isReserved(dir, checked)) {
            throw new NoEntException(checked);
        }
        Path path = child(dir, checked);
        PosixStat stat = statInside(dir.path(), checked);
        if (stat == null) {
            throw FsErrors.of(Errno.ENOENT.intValue(), "lstat", path);
        }
        if (stat.isDirectory() && stat.dev() != rootDev) {
            throw new NoEntException(path + " is a mount point and not exported");
        }
        return new Child(dir, checked, path, stat);
    }

    private static Path child(Resolved dir, String name) throws NfsException {
        try {
            return dir.path().resolve(name);
        } catch (InvalidPathException e) {
            throw FsErrors.of(e, "name " + name);
        }
    }

    private static boolean isReserved(Resolved dir, String name) {
        return dir.node().isRoot() && RESERVED_NAME.equals(name);
    }

    private static Nfh handleOf(Inode inode) throws BadHandleException {
        if (inode.length() != Nfh.LENGTH) {
            throw new BadHandleException("a handle has " + Nfh.LENGTH + " bytes, not " + inode.length());
        }
        return Nfh.of(inode.toBytes());
    }

    private static Inode inodeOf(Nfh handle) {
        return Inode.of(handle.toBytes());
    }

    // ---- the handle table -------------------------------------------------------------------------------

    /** The handle of the object {@code stat} found at {@code name} in {@code parent}, registering it if new. */
    private Nfh handleFor(Nfh parent, String name, Path path, PosixStat stat) throws IOException {
        return registering(name, path, () -> {
            Optional<Node> known = entry(parent, name);
            if (isSameObject(known, stat)) {
                return known.get().handle();
            }
            return handles.inGroupCommit(batch -> reconcile(batch, parent, name, stat));
        });
    }

    /** A handle's row and the paths of its links as the table has them (none for another export's); node null: none. */
    private record Located(Node node, List<Path> paths) {
    }

    /**
     * The rows and paths of {@code handle} as this file system sees them: a key of {@link #cachedRead}, with the file
     * system (by identity) as {@link Located} depends on its export and root.
     */
    private record Place(LocalFileSystem fs, Nfh handle) {
    }

    /** The entry {@code name} of directory {@code parent} in the table: a key of {@link #cachedRead}. */
    private record Entry(Nfh parent, String name) {
    }

    /** A handle's {@link Located} row and paths, from the table's cache while the table did not change. */
    private Located located(Nfh handle) {
        return cachedRead(new Place(this, handle), snapshot -> {
            Optional<Node> node = snapshot.node(handle);
            if (node.isEmpty() || !node.get().exportId().equals(exportId)) {
                return new Located(node.orElse(null), List.of());
            }
            if (node.get().isRoot()) {
                return new Located(node.get(), List.of(root));
            }
            List<Path> paths = new ArrayList<>(1);
            for (Link link : node.get().links()) {
                snapshot.path(link).ifPresent(names -> paths.add(pathOf(names)));
            }
            return new Located(node.get(), List.copyOf(paths));
        });
    }

    /** The node the table has under {@code name} in {@code parent}, from the table's cache while it did not change. */
    private Optional<Node> entry(Nfh parent, String name) {
        return cachedRead(new Entry(parent, name), snapshot -> {
            Optional<Nfh> known = snapshot.child(parent, name);
            return known.isEmpty() ? Optional.empty() : snapshot.node(known.get());
        });
    }

    /**
     * {@link HandleTable#cachedRead}, counted: {@link #rowReads} every time, {@link #tableReads} when the table was
     * read (a thread whose buffer changed a row the answer was read from reads it again, through its buffer).
     */
    private <T> T cachedRead(Object key, Function<HandleSnapshot, T> read) {
        rowReads.increment();
        return handles.cachedRead(key, snapshot -> {
            tableReads.increment();
            return read.apply(snapshot);
        });
    }

    /** Work on the handle table for the object at {@code path}, named {@code name} in its directory. */
    @FunctionalInterface
    private interface TableWork {
        Nfh run() throws IOException;
    }

    /**
     * Runs {@code work}, mapping a failure of the handle table to an NFS error and a table that no longer
     * agrees with what {@code work} expected (the directory changed meanwhile) to NFS4ERR_STALE. A disagreement
     * is tried once more first: on a thread bound to a compound's buffer the work reads the committed rows one at
     * a time, so a row another compound commits meanwhile can be missing at one read and there at the next; the
     * second run sees it from the start. What is still refused is logged (WARN, rate-limited) with its reason.
     */
    private static Nfh registering(String name, Path path, TableWork work) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.run();
            } catch (HandleTableException e) {
                throw FsErrors.of(e, "registering " + path);
            } catch (IllegalStateException | IllegalArgumentException e) {
                if (attempt < REGISTRATION_ATTEMPTS) {
                    LOG.debug("registering {} failed, once more: {}", path, e.getMessage());
                    continue;
                }
                TABLE_DISAGREED.warn("registering {} in the handle table failed {} times, answering NFS4ERR_STALE: {}",
                        path, attempt, e.toString());
                throw new StaleException("the directory changed while " + name + " was registered", e);
            }
        }
    }

    /** Whether the table's {@code node} is the object {@code stat} describes (same inode, generation, type). */
    private static boolean isSameObject(Optional<Node> node, PosixStat stat) throws IOException {
        return node.isPresent() && node.get().isSameObject(stat.ino(), stat.generation())
                && node.get().type() == stat.type();
    }

    /**
     * Makes the table agree with the disk for one name and returns the handle of what is there: drops a
     * stale name row, joins a further hard link of a known file to its handle, forgets an old node whose
     * inode number was reused, and registers what is new.
     */
    private Nfh reconcile(HandleBatch batch, Nfh parent, String name, PosixStat stat) throws IOException {
        FileType type = stat.type();
        Optional<Nfh> atName = batch.child(parent, name);
        if (atName.isPresent()) {
            if (isSameObject(batch.node(atName.get()), stat)) {
                return atName.get();
            }
            batch.unlink(parent, name).filter(HandleBatch.Unlinked::nodeRemoved)
                    .ifPresent(gone -> channels.invalidate(gone.handle()));
        }
        Optional<Node> byInode = batch.byInode(exportId, stat.ino()).flatMap(batch::node);
        if (byInode.isPresent()) {
            Node node = byInode.get();
            if (node.isRoot()) {
                throw new NoEntException("the export root appears beneath itself at " + name);
            }
            if (node.type() == type && !node.isDirectory() && node.isSameObject(stat.ino(), stat.generation())) {
                List<Link> dead = new ArrayList<>();
                for (Link link : node.links()) {
                    if (!leadsTo(batch, link, node)) {
                        dead.add(link);
                    }
                }
                if (dead.size() < node.links().size()) {
                    batch.addLink(node.handle(), parent, name);
                    for (Link link : dead) {
                        batch.unlink(link.parent(), link.name());
                    }
                    return node.handle();
                }
            }
            LOG.debug("inode {} of {} is no longer the object of handle {}", stat.ino(), name, node.handle());
            batch.removeNode(node.handle());
            channels.invalidate(node.handle());
        }
        return batch.register(parent, name, type, stat.dev(), stat.ino(), stat.generation());
    }

    private boolean leadsTo(HandleBatch batch, Link link, Node node) throws NfsException {
        Optional<List<String>> names = batch.path(link);
        if (names.isEmpty()) {
            return false;
        }
        PosixStat stat = posix.lstatOrNull(pathOf(names.get()));
        return stat != null && node.isSameObject(stat.ino(), stat.generation()) && stat.typeOrNull() == node.type();
    }

    private void renameInTable(Nfh fromParent, String from, Nfh toParent, String to) throws IOException {
        try {
            try {
                HandleBatch.Renamed renamed = handles.inGroupCommit(batch -> batch.rename(fromParent, from, toParent,
                        to));
                renamed.replaced().filter(HandleBatch.Unlinked::nodeRemoved)
                        .ifPresent(gone -> channels.invalidate(gone.handle()));
            } catch (IllegalStateException | IllegalArgumentException e) {
                LOG.warn("handle table disagreed with rename {} -> {}: {}; forgetting both names", from, to,
                        e.getMessage());
                try (HandleBatch batch = handles.write()) {
                    batch.unlink(fromParent, from);
                    batch.unlink(toParent, to);
                    batch.commit();
                }
            }
        } catch (HandleTableException e) {
            throw FsErrors.of(e, "renaming " + from + " to " + to + " in the handle table");
        }
    }

    // ---- creation ---------------------------------------------------------------------------------------

    /** Makes one new object at a path that did not exist. */
    @FunctionalInterface
    private interface Creator {
        void create(Path path) throws IOException;
    }

    /** {@link #createObject} of a regular file made by {@link Posix#createLinked}, with its times if given. */
    private Inode createLinked(Inode parent, String name, Credential owner, int mode, TimeChange atime,
            TimeChange mtime) throws IOException {
        return createObject(parent, name, owner, mode, FileType.REGULAR, null, atime, mtime);
    }

    private Inode createObject(Inode parent, String name, Credential owner, int mode, FileType type,
            Creator creator) throws IOException {
        return createObject(parent, name, owner, mode, type, creator, null, null);
    }

    /**
     * Makes one new object; a null {@code creator} makes a regular file with {@link Posix#createLinked} (owner, mode
     * and the times given, if any, set before it gets its name) and falls back to a plain create, mode and times
     * after it, where the file system has no O_TMPFILE.
     */
    private Inode createObject(Inode parent, String name, Credential owner, int mode, FileType type,
            Creator creator, TimeChange atime, TimeChange mtime) throws IOException {
        return createObject(parent, name, owner, mode, type, creator, atime, mtime, new Creation(false));
    }

    /**
     * What {@link #createObject} tells its caller: the directory as resolved for the creation, and the object made as
     * the creation left it (set once it is registered). With {@code suspends}, the creation
     * {@linkplain CompoundScope#suspend() suspends} the caller's stretch instead of ending it: the caller revises
     * what the stretch read ({@link #createThenChange}).
     */
    private static final class Creation {
        final boolean suspends;
        Resolved dir;
        Resolved made;

        Creation(boolean suspends) {
            this.suspends = suspends;
        }
    }

    /** {@link #createObject}, leaving the directory and the object made in {@code creation}. */
    private Inode createObject(Inode parent, String name, Credential owner, int mode, FileType type,
            Creator creator, TimeChange atime, TimeChange mtime, Creation creation) throws IOException {
        Objects.requireNonNull(owner, "owner");
        String checked = checkName(name);
        if ((mode & ~07777) != 0) {
            throw new InvalException("mode has bits beyond 07777: " + Integer.toOctalString(mode));
        }
        Resolved dir = resolveDirectory(parent);
        creation.dir = dir;
        if (isReserved(dir, checked)) {
            throw new AccessException(RESERVED_NAME + " is reserved");
        }
        // the reads before it may have come from the caller's stretch (OPEN's and CREATE's): from here on things change
        if (creation.suspends) {
            CompoundScope.suspend();
        } else {
            CompoundScope.beginChange();
        }
        Path path = child(dir, checked);
        boolean setGid = (dir.stat().mode() & PosixStat.S_ISGID) != 0;
        // a regular file made unnamed with its owner and mode, then linked in (createsAtomically), needs no more; its
        // stat is read from its own descriptor: the handle goes to the file made, whatever holds the name by then
        PosixStat linked = creator == null ? posix.createLinked(path, mode, runsAsRoot ? owner.uid() : -1,
                setGid ? dir.stat().gid() : owner.gid(), atime, mtime) : null;
        boolean finished = linked != null;
        if (creator == null && !finished) {
            linkedCreates = false;
            LOG.warn("export {}: the file system refused O_TMPFILE; files are created, then given their mode, from "
                    + "now on (transactions that create a file take the full path)", exportId);
            creator = p -> {
                try {
                    Files.createFile(p, OWNER_ONLY);
                } catch (IOException e) {
                    throw FsErrors.of(e, "create " + p);
                }
            };
        }
        if (!finished) {
            creator.create(path);
        }
        PosixStat stat;
        try {
            if (!finished && runsAsRoot) {
                posix.lchown(path, owner.uid(), setGid ? dir.stat().gid() : owner.gid());
            }
            if (!finished && type != FileType.SYMLINK) {
                int finalMode = type == FileType.DIRECTORY && setGid ? mode | PosixStat.S_ISGID : mode;
                posix.chmod(path, finalMode);
            }
            if (!finished && (atime != null || mtime != null)) {
                posix.setTimes(path, atime, mtime);
            }
            stat = finished ? linked : posix.lstat(path);
        } catch (IOException e) {
            undoCreate(path, type);
            throw e;
        }
        syncDirectory(dir);
        Nfh handle = registerCreated(dir.handle(), checked, path, stat);
        // xfs_create, xfs_symlink and xfs_link (O_TMPFILE) log the new object with its entry: its fsync covers both
        handles.loggedWithLastDirectoryChange(dir.handle(), handle);
        changes.modified(dir.stat().ino(), dir.stat().ctimeNanos());
        // the row registerCreated wrote, as the table answers it
        Node node = new Node(handle, exportId, stat.type(), stat.dev(), stat.ino(), stat.generation(),
                List.of(new Link(dir.handle(), checked)));
        creation.made = new Resolved(handle, node, path, stat);
        return inodeOf(handle);
    }

    /**
     * Registers an object this server has just created under a fresh handle. Nothing was at the name and
     * the inode is new, so whatever the table still holds for either is stale and goes first (this catches
     * an inode number reused within one tick of the birth-time clock).
     */
    private Nfh registerCreated(Nfh parent, String name, Path path, PosixStat stat) throws IOException {
        return registering(name, path, () -> {
            HandleBatch.Registered registered = handles.inGroupCommit(batch -> batch.registerReplacing(parent, name,
                    stat.type(), stat.dev(), stat.ino(), stat.generation()));
            registered.forgotten().forEach(channels::invalidate);
            return registered.handle();
        });
    }

    private void undoCreate(Path path, FileType type) {
        try {
            if (type == FileType.DIRECTORY) {
                posix.rmdir(path);
            } else {
                posix.unlink(path);
            }
        } catch (NfsException e) {
            LOG.warn("could not remove {} after a failed create: {}", path, e.getMessage());
        }
    }

    // ---- attributes and listings ------------------------------------------------------------------------

    private Stat toStat(PosixStat stat) throws IOException {
        FileType type = stat.type();
        boolean device = type == FileType.BLOCK || type == FileType.CHAR;
        return new Stat(type, stat.permissions(), stat.nlink(), stat.uid(), stat.gid(), Math.max(0, stat.size()),
                stat.blocks() * 512, stat.ino(), device ? stat.rdevMajor() : 0, device ? stat.rdevMinor() : 0,
                stat.atime(), stat.mtime(), stat.ctime(), stat.btime(), changes.change(stat.ino(), stat.ctimeNanos()));
    }

    /** Records that an object which lost a name changed, or forgets it if that was its last name. */
    private void survivorChanged(PosixStat before) {
        if (!before.isDirectory() && before.nlink() > 1) {
            changes.modified(before.ino(), before.ctimeNanos());
        } else {
            changes.forget(before.ino());
        }
    }

    /** What {@link #withChannel} does with a file's channel. */
    @FunctionalInterface
    private interface ChannelAction<T> {
        T run(FileChannel channel) throws IOException;
    }

    /**
     * Runs {@code action} on a cached channel of {@code file}. If the channel is closed under it (another
     * thread evicted it), discards the channel, calls {@code reset} to undo what the attempt consumed and
     * retries once on a fresh channel (see {@link #retryable}). I/O failures are mapped to NFS errors
     * naming {@code what} and the path.
     */
    private <T> T withChannel(Resolved file, ChannelCache.Use use, String what, Runnable reset,
            ChannelAction<T> action) throws IOException {
        if (file.kept() != null) {
            try {
                return action.run(file.kept().channel());
            } catch (IOException e) {
                throw FsErrors.of(e, what + " of the open, removed file " + file.node().ino());
            }
        }
        for (int attempt = 0; ; attempt++) {
            try (ChannelCache.Lease lease = lease(file, use)) {
                try {
                    return action.run(lease.channel());
                } catch (ClosedChannelException e) {
                    lease.discard();
                    reset.run();
                    if (!retryable(e, attempt)) {
                        throw FsErrors.of(e, what + " " + file.path());
                    }
                } catch (IOException e) {
                    throw FsErrors.of(e, what + " " + file.path());
                }
            }
        }
    }

    private ChannelCache.Lease lease(Resolved file, ChannelCache.Use use) throws IOException {
        try {
            return channels.acquire(file.handle(), file.path(), use);
        } catch (IOException e) {
            throw FsErrors.of(e, "open " + file.path());
        }
    }

    /** Whether a channel closed under us may be retried: once, and not if this thread was interrupted. */
    private static boolean retryable(ClosedChannelException e, int attempt) {
        return attempt == 0 && e instanceof AsynchronousCloseException && !(e instanceof ClosedByInterruptException)
                && !Thread.currentThread().isInterrupted();
    }

    private record CachedIndex(long change, long builtAt, DirectoryIndex index) {
    }

    private DirectoryIndex indexOf(Resolved dir) throws IOException {
        long change = changes.change(dir.stat().ino(), dir.stat().ctimeNanos());
        long now = System.nanoTime();
        synchronized (listings) {
            CachedIndex cached = listings.get(dir.handle());
            if (cached != null && cached.change() == change && now - cached.builtAt() < LISTING_TTL_NANOS) {
                return cached.index();
            }
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir.path())) {
            for (Path entry : stream) {
                String name = entry.getFileName().toString();
                if (!isReserved(dir, name) && name.indexOf('\uFFFD') < 0) {
                    names.add(name);
                }
            }
        } catch (DirectoryIteratorException e) {
            throw FsErrors.of(e.getCause(), "readdir " + dir.path());
        } catch (IOException e) {
            throw FsErrors.of(e, "readdir " + dir.path());
        }
        DirectoryIndex index = DirectoryIndex.of(names);
        synchronized (listings) {
            listings.put(dir.handle(), new CachedIndex(change, now, index));
            Iterator<Nfh> eldest = listings.keySet().iterator();
            while (listings.size() > LISTING_CACHE_SIZE && eldest.hasNext()) {
                eldest.next();
                eldest.remove();
            }
        }
        return index;
    }

    private static byte[] verifierOf(Node dir) {
        long value = (dir.ino() * 0x9E3779B97F4A7C15L) ^ VERIFIER_SALT;
        if (value == 0) {
            value = VERIFIER_SALT;
        }
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    // ---- names ------------------------------------------------------------------------------------------

    /**
     * Checks a name with the rules of the protocol layer (org.tcnfs.nfs4.ops.Names), again: empty or not
     * encodable as UTF-8 INVAL, over 255 bytes NAMETOOLONG, "." or ".." BADNAME, '/' or NUL BADCHAR.
     */
    static String checkName(String name) throws NfsException {
        if (name == null || name.isEmpty()) {
            throw new InvalException("empty name");
        }
        int bytes = Names.utf8Length(name);
        if (bytes < 0) {
            throw new InvalException("name is not valid Unicode");
        }
        if (bytes > MAX_NAME_BYTES) {
            throw new NameTooLongException("name longer than " + MAX_NAME_BYTES + " bytes");
        }
        if (name.equals(".") || name.equals("..")) {
            throw new BadNameException("name \"" + name + "\" is reserved");
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new BadCharException("name contains '/' or NUL");
        }
        return name;
    }

    private static void checkLinkTarget(String target) throws NfsException {
        if (target == null || target.isEmpty()) {
            throw new InvalException("empty symbolic link target");
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(target)) {
            throw new InvalException("symbolic link target is not valid Unicode");
        }
        if (target.indexOf('\0') >= 0) {
            throw new BadCharException("symbolic link target contains NUL");
        }
        if (target.getBytes(StandardCharsets.UTF_8).length > MAX_LINK_BYTES) {
            throw new NameTooLongException("symbolic link target longer than " + MAX_LINK_BYTES + " bytes");
        }
    }

    /** Settings of a {@link LocalFileSystem}; {@link #build()} checks the root and registers it. */
    public static final class Builder {
        private final String exportId;
        private final Path root;
        private final HandleTable handles;
        private int maxOpenFiles = DEFAULT_MAX_OPEN_FILES;
        private Posix posix;

        private Builder(String exportId, Path root, HandleTable handles) {
            this.exportId = Objects.requireNonNull(exportId, "exportId");
            this.root = Objects.requireNonNull(root, "root");
            this.handles = Objects.requireNonNull(handles, "handles");
        }

        /** How many files to keep open for READ and WRITE ({@value #DEFAULT_MAX_OPEN_FILES} by default). */
        public Builder maxOpenFiles(int files) {
            if (files < 1) {
                throw new IllegalArgumentException("at least one open file: " + files);
            }
            this.maxOpenFiles = files;
            return this;
        }

        /** The system calls to make (tests: {@link Posix#withoutOpenat2()}); by default a new {@link Posix}. */
        Builder posix(Posix calls) {
            this.posix = calls;
            return this;
        }

        /**
         * Opens the export: resolves the root's real path, checks it is a directory and creates (or finds)
         * its root handle.
         *
         * @throws IOException if the root does not exist or is not a directory, or the table fails
         */
        public LocalFileSystem build() throws IOException {
            Path real = root.toRealPath();
            Posix posix = this.posix != null ? this.posix : new Posix();
            PosixStat stat = posix.lstat(real);
            if (!stat.isDirectory()) {
                throw new NotDirException(real + " is not a directory");
            }
            Nfh rootHandle;
            try (HandleBatch batch = handles.write()) {
                rootHandle = batch.ensureRoot(exportId, stat.dev(), stat.ino(), stat.generation());
                batch.commit();
            } catch (HandleTableException e) {
                throw FsErrors.of(e, "registering the root of export " + exportId);
            }
            checkEncoding();
            LocalFileSystem fs = new LocalFileSystem(this, real, posix, stat, rootHandle);
            LOG.info("exporting {} as {} (root handle {}, {}; {})", real, exportId, rootHandle,
                    fs.runsAsRoot ? "running as root: new objects get the caller's owner"
                            : "not running as root: new objects stay owned by the server's user",
                    fs.orderedLogDevice().isPresent() ? "its file system logs in order: one directory fsync per plain compound"
                            : "every directory a plain compound changed is fsynced");
            return fs;
        }

        private static void checkEncoding() {
            String jnu = System.getProperty("sun.jnu.encoding", "");
            boolean utf8Paths;
            try {
                utf8Paths = Charset.forName(jnu).equals(StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                utf8Paths = false;
            }
            if (!utf8Paths || !Charset.defaultCharset().equals(StandardCharsets.UTF_8)) {
                LOG.error("file names are not encoded as UTF-8 (sun.jnu.encoding={}, default charset {}): names "
                        + "outside ASCII will fail; run with a UTF-8 locale such as LANG=C.UTF-8", jnu,
                        Charset.defaultCharset());
            }
        }
    }
}
