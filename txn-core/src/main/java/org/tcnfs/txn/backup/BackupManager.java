package org.tcnfs.txn.backup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.txn.backup.Reflink.CloneResult;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;

/**
 * The backups of one transaction, in one directory of a {@link BackupStore}: what a mutation is about to
 * destroy is saved here first, and undo puts it back.
 *
 * <ul>
 *   <li>{@link #backupRange} before a WRITE or a size change: the old bytes of the range's allocated
 *       extents ({@code SEEK_DATA}/{@code SEEK_HOLE}), each by {@code FICLONERANGE} of the block-aligned
 *       range covering it, or by a copy of exactly the extent when the file system refuses the clone (see
 *       {@link Reflink.CloneResult#refused()}). Holes are not saved: they stay holes in the backup file,
 *       which mirrors the file's allocation over the range. Nothing past the old end of file is saved, only
 *       the old size. The allocated bytes saved are charged to the store's {@link BackupBudget} first.
 *   <li>{@link #moveAside} for REMOVE and {@link #keepTarget} for RENAME onto an existing name: the object
 *       is renamed into the backup directory (the same file system, so it is one atomic rename).
 *   <li>{@link #restoreRange} and {@link #moveBack} undo one backup each; {@link #restoreRange} puts the
 *       saved extents back and punches holes where the backup file has holes, so a sparse file stays sparse.
 *       {@link #restoreHole} punches a range that was a hole when it was saved. All are idempotent: after a crash
 *       in the middle of an undo, running the whole undo again is correct. Undo the backups of a transaction
 *       in reverse order.
 *   <li>{@link #makeDurable()} fsyncs, in one pass, everything created or changed since the last call:
 *       backup files, the backup directory, and the directories renames touched; after undo, the restored
 *       files and directories. One pass per transaction, not one per backup.
 *   <li>{@link #discard()} deletes the transaction's backup directory, for the background cleaner, and
 *       gives its bytes back to the budget.
 *   <li>{@link #checkBudget} refuses, before anything is saved, a transaction whose planned backups would
 *       not fit in the budget.
 * </ul>
 *
 * <p>Each operation returns or takes a {@link Backup} record that the transaction layer keeps in its
 * recovery record; undo needs nothing else, so a manager made after a restart
 * ({@link BackupStore#forTransaction}) undoes the backups of one made before it.
 *
 * <p>Thread-safe (methods are synchronized), though a transaction normally uses its manager from one thread.
 * The files being backed up must not change while a backup or an undo runs: the caller holds their locks.
 */
public final class BackupManager {
    private static final Logger LOG = LoggerFactory.getLogger(BackupManager.class);
    private static final String RANGE_PREFIX = "r";
    private static final String REMOVED_PREFIX = "m";
    private static final String TARGET_PREFIX = "t";

    private final BackupStore store;
    private final Path directory;
    private final List<Backup> backups = new ArrayList<>();
    private final Set<Path> unsyncedFiles = new LinkedHashSet<>();
    private final Set<Path> unsyncedDirectories = new LinkedHashSet<>();
    private boolean directoryReady;
    private boolean discarded;
    private long sequence;
    private long bytesCloned;
    private long bytesCopied;
    private long bytesRestored;
    private long charged;

    BackupManager(BackupStore store, Path directory) {
        this.store = store;
        this.directory = directory;
    }

    /** This transaction's backup directory (absolute; it exists once something was backed up). */
    public Path directory() {
        return directory;
    }

    /**
     * Saves bytes {@code [offset, offset + length)} of the regular file {@code file} and its size, before
     * they are overwritten or cut off. The range is clamped to the current size; a range at or past the end
     * of file saves only the size ({@link RangeBackup.Method#SIZE_ONLY}, no backup file).
     *
     * @throws NoSuchFileException when {@code file} does not exist
     * @throws FileSystemException when {@code file} is not a regular file (a symbolic link is not followed),
     *     or when the clone failed for a reason a copy would not fix ({@code EIO}, {@code ENOSPC} ...)
     * @throws IOException when copying or creating the backup file fails; nothing is recorded then
     * @throws IllegalStateException after {@link #discard()}
     */
    public synchronized RangeBackup backupRange(Path file, long offset, long length) throws IOException {
        checkOpen();
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
        Path source = file.toAbsolutePath();
        long oldSize = regularFileSize(source);
        long end = length > Long.MAX_VALUE - offset ? oldSize : Math.min(oldSize, offset + length);
        if (end <= offset) {
            return record(new RangeBackup(source, offset, 0, oldSize, null, RangeBackup.Method.SIZE_ONLY));
        }
        long allocated = store.reflink().walkData(source, offset, end, (from, to) -> { });
        store.budget().charge(charged, allocated);
        charged += allocated;
        Path backupFile = null;
        try {
            backupFile = createBackupFile();
            RangeBackup.Method method = saveRange(source, offset, end, oldSize, backupFile);
            return record(new RangeBackup(source, offset, end - offset, oldSize, backupFile, method));
        } catch (IOException | RuntimeException e) {
            charged -= allocated;
            store.budget().release(allocated);
            if (backupFile != null) {
                unsyncedFiles.remove(backupFile);
                deleteQuietly(backupFile, e);
            }
            throw e;
        }
    }

    /**
     * The allocated bytes of {@code [offset, offset + length)} of {@code file} (clipped to its end): what a
     * {@link #backupRange} of the range would save and charge. 0 for a range that is one hole.
     *
     * @throws IOException when the file cannot be read (missing, a symbolic link ...)
     */
    public long allocatedBytes(Path file, long offset, long length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
        long end = length > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
        return store.reflink().walkData(file.toAbsolutePath(), offset, end, (from, to) -> { });
    }

    /**
     * Refuses a transaction whose backups would not fit in the budget, before anything is saved: sums the
     * allocated bytes each WRITE and size change of {@code mutations} would save, looking at the files where
     * they were before the compound (objects the compound creates save nothing), and checks the sum against
     * the per-transaction limit, what is left of the server-wide one, and the free space of the backup area's
     * file system less the budget's {@link BackupBudget#diskReserve() reserve}. Nothing is charged: the backups
     * themselves are, as they are made, so a transaction whose estimate was low is still held to the limits.
     *
     * @param mutations the transaction's planned mutations
     * @param regularFile the local path of an object path of the export if a regular file is there now (not
     *     following a symbolic link), else empty: the caller's answer, which it may share with its own preparation
     * @return the estimated allocated bytes
     * @throws BackupBudgetExceededException when they would not fit
     * @throws IOException when a file cannot be read
     */
    public synchronized long checkBudget(List<Mutation> mutations, Function<ObjectPath, Optional<Path>> regularFile)
            throws IOException {
        checkOpen();
        long planned = 0;
        PlannedBytes estimate = new PlannedBytes(regularFile);
        for (Mutation m : mutations) {
            long bytes = m.accept(estimate);
            planned = bytes > Long.MAX_VALUE - planned ? Long.MAX_VALUE : planned + bytes;
        }
        store.budget().check(charged, planned);
        store.budget().checkDiskSpace(store.root(), planned);
        return planned;
    }

    /**
     * The bytes of data a mutation's backup will take, by kind of mutation (a new kind does not compile until
     * it says): the overwritten ranges of WRITE and of a size cut; namespace and attribute changes keep no data
     * (victims are kept by hard links, attributes inside the record).
     */
    private final class PlannedBytes implements Mutation.Visitor<Long, IOException> {
        private final Function<ObjectPath, Optional<Path>> regularFile;

        PlannedBytes(Function<ObjectPath, Optional<Path>> regularFile) {
            this.regularFile = regularFile;
        }

        @Override
        public Long write(Mutation.Write w) throws IOException {
            return plannedBytes(w.file().origin().flatMap(regularFile), w.offset(), w.end());
        }

        @Override
        public Long sizeChange(Mutation.SizeChange c) throws IOException {
            return plannedBytes(c.file().origin().flatMap(regularFile), c.newSize(), Long.MAX_VALUE);
        }

        @Override
        public Long attributeChange(Mutation.AttributeChange m) {
            return 0L;
        }

        @Override
        public Long creation(Mutation.Creation m) {
            return 0L;
        }

        @Override
        public Long removal(Mutation.Removal m) {
            return 0L;
        }

        @Override
        public Long rename(Mutation.Rename m) {
            return 0L;
        }

        @Override
        public Long hardLink(Mutation.HardLink m) {
            return 0L;
        }
    }

    private long plannedBytes(Optional<Path> file, long from, long to) throws IOException {
        if (file.isEmpty() || to <= from) {
            return 0;
        }
        try {
            return store.reflink().walkData(file.get().toAbsolutePath(), from, to, (s, e) -> { });
        } catch (NoSuchFileException gone) {
            return 0;
        }
    }

    /** Allocated bytes of this transaction's backups, charged to the budget until {@link #discard()}. */
    public synchronized long bytesCharged() {
        return charged;
    }

    /**
     * Moves the victim of a REMOVE (any type of object) into the backup directory, which removes it from its
     * directory. Atomic; never overwrites anything.
     *
     * @throws NoSuchFileException when {@code victim} does not exist
     * @throws java.nio.file.AtomicMoveNotSupportedException when it lies on another file system than the
     *     backup directory; nothing changed
     */
    public synchronized MovedAside moveAside(Path victim) throws IOException {
        return moveIntoBackups(victim, REMOVED_PREFIX);
    }

    /**
     * Keeps the existing target of a RENAME: moves it into the backup directory, so the rename that follows
     * does not destroy it. Same as {@link #moveAside}; undone by {@link #moveBack} after the rename is.
     */
    public synchronized MovedAside keepTarget(Path target) throws IOException {
        return moveIntoBackups(target, TARGET_PREFIX);
    }

    /**
     * Puts back the bytes and the size a {@link #backupRange} saved: exactly bytes
     * {@code [offset, offset + length)} (block-aligned parts by clone where the backup was cloned, the rest
     * copied), then the size is set to {@code oldSize}. Running it again gives the same file.
     *
     * @throws NoSuchFileException when the file or its backup file is gone
     * @throws IllegalStateException after {@link #discard()}
     */
    public synchronized void restoreRange(RangeBackup backup) throws IOException {
        checkOpen();
        Path file = backup.file();
        regularFileSize(file);
        long start = backup.offset();
        long end = start + backup.length();
        if (backup.length() > 0) {
            long[] done = {start};
            store.reflink().walkData(backup.backupFile(), start, end, (from, to) -> {
                if (from > done[0]) {
                    clear(file, done[0], from);
                }
                restoreExtent(backup, from, to);
                done[0] = to;
            });
            if (done[0] < end) {
                clear(file, done[0], end);
            }
        }
        setSize(file, backup.oldSize());
        unsyncedFiles.add(file);
        bytesRestored += backup.length();
        store.countRestored(backup.length());
        LOG.debug("restored {} bytes at {} of {}, size {}", backup.length(), start, file, backup.oldSize());
    }

    /**
     * Makes bytes {@code [offset, offset + length)} of {@code file} a hole again, as they were when they were
     * saved (a range saved as a hole: nothing was copied). Punches the allocated extents in the range
     * ({@code FALLOC_FL_PUNCH_HOLE}); where the file system cannot punch, writes zeros over them. The size
     * does not change. Running it again gives the same file.
     *
     * @throws NoSuchFileException when the file is gone
     * @throws IllegalStateException after {@link #discard()}
     */
    public synchronized void restoreHole(Path file, long offset, long length) throws IOException {
        checkOpen();
        if (offset < 0 || length <= 0 || offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("bad range " + offset + "+" + length);
        }
        regularFileSize(file);
        clear(file, offset, offset + length);
        unsyncedFiles.add(file);
        LOG.debug("punched [{}, +{}) of {}", offset, length, file);
    }

    /** Puts back one extent of a backup file: the block-aligned inside by clone where it was cloned. */
    private void restoreExtent(RangeBackup backup, long start, long end) throws IOException {
        Path file = backup.file();
        long innerStart = alignUp(start);
        long innerEnd = alignDown(end);
        boolean cloned = false;
        if (backup.method() == RangeBackup.Method.CLONED && innerEnd > innerStart && store.tryClones()) {
            CloneResult result = store.reflink().cloneRange(backup.backupFile(), innerStart,
                    innerEnd - innerStart, file, innerStart);
            if (!result.succeeded() && !result.refused()) {
                throw new FileSystemException(backup.backupFile().toString(), file.toString(),
                        "FICLONERANGE failed: " + result.errnoName());
            }
            cloned = result.succeeded();
        }
        if (cloned) {
            copyRange(backup.backupFile(), file, start, innerStart - start);
            copyRange(backup.backupFile(), file, innerEnd, end - innerEnd);
        } else {
            copyRange(backup.backupFile(), file, start, end - start);
        }
    }

    /**
     * Makes {@code [from, to)} of {@code file} read as zeros without allocating: punches the allocated extents
     * there (a hole stays a hole and costs nothing), or writes zeros over them where punching is unsupported.
     * A punch that would leave a partly zeroed block allocated is widened to the whole block when the rest of
     * the block reads as zeros, so a one-byte WRITE into a hole leaves no block behind after its undo; the
     * content is the same either way.
     */
    private void clear(Path file, long from, long to) throws IOException {
        store.reflink().walkData(file, from, to, (start, end) -> {
            long punchStart = start;
            long punchEnd = end;
            long head = alignDown(start);
            if (head < start && isZero(file, head, start)) {
                punchStart = head;
            }
            long tail = alignUp(end);
            if (tail > end && isZero(file, end, Math.min(tail, Files.size(file)))) {
                punchEnd = tail;
            }
            if (!store.reflink().punchHole(file, punchStart, punchEnd - punchStart)) {
                writeZeros(file, start, end);
            }
        });
    }

    /** Whether bytes {@code [from, to)} of {@code file} (less than a block) read as zeros; true when empty. */
    private static boolean isZero(Path file, long from, long to) throws IOException {
        if (to <= from) {
            return true;
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) (to - from));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            while (buffer.hasRemaining() && channel.read(buffer, from + buffer.position()) > 0) {
                // reading
            }
        }
        for (int i = 0; i < buffer.position(); i++) {
            if (buffer.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static void writeZeros(Path file, long start, long end) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(end - start, 1 << 20));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            long at = start;
            while (at < end) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), end - at));
                at += channel.write(zeros, at);
            }
        }
    }

    /**
     * Renames a moved-aside object back to its original name. Idempotent: when the backup is gone and the
     * original name exists, the object is back already (or was never moved) and nothing happens.
     *
     * @throws FileAlreadyExistsException when both exist: the name was taken since, and is not overwritten
     * @throws NoSuchFileException when neither exists, or the original's parent directory is gone
     * @throws IllegalStateException after {@link #discard()}
     */
    public synchronized void moveBack(MovedAside moved) throws IOException {
        checkOpen();
        boolean backupThere = Files.exists(moved.backup(), LinkOption.NOFOLLOW_LINKS);
        if (!backupThere) {
            if (Files.exists(moved.original(), LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            throw new NoSuchFileException(moved.backup().toString(), moved.original().toString(),
                    "neither the backup nor the original exists");
        }
        renameNoReplace(moved.backup(), moved.original());
        unsyncedDirectories.add(parentOf(moved.original()));
        unsyncedDirectories.add(parentOf(moved.backup()));
        LOG.debug("moved {} back to {}", moved.backup(), moved.original());
    }

    /**
     * Makes everything this manager created or changed since the last call durable, in one pass: fsync of
     * every backup file (and, after undo, every restored file), then of the backup directory and every
     * directory a rename touched. A second call with nothing new does nothing.
     *
     * @return how many files and directories were synced
     * @throws IOException when a sync fails; what was not synced yet stays pending for the next call
     */
    public synchronized int makeDurable() throws IOException {
        int synced = syncAll(unsyncedFiles);
        synced += syncAll(unsyncedDirectories);
        return synced;
    }

    /**
     * Deletes this transaction's backup directory with everything in it. Call it only once the transaction
     * committed or its undo is durable. Harmless when the directory is gone; the manager refuses further
     * backups and undo afterwards.
     */
    public synchronized void discard() throws IOException {
        discarded = true;
        unsyncedFiles.clear();
        unsyncedDirectories.clear();
        store.budget().release(charged);
        charged = 0;
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
        LOG.debug("discarded {}", directory);
    }

    /** The backups made through this manager, in order. */
    public synchronized List<Backup> backups() {
        return List.copyOf(backups);
    }

    /** Bytes this manager backed up by cloning (the block-aligned covering ranges). */
    public synchronized long bytesCloned() {
        return bytesCloned;
    }

    /** Bytes this manager backed up by copying. */
    public synchronized long bytesCopied() {
        return bytesCopied;
    }

    /** Bytes this manager put back by undo. */
    public synchronized long bytesRestored() {
        return bytesRestored;
    }

    /**
     * Saves the allocated extents of {@code [offset, end)} of {@code source} into {@code backupFile} at the
     * same offsets, each cloned if the file system lets it, else copied; holes are skipped and stay holes.
     * {@link RangeBackup.Method#CLONED} when at least one extent was cloned.
     */
    private RangeBackup.Method saveRange(Path source, long offset, long end, long oldSize, Path backupFile)
            throws IOException {
        boolean[] cloned = {false};
        store.reflink().walkData(source, offset, end, (start, stop) -> {
            if (store.tryClones()) {
                long coverStart = alignDown(start);
                long coverEnd = Math.min(alignUp(stop), oldSize);
                long coverLength = coverEnd - coverStart;
                CloneResult result = store.reflink().cloneRange(source, coverStart, coverLength, backupFile,
                        coverStart);
                if (result.succeeded()) {
                    bytesCloned += coverLength;
                    store.countCloned(coverLength);
                    cloned[0] = true;
                    LOG.debug("cloned [{}, {}) of {} into {}", coverStart, coverEnd, source, backupFile);
                    return;
                }
                if (!result.refused()) {
                    throw new FileSystemException(source.toString(), backupFile.toString(),
                            "FICLONERANGE failed: " + result.errnoName());
                }
                store.cloneRefused(result);
                LOG.debug("clone of {} refused ({}), copying", source, result.errnoName());
            }
            copyRange(source, backupFile, start, stop - start);
            bytesCopied += stop - start;
            store.countCopied(stop - start);
        });
        return cloned[0] ? RangeBackup.Method.CLONED : RangeBackup.Method.COPIED;
    }

    private MovedAside moveIntoBackups(Path object, String prefix) throws IOException {
        checkOpen();
        Path original = object.toAbsolutePath();
        if (!Files.exists(original, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(original.toString());
        }
        ensureDirectory();
        while (true) {
            Path backup = nextName(prefix);
            try {
                renameNoReplace(original, backup);
            } catch (FileAlreadyExistsException taken) {
                continue; // a leftover of an earlier manager of this transaction: take the next name
            }
            unsyncedDirectories.add(parentOf(original));
            unsyncedDirectories.add(directory);
            LOG.debug("moved {} aside to {}", original, backup);
            return record(new MovedAside(original, backup));
        }
    }

    /** Renames without ever replacing the destination; falls back to check-then-rename where unsupported. */
    private void renameNoReplace(Path from, Path to) throws IOException {
        if (store.reflink().renameNoReplace(from, to)) {
            return;
        }
        if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(from.toString(), to.toString(), "destination exists");
        }
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    private Path createBackupFile() throws IOException {
        ensureDirectory();
        while (true) {
            Path candidate = nextName(RANGE_PREFIX);
            try {
                Files.createFile(candidate);
            } catch (FileAlreadyExistsException taken) {
                continue;
            }
            unsyncedFiles.add(candidate);
            unsyncedDirectories.add(directory);
            return candidate;
        }
    }

    private Path nextName(String prefix) {
        return directory.resolve(prefix + sequence++);
    }

    private void ensureDirectory() throws IOException {
        if (directoryReady) {
            return;
        }
        try {
            Files.createDirectory(directory);
            unsyncedDirectories.add(parentOf(directory));
        } catch (FileAlreadyExistsException exists) {
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                throw exists;
            }
        }
        directoryReady = true;
    }

    private <T extends Backup> T record(T backup) {
        backups.add(backup);
        return backup;
    }

    private int syncAll(Set<Path> paths) throws IOException {
        int synced = 0;
        for (Iterator<Path> it = paths.iterator(); it.hasNext(); ) {
            store.reflink().fsync(it.next());
            it.remove();
            synced++;
        }
        return synced;
    }

    private void checkOpen() {
        if (discarded) {
            throw new IllegalStateException("backups of " + directory + " were discarded");
        }
    }

    private long alignDown(long position) {
        return position - Math.floorMod(position, (long) store.blockSize());
    }

    private long alignUp(long position) {
        long down = alignDown(position);
        return down == position ? position : down + store.blockSize();
    }

    private static long regularFileSize(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new FileSystemException(file.toString(), null, "not a regular file");
        }
        return attributes.size();
    }

    /** Copies bytes {@code [offset, offset + length)} of {@code from} to the same offsets of {@code to}. */
    private static void copyRange(Path from, Path to, long offset, long length) throws IOException {
        if (length == 0) {
            return;
        }
        try (FileChannel source = FileChannel.open(from, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                FileChannel target = FileChannel.open(to, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            target.position(offset);
            long done = 0;
            while (done < length) {
                long moved = source.transferTo(offset + done, length - done, target);
                if (moved <= 0) {
                    throw new FileSystemException(from.toString(), to.toString(),
                            "short copy: source ends at " + (offset + done) + ", expected " + (offset + length));
                }
                done += moved;
            }
        }
    }

    /** Sets the size exactly: truncates, or extends (the new bytes read as zeros). */
    private static void setSize(Path file, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            long current = channel.size();
            if (current > size) {
                channel.truncate(size);
            } else if (current < size) {
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
        }
    }

    private static Path parentOf(Path path) {
        Path parent = path.getParent();
        if (parent == null) {
            throw new IllegalArgumentException("no parent directory: " + path);
        }
        return parent;
    }

    private static void deleteQuietly(Path file, Exception cause) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
