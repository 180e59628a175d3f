package org.tcnfs.txn.undo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.proto.Attributes;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.RangeBackup;

/**
 * Takes a transaction back from its {@link RecoveryRecord} alone: the one undo code path, used by online
 * rollback and by startup recovery (DESIGN.md step 7, issue 4). It works on the export's local files
 * directly, not through the NFS file system: the handle table never saw the transaction's changes (they
 * waited in its TXN buffer), and every object is put back as the same inode (removed files and directories
 * were kept in the backup directory, not destroyed), so putting the files back is enough to make the two
 * agree again.
 *
 * <p><b>Idempotence.</b> Every step checks before it acts (DESIGN.md, the proto's comments): an object is
 * touched only if it is still the one the step names (file id), a name is re-created only if it is free,
 * a backup is moved back only if it is there. So a step may run again, or run for an operation that never
 * ran, without harm. A sequence of namespace steps that reuse one name is not idempotent as a whole, so
 * after such a step the executor has the caller persist its progress ({@link Progress}) before it goes on.
 *
 * <p><b>Durability.</b> Files and directories the undo changed are fsynced before {@link #undo} returns;
 * the caller then deletes the record.
 *
 * <p>Thread-safe if the callers undo different transactions (no shared mutable state); the objects a
 * record names must be locked (online) or unreachable (recovery runs before the server serves).
 */
public final class UndoExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(UndoExecutor.class);

    /** Persists a record's undo progress durably (the record with a new {@code undoneSteps}). */
    @FunctionalInterface
    public interface Progress {
        void save(RecoveryRecord record) throws IOException;
    }

    /**
     * What an undo did.
     *
     * @param undone steps undone in this run
     * @param skipped of those, steps that found nothing to do (their operation had not run, or was undone)
     */
    public record Result(int undone, int skipped) {
    }

    private final Path root;
    private final BackupStore backups;
    private final CrashPoints crashPoints;
    private final String crashPrefix;

    /**
     * @param root the export's local root directory
     * @param backups the export's backup area (for cloning saved ranges back)
     * @param crashPoints crash injection; {@link CrashPoints#NONE} in production
     * @param crashPrefix prefix of this executor's crash points ({@code mid-undo-} or {@code mid-recovery-})
     */
    public UndoExecutor(Path root, BackupStore backups, CrashPoints crashPoints, String crashPrefix) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath();
        this.backups = Objects.requireNonNull(backups, "backups");
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
        this.crashPrefix = Objects.requireNonNull(crashPrefix, "crashPrefix");
    }

    /**
     * Undoes the record's pending steps, last to first, then makes the result durable.
     *
     * @param record the transaction's record (its {@link RecoveryRecord#undoneSteps()} are skipped)
     * @param progress persists progress after a step whose replay would be unsafe
     * @return what was done
     * @throws IOException if a step cannot be undone; the record's progress up to there is saved
     */
    public Result undo(RecoveryRecord record, Progress progress) throws IOException {
        List<UndoStep> steps = record.steps();
        Path backupDir = backupDirectory(record);
        BackupManager manager = backups.forTransaction(Long.toString(record.txnId()));
        Touched touched = new Touched();
        int done = record.undoneSteps();
        int undone = 0;
        int skipped = 0;
        for (int i = steps.size() - 1 - done; i >= 0; i--) {
            UndoStep step = steps.get(i);
            crashPoints.reach(crashPrefix, undone + 1);
            boolean acted = apply(step, backupDir, manager, touched);
            undone++;
            done++;
            if (!acted) {
                skipped++;
            }
            if (acted && isNamespaceStep(step) && sharesAName(step, steps.subList(0, i))) {
                touched.sync();
                progress.save(record.withUndoneSteps(done));
            }
        }
        touched.sync();
        LOG.debug("txn {}: undid {} steps ({} had nothing to do)", record.txnId(), undone, skipped);
        return new Result(undone, skipped);
    }

    /** The record's backup directory, absolute. */
    public Path backupDirectory(RecoveryRecord record) {
        return record.backupDirectory().map(d -> root.resolve(d).normalize())
                .orElse(backups.root().resolve(Long.toString(record.txnId())));
    }

    // ---- the steps -----------------------------------------------------------------------------------------

    /** Undoes one step; whether it acted (false: it found nothing to do). */
    private boolean apply(UndoStep step, Path backupDir, BackupManager manager, Touched touched) throws IOException {
        return step.accept(new UndoStep.Visitor<Boolean, IOException>() {
            @Override
            public Boolean restoreRanges(UndoStep.RestoreRanges s) throws IOException {
                return UndoExecutor.this.restoreRanges(s, backupDir, manager, touched);
            }

            @Override
            public Boolean restoreSize(UndoStep.RestoreSize s) throws IOException {
                Optional<Path> file = regularFileOf(s.target());
                if (file.isEmpty()) {
                    return false;
                }
                setSize(file.get(), s.oldSize());
                touched.files.add(file.get());
                return true;
            }

            @Override
            public Boolean restoreAttributes(UndoStep.RestoreAttributes s) throws IOException {
                Optional<Path> object = objectOf(s.target());
                if (object.isEmpty()) {
                    return false;
                }
                setAttributes(object.get(), s.old());
                touched.files.add(object.get());
                return true;
            }

            @Override
            public Boolean removeCreated(UndoStep.RemoveCreated s) throws IOException {
                return UndoExecutor.this.removeCreated(s, touched);
            }

            @Override
            public Boolean unlinkLink(UndoStep.UnlinkLink s) throws IOException {
                Optional<Path> link = objectOf(s.link());
                if (link.isEmpty() || Files.isDirectory(link.get(), LinkOption.NOFOLLOW_LINKS)) {
                    return false;
                }
                Files.delete(link.get());
                touched.dirs.add(link.get().getParent());
                return true;
            }

            @Override
            public Boolean moveBack(UndoStep.MoveBack s) throws IOException {
                return UndoExecutor.this.moveBack(under(backupDir, s.backup()), local(s.original().path()), touched);
            }

            @Override
            public Boolean renameBack(UndoStep.RenameBack s) throws IOException {
                return UndoExecutor.this.renameBack(s, backupDir, touched);
            }
        });
    }

    private boolean restoreRanges(UndoStep.RestoreRanges s, Path backupDir, BackupManager manager, Touched touched)
            throws IOException {
        Optional<Path> found = regularFileOf(s.target());
        if (found.isEmpty()) {
            return false;
        }
        Path file = found.get();
        setSize(file, s.oldSize());
        for (SavedRange range : s.ranges()) {
            if (range.source() instanceof SavedRange.Backup b) {
                if (b.fileOffset() != range.offset()) {
                    throw new IOException("backup extent of " + s.target().path() + " at " + b.fileOffset()
                            + " is not at the range's own offset " + range.offset());
                }
                manager.restoreRange(new RangeBackup(file, range.offset(), range.length(), s.oldSize(),
                        under(backupDir, b.file()), RangeBackup.Method.CLONED));
            } else if (range.source() instanceof SavedRange.Inline inline) {
                writeAt(file, range.offset(), inline.data());
            } else if (range.source() instanceof SavedRange.Hole) {
                manager.restoreHole(file, range.offset(), range.length());
            }
        }
        touched.files.add(file);
        return true;
    }

    private boolean removeCreated(UndoStep.RemoveCreated s, Touched touched) throws IOException {
        Path path = local(s.target().path());
        Optional<ObjectKind> kind = kindAt(path);
        if (kind.isEmpty() || kind.get() != s.kind() || !identityMatches(s.target(), path)) {
            return false;
        }
        try {
            Files.delete(path);
        } catch (DirectoryNotEmptyException e) {
            throw new IOException("cannot remove created directory " + s.target().path()
                    + ": it is not empty (an entry the transaction did not create?)", e);
        }
        touched.dirs.add(path.getParent());
        return true;
    }

    private boolean moveBack(Path backup, Path original, Touched touched) throws IOException {
        if (!exists(backup)) {
            return false;
        }
        if (exists(original) && Files.isDirectory(backup, LinkOption.NOFOLLOW_LINKS)
                && Files.isDirectory(original, LinkOption.NOFOLLOW_LINKS) && isEmptyDirectory(original)) {
            // the empty stand-in a moved-aside directory left for its operation, which did not run or failed
            Files.delete(original);
        }
        if (exists(original)) {
            return false;
        }
        Files.move(backup, original, StandardCopyOption.ATOMIC_MOVE);
        touched.dirs.add(original.getParent());
        touched.dirs.add(backup.getParent());
        return true;
    }

    private boolean renameBack(UndoStep.RenameBack s, Path backupDir, Touched touched) throws IOException {
        Path from = local(s.from().path());
        Path to = local(s.to().path());
        boolean acted = false;
        if (exists(to) && !exists(from) && s.from().fileId().isPresent()
                && fileIdOf(to).equals(s.from().fileId())) {
            Files.move(to, from, StandardCopyOption.ATOMIC_MOVE);
            touched.dirs.add(from.getParent());
            touched.dirs.add(to.getParent());
            acted = true;
        } else if (isSecondLink(from, to, s.from().fileId())) {
            // a power cut kept the rename's new entry but not the removal of the old one (each end of a rename
            // between directories is durable with its own directory's fsync, in strict POSIX): the object is
            // back at its old name already, the new name goes (the commit syncs targets first, so never neither)
            Files.delete(to);
            touched.dirs.add(to.getParent());
            acted = true;
        }
        if (s.keptTargetBackup().isPresent()) {
            acted |= moveBack(under(backupDir, s.keptTargetBackup().get()), to, touched);
        }
        return acted;
    }

    /**
     * Whether {@code from} and {@code to} are two links to the renamed non-directory {@code fileId}: before
     * the rename {@code to} was free or held another object (kept in the backup directory), so a second link
     * there is the rename's half-durable new entry.
     */
    private static boolean isSecondLink(Path from, Path to, OptionalLong fileId) throws IOException {
        return fileId.isPresent() && exists(from) && exists(to)
                && !Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)
                && fileIdOf(from).equals(fileId) && fileIdOf(to).equals(fileId);
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** Whether the step changes names (so replaying it after an earlier step's undo could be unsafe). */
    private static boolean isNamespaceStep(UndoStep step) {
        return step.accept(StepFacts.INSTANCE).namespace();
    }

    /**
     * Whether a path of {@code step} is also a path of one of {@code earlier}. Restored attributes do not
     * count: they check the object's identity, so replaying them is harmless (a removed file's restored
     * times would otherwise cost every undone REMOVE a durable progress record).
     */
    private static boolean sharesAName(UndoStep step, List<UndoStep> earlier) {
        Set<RelativePath> mine = new HashSet<>(pathsOf(step));
        for (UndoStep other : earlier) {
            Facts facts = other.accept(StepFacts.INSTANCE);
            if (!facts.replayUnsafeAfterward()) {
                continue;
            }
            for (RelativePath p : facts.paths()) {
                if (mine.contains(p)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<RelativePath> pathsOf(UndoStep step) {
        return step.accept(StepFacts.INSTANCE).paths();
    }

    /**
     * What the executor's bookkeeping needs of a step: the paths it names, whether it changes names, and whether
     * replaying it after a later step's undo at one of its paths could be unsafe ({@link #sharesAName}).
     *
     * @param paths the paths the step names
     * @param namespace whether undoing it changes names (rather than data or attributes)
     * @param replayUnsafeAfterward false for restored attributes: they check the object's identity, so
     *     replaying them is harmless
     */
    private record Facts(List<RelativePath> paths, boolean namespace, boolean replayUnsafeAfterward) {
        Facts(List<RelativePath> paths, boolean namespace) {
            this(paths, namespace, true);
        }
    }

    /** The {@link Facts} of each kind of step. */
    private enum StepFacts implements UndoStep.Visitor<Facts, RuntimeException> {
        INSTANCE;

        @Override
        public Facts restoreRanges(UndoStep.RestoreRanges s) {
            return new Facts(List.of(s.target().path()), false);
        }

        @Override
        public Facts restoreSize(UndoStep.RestoreSize s) {
            return new Facts(List.of(s.target().path()), false);
        }

        @Override
        public Facts restoreAttributes(UndoStep.RestoreAttributes s) {
            return new Facts(List.of(s.target().path()), false, false);
        }

        @Override
        public Facts removeCreated(UndoStep.RemoveCreated s) {
            return new Facts(List.of(s.target().path()), true);
        }

        @Override
        public Facts unlinkLink(UndoStep.UnlinkLink s) {
            return new Facts(List.of(s.link().path()), true);
        }

        @Override
        public Facts moveBack(UndoStep.MoveBack s) {
            return new Facts(List.of(s.original().path()), true);
        }

        @Override
        public Facts renameBack(UndoStep.RenameBack s) {
            return new Facts(List.of(s.from().path(), s.to().path()), true);
        }
    }

    private Path local(RelativePath p) {
        return under(root, p);
    }

    private static Path under(Path base, RelativePath p) {
        Path path = base;
        for (String name : p.components()) {
            path = path.resolve(name);
        }
        return path;
    }

    /** The object at the reference's path, if something is there and it is the referenced one. */
    private Optional<Path> objectOf(ObjectRef ref) throws IOException {
        Path path = local(ref.path());
        if (!exists(path) || !identityMatches(ref, path)) {
            return Optional.empty();
        }
        return Optional.of(path);
    }

    private Optional<Path> regularFileOf(ObjectRef ref) throws IOException {
        return objectOf(ref).filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS));
    }

    private static boolean identityMatches(ObjectRef ref, Path path) throws IOException {
        return ref.fileId().isEmpty() || fileIdOf(path).equals(ref.fileId());
    }

    /** The inode number of what is at {@code path}, or empty if nothing is. */
    public static OptionalLong fileIdOf(Path path) throws IOException {
        try {
            Object ino = Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
            return OptionalLong.of(((Number) ino).longValue());
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The kind of what is at {@code path} (a symbolic link is not followed), or empty if nothing can be read there (as
     * {@link Files#exists}: also when a component of the path is no directory).
     */
    public static Optional<ObjectKind> kindAt(Path path) {
        try {
            return Optional.of(kindOf((Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The kind of object a {@code st_mode} (type bits and permissions) describes. */
    public static ObjectKind kindOf(int mode) {
        return switch (mode & 0170000) {
            case 0120000 -> ObjectKind.SYMLINK;
            case 0040000 -> ObjectKind.DIRECTORY;
            case 0100000 -> ObjectKind.REGULAR;
            case 0060000 -> ObjectKind.BLOCK;
            case 0020000 -> ObjectKind.CHAR;
            case 0140000 -> ObjectKind.SOCKET;
            default -> ObjectKind.FIFO;
        };
    }

    /** Whether directory {@code dir} has no entries. */
    public static boolean isEmptyDirectory(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static boolean exists(Path path) {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }

    private static void setSize(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            long current = ch.size();
            if (size < current) {
                ch.truncate(size);
            } else if (size > current) {
                ch.write(ByteBuffer.allocate(1), size - 1);
            }
        }
    }

    private static void writeAt(Path file, long offset, byte[] data) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(data);
            long at = offset;
            while (buffer.hasRemaining()) {
                at += ch.write(buffer, at);
            }
        }
    }

    private static void setAttributes(Path path, Attributes old) throws IOException {
        boolean symlink = Files.isSymbolicLink(path);
        if (old.uid().isPresent()) {
            Files.setAttribute(path, "unix:uid", old.uid().getAsInt(), LinkOption.NOFOLLOW_LINKS);
        }
        if (old.gid().isPresent()) {
            Files.setAttribute(path, "unix:gid", old.gid().getAsInt(), LinkOption.NOFOLLOW_LINKS);
        }
        if (old.mode().isPresent() && !symlink) {
            Files.setAttribute(path, "unix:mode", old.mode().getAsInt());
        }
        if (old.size().isPresent() && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            setSize(path, old.size().getAsLong());
        }
        if (old.atime().isPresent() || old.mtime().isPresent()) {
            setTimes(path, old.atime(), old.mtime());
        }
    }

    /** {@code UTIME_OMIT}: utimensat leaves that time as it is. */
    private static final long UTIME_OMIT = (1L << 30) - 2;
    private static final int AT_FDCWD = -100;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;

    /**
     * Sets the access and modification times of {@code path} itself with {@code utimensat(2)}, which does not open
     * it: {@link BasicFileAttributeView#setTimes} opens the object first, and an open of a FIFO for reading waits
     * for a writer (for ever: the rollback, its locks and the server's shutdown with it), an open of a device node
     * opens the device.
     */
    private static void setTimes(Path path, Optional<java.time.Instant> atime, Optional<java.time.Instant> mtime)
            throws IOException {
        jnr.posix.POSIX posix = Native.POSIX;
        if (posix.utimensat(AT_FDCWD, path.toString(), timespec(atime), timespec(mtime), AT_SYMLINK_NOFOLLOW) < 0) {
            int errno = posix.errno();
            if (errno == jnr.constants.platform.Errno.ENOENT.intValue()) {
                throw new NoSuchFileException(path.toString());
            }
            throw new IOException("utimensat " + path + ": " + jnr.constants.platform.Errno.valueOf(errno));
        }
    }

    /**
     * Deletes what a transaction kept in its backup directory (a victim moved or linked there) with one {@code
     * unlink(2)} or {@code rmdir(2)}, as its kind says, without the {@code lstat} {@link Files#delete} makes first.
     * Whether it was deleted: false if nothing is there, or something that is not of that kind, or a directory that
     * is not empty (left for the backup cleaner).
     */
    public static boolean deleteKept(Path path, boolean directory) throws IOException {
        jnr.posix.POSIX posix = Native.POSIX;
        String name = path.toString();
        // libc's own calls: jnr-posix's POSIX methods throw on an error instead of returning it
        if ((directory ? posix.libc().rmdir(name) : posix.libc().unlink(name)) == 0) {
            return true;
        }
        int errno = posix.errno();
        if (errno == jnr.constants.platform.Errno.ENOENT.intValue()
                || errno == jnr.constants.platform.Errno.ENOTEMPTY.intValue()
                || errno == jnr.constants.platform.Errno.EEXIST.intValue()
                || errno == jnr.constants.platform.Errno.EISDIR.intValue()
                || errno == jnr.constants.platform.Errno.ENOTDIR.intValue()) {
            return false;
        }
        throw new IOException((directory ? "rmdir " : "unlink ") + path + ": "
                + jnr.constants.platform.Errno.valueOf(errno));
    }

    private static long[] timespec(Optional<java.time.Instant> time) {
        return time.map(t -> new long[] {t.getEpochSecond(), t.getNano()}).orElse(new long[] {0, UTIME_OMIT});
    }

    /** The native POSIX calls, made when first needed. */
    private static final class Native {
        static final jnr.posix.POSIX POSIX = jnr.posix.POSIXFactory.getNativePOSIX();
    }

    /** Files and directories an undo changed, fsynced in one pass. */
    private static final class Touched {
        final Set<Path> files = new LinkedHashSet<>();
        final Set<Path> dirs = new LinkedHashSet<>();

        void sync() throws IOException {
            for (Path file : files) {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    force(file);
                }
            }
            for (Path dir : dirs) {
                if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    force(dir);
                }
            }
            files.clear();
            dirs.clear();
        }

        private static void force(Path path) throws IOException {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                ch.force(true);
            } catch (NoSuchFileException e) {
                // gone again since: nothing to make durable
            }
        }
    }
}
