package org.tcnfs.txn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.proto.Attributes;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.RangeBackup;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * Turns the plan's mutations into undo steps, saving first what each would destroy (DESIGN.md step 4):
 * the overwritten ranges of WRITE and truncation (inline in the record when small, else cloned or copied
 * into the transaction's backup directory), the attributes SETATTR changes, the victim of a REMOVE or of a
 * replacing RENAME (kept in the backup directory: see {@link #keep}), the times of a removed directory. Nothing is
 * saved for objects the compound created, nor for data past the old end of file.
 *
 * <p>It looks at each object where a {@code locate} function says the object is now: before the compound
 * runs (all at once, at the objects' origins) or right before the operation (at their current paths). The
 * steps always name the paths the operation itself sees, which is where undo, running in reverse, finds
 * the objects.
 *
 * <p>One instance per transaction; not thread-safe.
 */
final class UndoPreparer {
    /** Largest range kept inside the record instead of a backup file. */
    static final int INLINE_MAX = 16 * 1024;
    /** Most bytes one record carries inline. */
    static final int INLINE_BUDGET = 1 << 20;

    private static final int FATTR4_MODE = 33;
    private static final int FATTR4_OWNER = 36;
    private static final int FATTR4_OWNER_GROUP = 37;
    private static final int FATTR4_TIME_ACCESS_SET = 48;
    private static final int FATTR4_TIME_MODIFY_SET = 54;

    private final Path root;
    private final BackupManager backups;
    /**
     * Whether the export's REMOVE moves its victim into a place given for it (VirtualFileSystem.removesIntoPlace),
     * asked when a REMOVE is prepared.
     */
    private final BooleanSupplier removesIntoPlace;
    /** Objects the compound created (no backups needed for them), at their latest paths. */
    private final Set<ObjectPath> created = new HashSet<>();
    /** Names the compound made (by creating or linking) whose undo step exists already. */
    private final Set<ObjectPath> named = new HashSet<>();
    private final java.util.Map<Integer, List<Swap>> swaps = new java.util.HashMap<>();
    /** What the compound's REMOVEs and RENAMEs keep in the backup directory, with whether each is a directory. */
    private final List<Kept> keptBackups = new ArrayList<>();
    private final Set<ObjectPath> touchedFiles = new java.util.LinkedHashSet<>();
    private final Set<ObjectPath> touchedDirs = new java.util.LinkedHashSet<>();
    /** Of {@link #touchedDirs}, those a RENAME from another directory added an entry to. */
    private final Set<ObjectPath> renameTargetDirs = new java.util.LinkedHashSet<>();
    /** Directories whose access and modification times a step restores already, at their latest paths. */
    private final Set<ObjectPath> timesSaved = new HashSet<>();
    /**
     * The device ({@code st_dev}) each directory of {@link #touchedDirs} was on when its first change of entries was
     * prepared, by its latest path, from the {@code lstat} that saved its times (a directory the compound created: its
     * parent's); none for a directory a RENAME moved or replaced since (see {@link #deviceOf}). Bounded by the
     * directories the compound names.
     */
    private final Map<ObjectPath, Long> devices = new java.util.HashMap<>();
    /**
     * Files an earlier REMOVE of the compound took away, by the name they had: they stay reachable by handle
     * while a client holds them open, and undo finds them at their kept link in the backup directory (the
     * REMOVE's own undo moves them back only after the later steps are undone).
     */
    private final java.util.Map<ObjectPath, KeptVictim> keptVictims = new java.util.HashMap<>();
    /** Whether {@link #keep} made sure the backup directory exists (once per transaction, not per victim). */
    private boolean backupDirectoryExists;
    /**
     * What {@code lstat} found at local paths before the compound's first operation, by path (empty: nothing there),
     * so that the budget check ({@link #regularFile}) and the preparation up front look at each name once (a new file
     * of an OPEN that creates and a WRITE was looked at three times); null from {@link #operationsMayRun} on, when an
     * operation of the compound may have changed what a name holds. Bounded by the names the compound's mutations
     * name; a change made out of band in the moment between the two looks is seen as if made right after the second.
     */
    private Map<Path, Optional<BasicFileAttributes>> beforeOperations = new java.util.HashMap<>();
    /** The compound's last change of directory entries prepared so far ({@link #lastEntryChange}), or null. */
    private EntryChange lastEntryChange;
    private int inlineBytes;

    /**
     * @param root the export's root
     * @param backups the transaction's backups
     * @param removesIntoPlace whether the export's file system renames a REMOVE's victim into a place given for it
     *     ({@code VirtualFileSystem.removesIntoPlace}): a removed non-directory is then kept by that rename, not by a
     *     hard link made now
     */
    UndoPreparer(Path root, BackupManager backups, BooleanSupplier removesIntoPlace) {
        this.root = root;
        this.backups = backups;
        this.removesIntoPlace = removesIntoPlace;
    }

    /** Regular files whose data the compound changed, at their latest known paths. */
    Set<ObjectPath> touchedFiles() {
        return touchedFiles;
    }

    /** Directories whose entries the compound changed, at their latest known paths. */
    Set<ObjectPath> touchedDirs() {
        return touchedDirs;
    }

    /**
     * Of {@link #touchedDirs()}, the directories a RENAME from another directory added an entry to: the
     * commit makes them durable before the others (docs/durability.md, "Strict renames"), so that a power
     * cut never keeps the removal of a renamed object's old entry without its new one (on a file system that
     * does not journal a rename as one transaction). Undo drops the other half-durable outcome, an object
     * under both names.
     */
    Set<ObjectPath> renameTargetDirs() {
        return renameTargetDirs;
    }

    /**
     * The device the directory {@code dir} of {@link #touchedDirs()} was on when the compound's first change of its
     * entries was prepared (under the compound's locks, so before that change; no process moves a directory to another
     * device, as a rename cannot cross file systems), or empty where no preparation looked at it: the commit asks it
     * instead of looking at each directory again ({@link TransactionSteps}, "One log force per compound").
     */
    OptionalLong deviceOf(ObjectPath dir) {
        Long dev = devices.get(dir);
        return dev == null ? OptionalLong.empty() : OptionalLong.of(dev);
    }

    /**
     * The compound's last change of directory entries, of the mutations prepared so far, in the order of its
     * operations: the directory it changed (for a RENAME the target's, which the same file-system transaction logs
     * with the source's) and the regular file it created, if it created one. Empty when nothing prepared changes an
     * entry. A mutation counts unless it certainly changes no entry: an OPEN of a name that exists (or that an
     * earlier operation of the compound made) and a RENAME of a name onto itself or onto another link to the same
     * file; every other one that the compound commits after has changed its entry (a REMOVE or LINK that finds
     * nothing to do fails, and so does its transaction). The commit syncs only this directory, or only that file,
     * where the file system logs in order ({@link TransactionSteps}, docs/durability.md "One log force per
     * compound").
     */
    Optional<EntryChange> lastEntryChange() {
        return Optional.ofNullable(lastEntryChange);
    }

    /**
     * A change of the entries of {@code directory} by operation {@code op}, which also created the regular file
     * {@code createdFile} (empty when it created none).
     */
    record EntryChange(int op, ObjectPath directory, Optional<ObjectPath> createdFile) {
    }

    /** Notes a change of entries of {@code object}'s parent directory by operation {@code op}. */
    private void entryChanged(int op, ObjectPath object, Optional<ObjectPath> createdFile) {
        Optional<ObjectPath> parent = object.parent();
        if (parent.isPresent() && (lastEntryChange == null || op >= lastEntryChange.op())) {
            lastEntryChange = new EntryChange(op, parent.get(), createdFile);
        }
    }

    /**
     * Steps for one mutation.
     *
     * @param m the mutation
     * @param locate where the object an {@link ObjectRef} names is when the steps are prepared, or empty if
     *     it cannot exist yet
     */
    List<UndoStep> stepsFor(Mutation m, Function<ObjectRef, Optional<ObjectPath>> locate) throws IOException {
        List<UndoStep> steps = new ArrayList<>(2);
        m.accept(new Preparation(steps, m.opIndex(), locate));
        return steps;
    }

    /**
     * How the undo of each kind of mutation is prepared: one method per kind, which the compiler requires
     * ({@link Mutation.Visitor}). Each adds the steps of one mutation to {@code steps}.
     */
    private final class Preparation implements Mutation.Visitor<Void, IOException> {
        private final List<UndoStep> steps;
        private final int op;
        private final Function<ObjectRef, Optional<ObjectPath>> locate;

        Preparation(List<UndoStep> steps, int op, Function<ObjectRef, Optional<ObjectPath>> locate) {
            this.steps = steps;
            this.op = op;
            this.locate = locate;
        }

        @Override
        public Void write(Mutation.Write w) throws IOException {
            touchedFiles.add(w.file().path());
            KeptVictim kept = keptVictims.get(w.file().path());
            Optional<Path> file = kept != null ? kept.file() : existingFile(locate.apply(w.file()));
            if (file.isPresent()) {
                saveBytes(steps, op, kept != null ? kept.relative() : relative(w.file().path()), file.get(),
                        w.offset(), w.end());
            }
            return null;
        }

        @Override
        public Void sizeChange(Mutation.SizeChange s) throws IOException {
            touchedFiles.add(s.file().path());
            KeptVictim kept = keptVictims.get(s.file().path());
            Optional<Path> file = kept != null ? kept.file() : existingFile(locate.apply(s.file()));
            if (file.isPresent()) {
                saveBytes(steps, op, kept != null ? kept.relative() : relative(s.file().path()), file.get(),
                        s.newSize(), Long.MAX_VALUE);
            }
            return null;
        }

        @Override
        public Void attributeChange(Mutation.AttributeChange a) throws IOException {
            KeptVictim kept = keptVictims.get(a.object().path());
            Optional<Path> object = kept != null ? kept.file() : existing(locate.apply(a.object()));
            if (object.isPresent()) {
                PosixFileAttributes now = attributes(object.get());
                Attributes old = Attributes.NONE;
                if (a.sets(FATTR4_MODE)) {
                    old = old.withMode(mode(object.get()));
                }
                if (a.sets(FATTR4_OWNER)) {
                    old = old.withUid(((Number) Files.getAttribute(object.get(), "unix:uid",
                            LinkOption.NOFOLLOW_LINKS)).intValue());
                }
                if (a.sets(FATTR4_OWNER_GROUP)) {
                    old = old.withGid(((Number) Files.getAttribute(object.get(), "unix:gid",
                            LinkOption.NOFOLLOW_LINKS)).intValue());
                }
                if (a.sets(FATTR4_TIME_ACCESS_SET)) {
                    old = old.withAtime(now.lastAccessTime().toInstant());
                }
                if (a.sets(FATTR4_TIME_MODIFY_SET)) {
                    old = old.withMtime(now.lastModifiedTime().toInstant());
                }
                if (!old.isEmpty()) {
                    steps.add(new UndoStep.RestoreAttributes(op, ref(kept != null ? kept.relative()
                            : relative(a.object().path()), object.get()), old));
                }
            }
            touchedFiles.add(a.object().path());
            return null;
        }

        @Override
        public Void creation(Mutation.Creation c) throws IOException {
            ObjectPath p = c.object().path();
            Optional<ObjectPath> at = locate.apply(c.object()).or(() -> Optional.of(p));
            // A name an earlier operation of the compound made is undone by that operation's own step: a second
            // step without identity would remove what the earlier one made (a LINK's new name, say) too early.
            if (!named.contains(p) && existing(at).isEmpty()) {
                saveDirectoryTimes(steps, op, p.parent());
                if (c.type() == FileType.DIRECTORY) {
                    p.parent().map(devices::get).ifPresent(dev -> devices.put(p, dev)); // made on its parent's
                }
                keptVictims.remove(p);
                created.add(p);
                named.add(p);
                steps.add(new UndoStep.RemoveCreated(op, refAt(p), kind(c.type())));
                entryChanged(op, p, c.type() == FileType.REGULAR ? Optional.of(p) : Optional.empty());
            }
            touchedFiles.add(p);
            p.parent().ifPresent(touchedDirs::add);
            return null;
        }

        @Override
        public Void hardLink(Mutation.HardLink l) throws IOException {
            ObjectPath p = l.newName().path();
            if (!named.contains(p) && existing(Optional.of(p)).isEmpty()) {
                saveDirectoryTimes(steps, op, p.parent());
                keptVictims.remove(p);
                named.add(p);
                Optional<Path> source = existing(locate.apply(l.source()));
                OptionalLong id = source.isPresent() ? UndoExecutor.fileIdOf(source.get()) : OptionalLong.empty();
                steps.add(new UndoStep.UnlinkLink(op, new org.tcnfs.proto.ObjectRef(relative(p),
                        Optional.empty(), id)));
            }
            entryChanged(op, p, Optional.empty());
            p.parent().ifPresent(touchedDirs::add);
            return null;
        }

        @Override
        public Void removal(Mutation.Removal r) throws IOException {
            ObjectPath p = r.object().path();
            // Only a name the victim already had where it is looked for is kept: a victim reached by a name
            // the compound gave it (LINK) loses only that name, which the LINK's own undo accounts for.
            Optional<Path> victim = locate.apply(r.object()).filter(x -> x.equals(p))
                    .filter(x -> !created.contains(x)).map(UndoPreparer.this::local);
            Optional<Lstat> found = victim.isPresent() ? Lstat.of(victim.get()) : Optional.empty();
            if (found.isPresent() && !p.isRoot()) {
                saveDirectoryTimes(steps, op, p.parent());
                if (found.get().kind() == ObjectKind.DIRECTORY) {
                    // a non-directory keeps its times through a link or a rename (and its own later changes in
                    // the compound save them again); a directory moved aside leaves a stand-in
                    saveTimes(steps, op, p, found.get());
                }
                UndoStep.MoveBack kept = keep(op, p, victim.get(), found.get(), "rm-" + op,
                        removesIntoPlace.getAsBoolean());
                steps.add(kept);
                if (kept.kind() == ObjectKind.REGULAR) {
                    Path link = backups.directory().resolve(kept.backup().components().get(0));
                    Path relative = root.toAbsolutePath().relativize(link.toAbsolutePath());
                    if (!relative.startsWith("..")) {
                        List<String> names = new ArrayList<>();
                        relative.forEach(n -> names.add(n.toString()));
                        keptVictims.put(p, new KeptVictim(new RelativePath(names), link, victim.get()));
                    }
                }
            }
            created.remove(p);
            named.remove(p);
            entryChanged(op, p, Optional.empty());
            p.parent().ifPresent(touchedDirs::add);
            return null;
        }

        @Override
        public Void rename(Mutation.Rename r) throws IOException {
            prepareRename(steps, r, locate);
            return null;
        }
    }

    private void prepareRename(List<UndoStep> steps, Mutation.Rename r,
            Function<ObjectRef, Optional<ObjectPath>> locate) throws IOException {
        ObjectPath from = r.source().path();
        ObjectPath to = r.target().path();
        devices.keySet().removeIf(p -> p.isWithin(from) || p.isWithin(to)); // the commit looks at these again
        from.parent().ifPresent(touchedDirs::add);
        to.parent().ifPresent(touchedDirs::add);
        if (!from.parent().equals(to.parent())) {
            to.parent().ifPresent(renameTargetDirs::add);
        }
        Optional<Path> source = existing(locate.apply(r.source()));
        if (from.equals(to) || source.isEmpty()) {
            return;
        }
        Optional<Path> target = locate.apply(r.target()).map(this::local);
        Optional<Lstat> targetFound = target.isPresent() ? Lstat.of(target.get()) : Optional.empty();
        if (targetFound.isPresent()
                && UndoExecutor.fileIdOf(source.get()).equals(OptionalLong.of(targetFound.get().ino()))) {
            // two links to one file: the RENAME changes nothing (RFC 8881 18.26.4, rename(2)), nor does its undo
            return;
        }
        entryChanged(r.opIndex(), to, Optional.empty());
        Optional<RelativePath> kept = Optional.empty();
        saveDirectoryTimes(steps, r.opIndex(), from.parent());
        saveDirectoryTimes(steps, r.opIndex(), to.parent());
        if (targetFound.isPresent()) {
            saveTimes(steps, r.opIndex(), to, targetFound.get());
            UndoStep.MoveBack keep = keep(r.opIndex(), to, target.get(), targetFound.get(), "mv-" + r.opIndex(),
                    false);
            kept = Optional.of(keep.backup());
        }
        steps.add(new UndoStep.RenameBack(r.opIndex(), ref(from, source.get()), refAt(to), kept));
        created.removeIf(p -> p.isWithin(to));
        named.removeIf(p -> p.isWithin(to));
        rebase(created, from, to);
        rebase(named, from, to);
        rebase(touchedFiles, from, to);
        rebase(touchedDirs, from, to);
        rebase(renameTargetDirs, from, to);
        rebase(timesSaved, from, to);
        keptVictims.keySet().removeIf(p -> p.isWithin(from) || p.isWithin(to));
    }

    /**
     * A file an earlier REMOVE took away: where it is kept in the backup directory (relative to the export root, and
     * local), and the name it had. The steps name the kept place, where undo finds the file; a preparation before the
     * REMOVE ran (up front, when the REMOVE itself is to move the file there) reads it at its name.
     */
    private record KeptVictim(RelativePath relative, Path link, Path original) {
        Optional<Path> file() {
            return Optional.of(link).filter(x -> Files.isRegularFile(x, LinkOption.NOFOLLOW_LINKS))
                    .or(() -> Optional.of(original).filter(x -> Files.isRegularFile(x, LinkOption.NOFOLLOW_LINKS)));
        }
    }

    /**
     * Before the first step that changes the entries of directory {@code dir}: a step that puts back its
     * access and modification times. Undo runs the steps last to first, so this one runs after every
     * other undo step of the compound in that directory, whose own moves and removals change those times
     * again. Nothing for a directory the compound created (its undo removes it).
     */
    private void saveDirectoryTimes(List<UndoStep> steps, int op, Optional<ObjectPath> dir) throws IOException {
        if (dir.isEmpty() || created.contains(dir.get()) || timesSaved.contains(dir.get())) {
            return;
        }
        Optional<Lstat> found = Lstat.of(local(dir.get()));
        if (found.isPresent() && found.get().kind() == ObjectKind.DIRECTORY) {
            timesSaved.add(dir.get());
            devices.put(dir.get(), found.get().dev());
            saveTimes(steps, op, dir.get(), found.get());
        }
    }

    /**
     * A step that puts back the access and modification times {@code object} has now (not for a symbolic
     * link, whose own times Java cannot set portably).
     */
    private static void saveTimes(List<UndoStep> steps, int op, ObjectPath p, Lstat object) {
        if (object.kind() == ObjectKind.SYMLINK) {
            return;
        }
        steps.add(new UndoStep.RestoreAttributes(op, object.ref(p), Attributes.NONE
                .withAtime(object.atime().toInstant()).withMtime(object.mtime().toInstant())));
    }

    /**
     * What a REMOVE or a replacing RENAME destroys, kept in the backup directory so undo can put the same
     * object back: a non-directory a REMOVE removes where the file system can remove into a place ({@code
     * intoPlace}) by that REMOVE's own rename into the backup directory ({@link #takeSwaps}; no hard link, no unlink,
     * and the link count never rises), any other non-directory by a hard link made now; an (empty) directory by a
     * rename into the backup directory: the REMOVE's own, where the file system can ({@link #takeSwaps}), else one
     * right before the operation runs ({@link #swapBefore}), leaving an empty stand-in with the same owner and mode
     * for the operation to remove or replace.
     */
    private UndoStep.MoveBack keep(int op, ObjectPath p, Path victim, Lstat found, String backupName,
            boolean intoPlace) throws IOException {
        Path dir = backups.directory();
        if (!backupDirectoryExists) {
            Files.createDirectories(dir);
            backupDirectoryExists = true;
        }
        Path kept = dir.resolve(backupName);
        org.tcnfs.proto.ObjectRef ref = found.ref(p);
        if (found.kind() == ObjectKind.DIRECTORY || intoPlace) {
            swaps.computeIfAbsent(op, k -> new ArrayList<>()).add(new Swap(victim, kept, ref.fileId()));
            keptBackups.add(new Kept(kept, found.kind() == ObjectKind.DIRECTORY));
            return new UndoStep.MoveBack(op, ref, found.kind(), RelativePath.of(backupName));
        }
        try {
            Files.createLink(kept, victim);
        } catch (FileAlreadyExistsException e) {
            // left by an earlier preparation of the same operation: replace it
            Files.delete(kept);
            Files.createLink(kept, victim);
        }
        keptBackups.add(new Kept(kept, false));
        return new UndoStep.MoveBack(op, ref, found.kind(), RelativePath.of(backupName));
    }

    /**
     * Moves the empty directories operation {@code op} will remove or replace into the backup directory,
     * leaving stand-ins (see {@link #keep}). Call it after the record naming them is durable. A directory
     * that is not empty any more, or not the one recorded, is left alone: the operation fails on it, or
     * acts on what the record does not describe and undo leaves alone.
     */
    void swapBefore(int op) throws IOException {
        List<Swap> due = swaps.remove(op);
        if (due == null) {
            return;
        }
        for (Swap swap : due) {
            Path victim = swap.victim();
            if (!Files.isDirectory(victim, LinkOption.NOFOLLOW_LINKS)
                    || !UndoExecutor.fileIdOf(victim).equals(swap.fileId()) || !UndoExecutor.isEmptyDirectory(victim)) {
                continue;
            }
            PosixFileAttributes a = attributes(victim);
            int mode = mode(victim);
            Files.move(victim, swap.kept(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.createDirectory(victim);
            Files.setAttribute(victim, "unix:uid", Files.getAttribute(swap.kept(), "unix:uid", LinkOption.NOFOLLOW_LINKS));
            Files.setAttribute(victim, "unix:gid", Files.getAttribute(swap.kept(), "unix:gid", LinkOption.NOFOLLOW_LINKS));
            Files.setAttribute(victim, "unix:mode", mode);
            Files.getFileAttributeView(victim, java.nio.file.attribute.BasicFileAttributeView.class)
                    .setTimes(a.lastModifiedTime(), a.lastAccessTime(), null);
        }
    }

    /**
     * Instead of {@link #swapBefore}, for a REMOVE where the file system removes into a place: the empty directories
     * and non-directories operation {@code op} will remove, each with the place in the backup directory where the
     * REMOVE is to move it (no stand-in, no link: the move is the removal). Empty for an operation that removes none.
     */
    List<Swap> takeSwaps(int op) {
        List<Swap> due = swaps.remove(op);
        return due == null ? List.of() : due;
    }

    /**
     * Deletes what REMOVE and RENAME kept (victims moved or linked into the backup directory) once the transaction
     * committed, so that link counts are right again before the reply; data backups stay for the
     * background cleaner.
     */
    void dropKeptObjects() throws IOException {
        for (Kept kept : keptBackups) {
            // one unlink or rmdir each; a directory that is not empty is left for the background cleaner
            UndoExecutor.deleteKept(kept.path(), kept.directory());
        }
        keptBackups.clear();
    }

    /** An empty directory, or a non-directory a REMOVE moves into its place, to move aside before its operation. */
    record Swap(Path victim, Path kept, OptionalLong fileId) {
    }

    /** A place in the backup directory a REMOVE or RENAME keeps its victim at, and whether that is a directory. */
    private record Kept(Path path, boolean directory) {
    }

    /** Saves bytes {@code [from, to)} of a file (clamped to its size) as a RestoreRanges or RestoreSize step. */
    private void saveBytes(List<UndoStep> steps, int op, RelativePath p, Path file, long from, long to)
            throws IOException {
        long oldSize = Files.size(file);
        org.tcnfs.proto.ObjectRef ref = ref(p, file);
        PosixFileAttributes a = attributes(file);
        steps.add(new UndoStep.RestoreAttributes(op, ref, Attributes.NONE
                .withAtime(a.lastAccessTime().toInstant()).withMtime(a.lastModifiedTime().toInstant())));
        long end = Math.min(to, oldSize);
        if (end <= from) {
            steps.add(new UndoStep.RestoreSize(op, ref, oldSize));
            return;
        }
        long length = end - from;
        long allocated = backups.allocatedBytes(file, from, length);
        SavedRange range;
        if (allocated == 0) {
            range = SavedRange.hole(from, length); // undo punches it again: nothing to save
        } else if (allocated == length && length <= INLINE_MAX && inlineBytes + length <= INLINE_BUDGET) {
            range = SavedRange.inline(from, read(file, from, (int) length));
            inlineBytes += (int) length;
        } else {
            RangeBackup b = backups.backupRange(file, from, length);
            range = SavedRange.inBackup(b.offset(), b.length(),
                    RelativePath.of(b.backupFile().getFileName().toString()), b.offset());
        }
        steps.add(new UndoStep.RestoreRanges(op, ref, oldSize, List.of(range)));
    }

    private static byte[] read(Path file, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buffer.hasRemaining()) {
                int n = ch.read(buffer, offset + buffer.position());
                if (n < 0) {
                    throw new IOException(file + " shrank while being saved");
                }
            }
        }
        return buffer.array();
    }

    private static void rebase(Set<ObjectPath> paths, ObjectPath from, ObjectPath to) {
        List<ObjectPath> moved = paths.stream().filter(p -> p.isWithin(from)).toList();
        moved.forEach(paths::remove);
        moved.forEach(p -> paths.add(p.rebase(from, to)));
    }

    private Optional<Path> existing(Optional<ObjectPath> p) {
        return p.map(this::local).filter(x -> lstat(x).isPresent());
    }

    private Optional<Path> existingFile(Optional<ObjectPath> p) {
        return p.filter(x -> !created.contains(x)).flatMap(this::regularFile);
    }

    /**
     * The local path of {@code p} if a regular file is there now (not following a symbolic link), else empty: for the
     * backup budget's check ({@link BackupManager#checkBudget}) and the preparation, which share what they found
     * before the compound's first operation.
     */
    Optional<Path> regularFile(ObjectPath p) {
        Path path = local(p);
        return lstat(path).filter(BasicFileAttributes::isRegularFile).map(a -> path);
    }

    /**
     * Ends the sharing of what {@code lstat} found ({@link #regularFile}): called before the compound's first
     * operation runs, after which names may hold other objects.
     */
    void operationsMayRun() {
        beforeOperations = null;
    }

    /** The attributes of {@code path} without following a symbolic link, or empty if it cannot be read (gone). */
    private Optional<BasicFileAttributes> lstat(Path path) {
        if (beforeOperations == null) {
            return readAttributes(path);
        }
        return beforeOperations.computeIfAbsent(path, UndoPreparer::readAttributes);
    }

    private static Optional<BasicFileAttributes> readAttributes(Path path) {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    Path local(ObjectPath p) {
        Path path = root;
        for (String name : p.components()) {
            path = path.resolve(name);
        }
        return path;
    }

    private static PosixFileAttributes attributes(Path path) throws IOException {
        return Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private static int mode(Path path) throws IOException {
        return ((Number) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue() & 07777;
    }

    private static org.tcnfs.proto.ObjectRef ref(ObjectPath p, Path local) throws IOException {
        return ref(relative(p), local);
    }

    private static org.tcnfs.proto.ObjectRef ref(RelativePath p, Path local) throws IOException {
        OptionalLong id = UndoExecutor.fileIdOf(local);
        return new org.tcnfs.proto.ObjectRef(p, Optional.empty(), id);
    }

    private static org.tcnfs.proto.ObjectRef refAt(ObjectPath p) {
        return org.tcnfs.proto.ObjectRef.at(relative(p));
    }

    static RelativePath relative(ObjectPath p) {
        return new RelativePath(p.components());
    }

    static ObjectKind kind(FileType type) {
        return switch (type) {
            case REGULAR -> ObjectKind.REGULAR;
            case DIRECTORY -> ObjectKind.DIRECTORY;
            case SYMLINK -> ObjectKind.SYMLINK;
            case BLOCK -> ObjectKind.BLOCK;
            case CHAR -> ObjectKind.CHAR;
            case SOCKET -> ObjectKind.SOCKET;
            default -> ObjectKind.FIFO;
        };
    }

    /**
     * What one {@code lstat} of an object tells the preparation: its inode number, its kind, the times a step puts
     * back and its device ({@link #deviceOf}). The compound holds the object's lock, so what the server does not change
     * stays as read (a local user may still change it out of band, as between any two reads).
     */
    private record Lstat(long ino, int mode, FileTime atime, FileTime mtime, long dev) {
        /** The object at {@code path} (a symbolic link not followed), or empty if nothing can be read there. */
        static Optional<Lstat> of(Path path) throws IOException {
            try {
                Map<String, Object> a = Files.readAttributes(path,
                        "unix:ino,mode,lastAccessTime,lastModifiedTime,dev", LinkOption.NOFOLLOW_LINKS);
                return Optional.of(new Lstat(((Number) a.get("ino")).longValue(), (Integer) a.get("mode"),
                        (FileTime) a.get("lastAccessTime"), (FileTime) a.get("lastModifiedTime"),
                        ((Number) a.get("dev")).longValue()));
            } catch (IOException e) {
                return Optional.empty(); // as Files.exists: gone, or not reachable (a component is no directory)
            }
        }

        ObjectKind kind() {
            return UndoExecutor.kindOf(mode);
        }

        /** A reference to the object at {@code p} with its inode number. */
        org.tcnfs.proto.ObjectRef ref(ObjectPath p) {
            return new org.tcnfs.proto.ObjectRef(relative(p), Optional.empty(), OptionalLong.of(ino));
        }
    }
}
