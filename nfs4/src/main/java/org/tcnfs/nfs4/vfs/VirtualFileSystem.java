package org.tcnfs.nfs4.vfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The file system behind an export: what the NFS operations need from storage.
 *
 * <p>Objects are named by {@link Inode}s that the file system issues; it must recognize them again after a
 * restart for as long as the object exists. Names passed in have been checked by the protocol layer (not
 * empty, not "." or "..", no '/' or NUL, at most 255 bytes), but an implementation must still never
 * resolve anything outside its own tree. Permission checks against the caller's {@link Credential} are
 * the protocol layer's job; the file system runs every method with full rights and uses the credential
 * only to own what it creates.
 *
 * <p>Failures are {@link org.tcnfs.nfs4.status.NfsException}s: {@code StaleException} for a handle the file
 * system issued but whose object is gone or unknown, {@code BadHandleException} for bytes that cannot be
 * one of its handles, {@code NoEntException}, {@code ExistException}, {@code NotDirException},
 * {@code IsDirException}, {@code NotEmptyException}, {@code XDevException}, {@code NoSpcException},
 * {@code IoException} and so on as each method states. Any other {@code IOException} is answered with
 * NFS4ERR_IO by the caller.
 *
 * <p>Implementations are thread-safe; the protocol layer does its own locking for atomic compounds.
 */
public interface VirtualFileSystem {

    /** The root directory of this file system. */
    Inode getRootInode() throws IOException;

    /**
     * Whether {@code inode} is a handle this file system issued (it may be stale). Cheap; used to route
     * handles between the exports of one server.
     */
    boolean recognizes(Inode inode) throws IOException;

    /**
     * The object called {@code name} in {@code parent}.
     *
     * @throws org.tcnfs.nfs4.status.NoEntException if there is none
     * @throws org.tcnfs.nfs4.status.NotDirException if {@code parent} is not a directory
     */
    Inode lookup(Inode parent, String name) throws IOException;

    /**
     * A check of a directory's attributes before a lookup in it (for example search permission), which refuses the
     * lookup by throwing.
     */
    @FunctionalInterface
    interface DirectoryCheck {
        /**
         * @param directory the attributes of the directory looked in, as the lookup found it
         * @throws IOException (an {@code NfsException}) to refuse the lookup
         */
        void check(Stat directory) throws IOException;
    }

    /**
     * The object called {@code name} in {@code parent}, once {@code check} has accepted the attributes of
     * {@code parent}: {@link #getattr} of {@code parent}, then {@link #lookup(Inode, String)}, with the errors of
     * each, in that order. A file system that resolves {@code parent} once for both overrides it (a LOOKUP's
     * permission check then costs no second resolution).
     *
     * @throws IOException what {@link #getattr}, {@code check} or {@link #lookup(Inode, String)} throws
     */
    default Inode lookup(Inode parent, String name, DirectoryCheck check) throws IOException {
        check.check(getattr(parent));
        return lookup(parent, name);
    }

    /**
     * An object found by a lookup, with its attributes if the lookup read them on the way (null if not).
     *
     * @param inode the object
     * @param attributes what {@link #getattr} of {@code inode} would have answered at the lookup, or null
     */
    record Found(Inode inode, Stat attributes) {
        public Found {
            java.util.Objects.requireNonNull(inode, "inode");
        }
    }

    /**
     * {@link #lookup(Inode, String, DirectoryCheck)}, with the attributes of the object found when the file system
     * reads them anyway to find it (a GETATTR after the LOOKUP then needs no second resolution). By default without
     * attributes.
     *
     * @throws IOException what {@link #lookup(Inode, String, DirectoryCheck)} throws
     */
    default Found lookupWithAttributes(Inode parent, String name, DirectoryCheck check) throws IOException {
        return new Found(lookup(parent, name, check), null);
    }

    /**
     * {@link #lookup(Inode, String)}, with the attributes of the object found when the file system reads them anyway
     * (see {@link #lookupWithAttributes(Inode, String, DirectoryCheck)}). By default without attributes.
     *
     * @throws IOException what {@link #lookup(Inode, String)} throws
     */
    default Found lookupWithAttributes(Inode parent, String name) throws IOException {
        return new Found(lookup(parent, name), null);
    }

    /**
     * The directory that holds {@code dir}.
     *
     * @throws org.tcnfs.nfs4.status.NoEntException if {@code dir} is this file system's root
     * @throws org.tcnfs.nfs4.status.NotDirException if {@code dir} is not a directory
     */
    Inode parentOf(Inode dir) throws IOException;

    /**
     * Creates an empty regular file.
     *
     * @param owner owner and group of the new file
     * @param mode its permission bits
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    Inode create(Inode parent, String name, Credential owner, int mode) throws IOException;

    /**
     * Whether {@link #create} makes the new file appear under its name with its final mode and owner in one step,
     * so that a crash at any moment leaves either no file or the file as created (the transaction layer's light
     * path relies on it). False unless a file system says so.
     */
    default boolean createsAtomically() {
        return false;
    }

    /**
     * Whether {@link #remove} of an empty directory or of a non-directory honours a place the transaction layer gave
     * for it (a transaction's REMOVE): it then renames the object there, one step, instead of removing it, so that the
     * same object (its inode, data and attributes) can be put back if the transaction rolls back. False unless a file
     * system says so.
     */
    default boolean removesIntoPlace() {
        return false;
    }

    /**
     * The device ({@code st_dev}) of the export's file system when that file system makes metadata changes durable in
     * the order they were made, through one log, and the server relies on it: an fsync of the object of the last
     * change of directory entries then makes every earlier one on that device durable too (docs/durability.md, "One
     * log force per compound"). Empty unless a file system says so.
     */
    default OptionalLong orderedLogDevice() {
        return OptionalLong.empty();
    }

    /**
     * Creates an empty regular file with its access and modification times set (an exclusive OPEN's verifier), in
     * one step where {@link #createsAtomically()}. The default creates it, then sets the times, and removes it
     * again if that fails.
     *
     * @param atime its access time, or null for the time of creation
     * @param mtime its modification time, or null for the time of creation
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    default Inode create(Inode parent, String name, Credential owner, int mode, TimeChange atime, TimeChange mtime)
            throws IOException {
        Inode created = create(parent, name, owner, mode);
        if (atime == null && mtime == null) {
            return created;
        }
        try {
            setattr(created, SetAttributes.NONE.withTimes(atime, mtime));
        } catch (IOException e) {
            try {
                remove(parent, name);
            } catch (IOException removeFailure) {
                e.addSuppressed(removeFailure);
            }
            throw e;
        }
        return created;
    }

    /** A new object and its directory's {@code change} attribute right after its creation. */
    record Created(Inode inode, long change) {
        public Created {
            java.util.Objects.requireNonNull(inode, "inode");
        }
    }

    /**
     * {@link #create(Inode, String, Credential, int, TimeChange, TimeChange)}, then the {@code change} attribute of
     * {@code parent} as the creation left it (OPEN's {@code cinfo.after}). As in {@link #removeThenChange}, the caller
     * has begun a change ({@link CompoundScope#beginChange()}) only for the creation itself, so the reads before it
     * may be served from the current stretch; the attribute after is read after the creation, never from what was
     * cached before it. The default creates, ends the stretch and asks {@link #getattr}; a file system that can read
     * the directory again more cheaply than it resolves a handle (it resolved {@code parent} for the creation)
     * overrides it. Either way the stretch ends here: by {@link CompoundScope#beginChange()}, or, by a file system
     * that revises what it keeps of the stretch (the directory, the new name, the new file), by
     * {@link CompoundScope#suspend()}, which lets the engine resume it after the operation; the caller does not end it
     * again.
     *
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    default Created createThenChange(Inode parent, String name, Credential owner, int mode, TimeChange atime,
            TimeChange mtime) throws IOException {
        Inode created;
        try {
            created = create(parent, name, owner, mode, atime, mtime);
        } finally {
            CompoundScope.beginChange();
        }
        return new Created(created, getattr(parent).change());
    }

    /**
     * Creates a directory.
     *
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    Inode mkdir(Inode parent, String name, Credential owner, int mode) throws IOException;

    /**
     * Creates a symbolic link holding {@code target} verbatim; the file system never follows it.
     *
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    Inode symlink(Inode parent, String name, String target, Credential owner, int mode) throws IOException;

    /**
     * Creates a block or character device, a FIFO or a socket.
     *
     * @param type one of BLOCK, CHAR, FIFO, SOCKET
     * @param major major device number (devices only)
     * @param minor minor device number (devices only)
     * @throws org.tcnfs.nfs4.status.BadTypeException for other types
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     */
    Inode mknod(Inode parent, String name, FileType type, int major, int minor, Credential owner, int mode)
            throws IOException;

    /**
     * Gives {@code target} another name, {@code name} in {@code parent}.
     *
     * @throws org.tcnfs.nfs4.status.IsDirException if {@code target} is a directory
     * @throws org.tcnfs.nfs4.status.ExistException if the name is taken
     * @throws org.tcnfs.nfs4.status.XDevException if {@code target} is in another file system
     */
    void link(Inode target, Inode parent, String name) throws IOException;

    /**
     * Removes the name; a directory must be empty.
     *
     * @throws org.tcnfs.nfs4.status.NoEntException if there is no such name
     * @throws org.tcnfs.nfs4.status.NotEmptyException for a directory that is not empty
     */
    void remove(Inode parent, String name) throws IOException;

    /**
     * {@link #remove}, then the {@code change} attribute of {@code parent} as the removal left it (REMOVE's
     * {@code cinfo.after}). The caller has begun a change ({@link CompoundScope#beginChange()}) only for the removal
     * itself, so the reads before it may be served from the current stretch; the attribute after is read after the
     * removal, never from what was cached before it. It ends the stretch when the removal begins, or
     * {@linkplain CompoundScope#suspend() suspends} it if it drops from its caches of the stretch (or reads again)
     * whatever the removal changed. The default removes, ends the stretch and asks {@link #getattr}; a file system
     * that can read the directory again more cheaply than it resolves a handle (it resolved {@code parent} for the
     * removal) overrides it.
     *
     * @throws org.tcnfs.nfs4.status.NoEntException if there is no such name
     * @throws org.tcnfs.nfs4.status.NotEmptyException for a directory that is not empty
     */
    default long removeThenChange(Inode parent, String name) throws IOException {
        try {
            remove(parent, name);
        } finally {
            CompoundScope.beginChange();
        }
        return getattr(parent).change();
    }

    /**
     * Renames {@code fromName} in {@code fromParent} to {@code toName} in {@code toParent}, replacing a
     * compatible target (file over file, empty directory over directory) as POSIX rename does. Renaming an
     * object onto itself (the same object, including another hard link to it) changes nothing.
     *
     * @throws org.tcnfs.nfs4.status.NoEntException if the source does not exist
     * @throws org.tcnfs.nfs4.status.ExistException if the target cannot be replaced (type mismatch or a
     *     directory that is not empty)
     * @throws org.tcnfs.nfs4.status.InvalException if a directory would move into itself
     */
    void rename(Inode fromParent, String fromName, Inode toParent, String toName) throws IOException;

    /**
     * Reads from {@code offset} into {@code dst} up to its remaining space.
     *
     * @throws org.tcnfs.nfs4.status.IsDirException for a directory
     * @throws org.tcnfs.nfs4.status.InvalException for other non-regular files
     */
    ReadResult read(Inode inode, long offset, ByteBuffer dst) throws IOException;

    /**
     * Writes all of {@code data} at {@code offset}.
     *
     * @throws org.tcnfs.nfs4.status.IsDirException for a directory
     * @throws org.tcnfs.nfs4.status.InvalException for other non-regular files
     */
    WriteResult write(Inode inode, long offset, ByteBuffer data, WriteStability stability) throws IOException;

    /** Makes earlier unstable writes to {@code inode} durable. */
    void commit(Inode inode, long offset, long count) throws IOException;

    /** The object's attributes. */
    Stat getattr(Inode inode) throws IOException;

    /**
     * Changes attributes; a size change truncates or extends a regular file.
     *
     * @throws org.tcnfs.nfs4.status.InvalException for a size change on something that is not a file
     */
    void setattr(Inode inode, SetAttributes attributes) throws IOException;

    /**
     * Entries of a directory after {@code cookie} (0 to start), at most {@code maxEntries} of them.
     * {@code verifier} is the one returned by an earlier call, or zeros when starting; a verifier that no
     * longer matches the directory is {@code NotSameException}, an unknown cookie {@code BadCookieException}.
     * "." and ".." are never listed.
     */
    DirectoryListing list(Inode dir, byte[] verifier, long cookie, int maxEntries) throws IOException;

    /**
     * The target of a symbolic link.
     *
     * @throws org.tcnfs.nfs4.status.InvalException if {@code inode} is not a symbolic link
     */
    String readlink(Inode inode) throws IOException;

    /** Capacity of the file system that holds {@code inode}. */
    FsStat getFsStat(Inode inode) throws IOException;

    /**
     * Which of the {@code requested} rights the caller has on {@code inode}. A file system that does no
     * checks of its own grants all; permission-checking views narrow it.
     */
    default Set<AccessRight> access(Inode inode, Set<AccessRight> requested) throws IOException {
        return requested;
    }

    /**
     * {@code inode}, which some client holds open, is about to lose a name (REMOVE, or RENAME over it):
     * should that be its last name, keep the object reachable by its handle for READ, WRITE, COMMIT,
     * GETATTR and SETATTR until {@link #releaseOpen} (POSIX and knfsd keep an unlinked open file usable
     * until it is closed). What is kept must be bounded; beyond the bound the handle goes stale with the
     * last name, as by default.
     */
    default void keepWhileOpen(Inode inode) throws IOException {
    }

    /**
     * The last open of {@code inode} ended (CLOSE, the client's lease expired): what {@link #keepWhileOpen}
     * kept for it may go. Called for every file whose last open ended, also ones nothing was kept for;
     * never throws.
     */
    default void releaseOpen(Inode inode) {
    }

    /**
     * The file system {@code inode} belongs to ({@code fsid}). Views that join several exports give each
     * its own; a single file system may keep the default.
     */
    default FileSystemId fileSystemId(Inode inode) throws IOException {
        return new FileSystemId(1, 0);
    }

    /**
     * The {@code mounted_on_fileid} of {@code inode}: its file id, except for the root of an export, where
     * it is the file id of the directory the export is mounted on in the pseudo file system.
     */
    default long mountedOnFileId(Inode inode, Stat stat) throws IOException {
        return stat.fileId();
    }
}
