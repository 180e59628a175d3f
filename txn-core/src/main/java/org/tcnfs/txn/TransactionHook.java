package org.tcnfs.txn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.proto.Attributes;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.RangeBackup;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.Node;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.lock.LockTimeoutException;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.TxnPlan;

/**
 * Runs a COMPOUND sent with the transaction flag (RPC procedure {@code 0x80000001}) all-or-nothing with
 * online rollback, on one export (DESIGN.md, "The transaction protocol"). Compounds without the flag
 * still take the plan's locks (from the first operation after SEQUENCE to the reply; no backups, no
 * record, no undo), so they never see or create half of a transaction; a plain compound the planner
 * cannot plan runs without locks (logged at debug).
 *
 * <p><b>Protocol.</b> At the first operation after SEQUENCE (so a replay never starts a transaction) the
 * compound is planned ({@link CompoundPlanner}); an unplannable compound is refused with NFS4ERR_NOTSUPP
 * before anything ran. The plan's locks are taken all at once (timeout: NFS4ERR_DELAY) and its
 * assumptions re-checked (re-planned up to three times, then NFS4ERR_DELAY). Before each operation, what it
 * will destroy is saved and its undo prepared; the backups are fsynced and the recovery record (LMDB side
 * table {@value #RECORDS_TABLE}, rewritten whole for each mutating operation: one durable LMDB commit per
 * mutating operation, a cost to batch later) is committed before the operation runs. After a successful
 * operation its undo joins the transaction's. When the compound ends:
 * <ul>
 *   <li>NFS4_OK: touched files and directories are fsynced, then the record is deleted in one LMDB commit
 *       (the commit point), the locks released, and the backup directory deleted in the background;</li>
 *   <li>any other status: the undo runs newest first, the touched objects are fsynced, the record deleted,
 *       the locks released; the compound keeps the failing operation's status. If undo fails the compound
 *       answers NFS4ERR_SERVERFAULT and the record stays for recovery (logged at error).</li>
 * </ul>
 *
 * <p><b>How each change is undone</b> (the operations themselves are untouched):
 * <ul>
 *   <li>WRITE, truncation: {@link BackupManager#backupRange} of the existing bytes the change overwrites
 *       (nothing for files the compound created), restored with {@link BackupManager#restoreRange};</li>
 *   <li>SETATTR mode, owner, group, times: the old values, set back through the file system;</li>
 *   <li>CREATE, creating OPEN, LINK: the new name removed through the file system;</li>
 *   <li>REMOVE of a non-directory: a hard link of the victim is made in the backup directory before the
 *       operation, and renamed back to its name by undo; its old handle is registered again, so it stays
 *       valid. Until the background cleaner deletes the backup directory after a commit, the kept link adds
 *       one to the link count of a removed file that has other names.
 *       REMOVE of an (empty) directory: its attributes are saved; undo makes the directory again, sets them
 *       and gives it its old handle;</li>
 *   <li>RENAME: renamed back through the file system; a replaced target is kept as for REMOVE.</li>
 * </ul>
 * Undo goes through the {@link VirtualFileSystem} where it can, so the handle table stays consistent.
 * Open state of a rolled-back OPEN is not released yet (its file is gone).
 *
 * <p><b>Threading.</b> One instance serves all requests; each compound's state lives in its
 * {@link CompoundContext#extension()} and is used on the request's thread only.
 */
public final class TransactionHook implements CompoundHook, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionHook.class);

    /** The side table of the handle table that holds the recovery records, keyed by transaction id. */
    public static final String RECORDS_TABLE = "txn-records";

    /** The transaction flag in the RPC procedure number. */
    public static final int TXN_FLAG = 0x80000000;

    private static final int MAX_PLANS = 3;
    private static final int FATTR4_MODE = 33;
    private static final int FATTR4_OWNER = 36;
    private static final int FATTR4_OWNER_GROUP = 37;
    private static final int FATTR4_TIME_ACCESS_SET = 48;
    private static final int FATTR4_TIME_MODIFY_SET = 54;

    private final VirtualFileSystem fs;
    private final Path root;
    private final String exportId;
    private final HandleTable handles;
    private final SideTable records;
    private final PathResolver resolver;
    private final LockManager locks;
    private final BackupStore backups;
    private final Duration lockTimeout;
    private final CompoundPlanner planner = new CompoundPlanner();
    private final ExecutorService cleaner;
    private final AtomicLong lastTxnId = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong rollbacks = new AtomicLong();
    private final AtomicLong undoFailures = new AtomicLong();

    /**
     * @param fs the export's own file system (not a pseudo file system around it)
     * @param root the export's local directory
     * @param exportId the export's id in the handle table
     * @param handles the handle table, which also holds the recovery records
     * @param locks the lock manager shared by all compounds
     * @param backups the export's backup area (on the export's file system, hidden from clients)
     * @param lockTimeout how long a compound waits for its locks before NFS4ERR_DELAY
     */
    public TransactionHook(VirtualFileSystem fs, Path root, String exportId, HandleTable handles, LockManager locks,
            BackupStore backups, Duration lockTimeout) {
        this.fs = Objects.requireNonNull(fs, "fs");
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath();
        this.exportId = Objects.requireNonNull(exportId, "exportId");
        this.handles = Objects.requireNonNull(handles, "handles");
        this.records = handles.sideTable(RECORDS_TABLE);
        this.resolver = new HandleTableResolver(handles, exportId);
        this.locks = Objects.requireNonNull(locks, "locks");
        this.backups = Objects.requireNonNull(backups, "backups");
        this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
        this.cleaner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tcnfs-backup-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    /** Transactions committed since the start. */
    public long commits() {
        return commits.get();
    }

    /** Transactions rolled back since the start. */
    public long rollbacks() {
        return rollbacks.get();
    }

    /** Rollbacks whose undo failed (their records stay) since the start. */
    public long undoFailures() {
        return undoFailures.get();
    }

    /** Whether {@code procedure} carries the transaction flag. */
    public static boolean isTransactional(int procedure) {
        return (procedure & TXN_FLAG) != 0;
    }

    @Override
    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
        context.setExtension(new Txn(args, isTransactional(context.procedure())));
    }

    @Override
    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
        if (!(context.extension() instanceof Txn txn)) {
            return;
        }
        if (!txn.begun) {
            if (op.argop == nfs_opnum4.OP_SEQUENCE) {
                return;
            }
            txn.begun = true;
            begin(txn);
        }
        if (!txn.transactional || txn.lockSet == null) {
            return;
        }
        if (index >= txn.plan.coveredOps()) {
            throw new ServerFaultException("operation " + index + " runs past the plan's end " + txn.plan.coveredOps());
        }
        prepare(txn, index);
    }

    @Override
    public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
        if (!(context.extension() instanceof Txn txn) || !txn.transactional || txn.lockSet == null) {
            return;
        }
        if (result.status == NfsStatus.OK.code()) {
            txn.pending.forEach(txn.undo::push);
            txn.steps.addAll(txn.pendingSteps);
        }
        txn.pending.clear();
        txn.pendingSteps.clear();
    }

    @Override
    public void afterCompound(CompoundContext context, COMPOUND4res res) throws IOException {
        if (!(context.extension() instanceof Txn txn) || txn.lockSet == null) {
            return;
        }
        context.setExtension(null);
        if (!txn.transactional) {
            txn.lockSet.close();
            return;
        }
        try {
            if (res.status == NfsStatus.OK.code()) {
                try {
                    commit(txn);
                    return;
                } catch (IOException | RuntimeException e) {
                    LOG.error("txn {}: commit failed, rolling back: {}", txn.id, e.toString());
                    rollback(txn);
                    throw new ServerFaultException("commit failed: " + e.getMessage(), e);
                }
            }
            rollback(txn);
        } finally {
            txn.lockSet.close();
        }
    }

    /** Stops the background cleaner (pending deletions are dropped; the backups stay on disk). */
    @Override
    public void close() {
        cleaner.shutdownNow();
    }

    // ---- begin ------------------------------------------------------------------------------------------

    private void begin(Txn txn) throws IOException {
        for (int attempt = 1; ; attempt++) {
            TxnPlan plan = planner.plan(txn.args, resolver);
            if (plan.unplannable().isPresent() && !txn.transactional) {
                LOG.debug("plain compound runs without locks: {}", plan.unplannable().get());
                return;
            }
            if (plan.unplannable().isPresent()) {
                LOG.info("refusing transactional compound: {}", plan.unplannable().get());
                throw new NotSuppException("not plannable as a transaction: " + plan.unplannable().get());
            }
            LockSet set;
            try {
                set = locks.acquire(plan.lockRequests(), lockTimeout);
            } catch (LockTimeoutException e) {
                throw new DelayException("locks busy: " + e.getMessage(), e);
            }
            boolean hold = false;
            try {
                if (plan.assumptionsHold(resolver)) {
                    hold = true;
                    txn.plan = plan;
                    txn.lockSet = set;
                    if (txn.transactional) {
                        txn.id = nextTxnId();
                        txn.backups = backups.forTransaction(Long.toString(txn.id));
                    }
                    return;
                }
            } finally {
                if (!hold) {
                    set.close();
                }
            }
            if (attempt >= MAX_PLANS) {
                throw new DelayException("the name space kept changing while planning");
            }
        }
    }

    /** Ids from the clock in microseconds, strictly increasing; unique across restarts unless the clock steps back. */
    private long nextTxnId() {
        long now = System.currentTimeMillis() * 1000;
        return lastTxnId.updateAndGet(prev -> Math.max(prev + 1, now));
    }

    // ---- before each operation ---------------------------------------------------------------------------

    private void prepare(Txn txn, int index) throws IOException {
        boolean mutates = false;
        for (Mutation m : txn.plan.mutations()) {
            if (m.opIndex() == index) {
                mutates = true;
                prepareOne(txn, m);
            }
        }
        if (mutates) {
            txn.backups.makeDurable();
            if (Files.isDirectory(txn.backups.directory())) {
                forceQuietly(txn.backups.directory());
            }
            writeRecord(txn);
        }
    }

    private void prepareOne(Txn txn, Mutation m) throws IOException {
        if (m instanceof Mutation.Write w) {
            ObjectPath p = w.file().path();
            if (!txn.created.contains(p) && Files.isRegularFile(local(p), LinkOption.NOFOLLOW_LINKS)) {
                RangeBackup b = txn.backups.backupRange(local(p), w.offset(), w.length());
                txn.pending.add(() -> txn.backups.restoreRange(b));
                txn.pendingSteps.add(new UndoStep.RestoreSize(w.opIndex(), ref(p), b.oldSize()));
            }
            txn.touchedFiles.add(p);
        } else if (m instanceof Mutation.SizeChange s) {
            ObjectPath p = s.file().path();
            Path file = local(p);
            if (!txn.created.contains(p) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                long size = Files.size(file);
                RangeBackup b = txn.backups.backupRange(file, Math.min(s.newSize(), size),
                        Math.max(0, size - s.newSize()));
                txn.pending.add(() -> txn.backups.restoreRange(b));
                txn.pendingSteps.add(new UndoStep.RestoreSize(s.opIndex(), ref(p), b.oldSize()));
            }
            txn.touchedFiles.add(p);
        } else if (m instanceof Mutation.AttributeChange a) {
            prepareSetattr(txn, a);
        } else if (m instanceof Mutation.Creation c) {
            ObjectPath p = c.object().path();
            if (!Files.exists(local(p), LinkOption.NOFOLLOW_LINKS)) {
                txn.created.add(p);
                txn.pending.add(() -> removeIfPresent(p));
                txn.pendingSteps.add(new UndoStep.RemoveCreated(c.opIndex(), ref(p), kind(c.type())));
            }
            txn.touchedFiles.add(p);
            p.parent().ifPresent(txn.touchedDirs::add);
        } else if (m instanceof Mutation.HardLink l) {
            ObjectPath p = l.newName().path();
            if (!Files.exists(local(p), LinkOption.NOFOLLOW_LINKS)) {
                txn.pending.add(() -> removeIfPresent(p));
                txn.pendingSteps.add(new UndoStep.UnlinkLink(l.opIndex(), ref(p)));
            }
            p.parent().ifPresent(txn.touchedDirs::add);
        } else if (m instanceof Mutation.Removal r) {
            ObjectPath p = r.object().path();
            Optional<Kept> kept = keep(txn, p, "rm-" + r.opIndex());
            kept.ifPresent(k -> {
                txn.pending.add(() -> restore(k));
                txn.pendingSteps.add(new UndoStep.MoveBack(r.opIndex(), ref(p), k.kind(), backupName(k)));
            });
            p.parent().ifPresent(txn.touchedDirs::add);
        } else if (m instanceof Mutation.Rename r) {
            prepareRename(txn, r);
        }
    }

    private void prepareSetattr(Txn txn, Mutation.AttributeChange a) throws IOException {
        ObjectPath p = a.object().path();
        if (txn.created.contains(p) || !Files.exists(local(p), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Inode inode = inodeAt(p);
        Stat old = fs.getattr(inode);
        SetAttributes back = new SetAttributes(a.sets(FATTR4_MODE) ? old.mode() : null,
                a.sets(FATTR4_OWNER) ? old.uid() : null, a.sets(FATTR4_OWNER_GROUP) ? old.gid() : null, null,
                a.sets(FATTR4_TIME_ACCESS_SET) ? TimeChange.at(old.atime()) : null,
                a.sets(FATTR4_TIME_MODIFY_SET) ? TimeChange.at(old.mtime()) : null);
        if (!back.isEmpty()) {
            txn.pending.add(() -> fs.setattr(inodeAt(p), back));
            txn.pendingSteps.add(new UndoStep.RestoreAttributes(a.opIndex(), ref(p), Attributes.NONE
                    .withMode(old.mode()).withUid(old.uid()).withGid(old.gid())));
        }
        txn.touchedFiles.add(p);
    }

    private void prepareRename(Txn txn, Mutation.Rename r) throws IOException {
        ObjectPath from = r.source().path();
        ObjectPath to = r.target().path();
        from.parent().ifPresent(txn.touchedDirs::add);
        to.parent().ifPresent(txn.touchedDirs::add);
        if (from.equals(to) || !Files.exists(local(from), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Optional<Kept> kept = Optional.empty();
        if (Files.exists(local(to), LinkOption.NOFOLLOW_LINKS)
                && !Files.isSameFile(local(from), local(to))) {
            kept = keep(txn, to, "mv-" + r.opIndex());
        }
        Optional<Kept> target = kept;
        txn.pending.add(() -> {
            if (Files.exists(local(to), LinkOption.NOFOLLOW_LINKS)
                    && !Files.exists(local(from), LinkOption.NOFOLLOW_LINKS)) {
                fs.rename(inodeAt(to.parent().orElseThrow()), to.name().orElseThrow(),
                        inodeAt(from.parent().orElseThrow()), from.name().orElseThrow());
            }
            if (target.isPresent()) {
                restore(target.get());
            }
        });
        txn.pendingSteps.add(new UndoStep.RenameBack(r.opIndex(), ref(from), ref(to), target.map(this::backupName)));
        if (txn.created.remove(from)) {
            txn.created.add(to);
        }
    }

    /** What a REMOVE or a replacing RENAME will destroy, kept so undo can put it back with its handle. */
    private record Kept(ObjectPath path, Inode handle, ObjectKind kind, Optional<Path> link, Optional<Stat> dirStat) {
    }

    private Optional<Kept> keep(Txn txn, ObjectPath p, String backupName) throws IOException {
        Path victim = local(p);
        if (!Files.exists(victim, LinkOption.NOFOLLOW_LINKS) || p.isRoot()) {
            return Optional.empty();
        }
        Inode handle = inodeAt(p);
        Stat stat = fs.getattr(handle);
        if (stat.type() == FileType.DIRECTORY) {
            return Optional.of(new Kept(p, handle, ObjectKind.DIRECTORY, Optional.empty(), Optional.of(stat)));
        }
        Path dir = txn.backups.directory();
        Files.createDirectories(dir);
        Path link = dir.resolve(backupName);
        Files.deleteIfExists(link);
        Files.createLink(link, victim);
        return Optional.of(new Kept(p, handle, kind(stat.type()), Optional.of(link), Optional.empty()));
    }

    private RelativePath backupName(Kept k) {
        return new RelativePath(List.of(k.link().map(l -> l.getFileName().toString()).orElse("dir")));
    }

    // ---- undo helpers ------------------------------------------------------------------------------------

    /** Puts a kept object back at its name (if the name is free) and gives it its old handle again. */
    private void restore(Kept k) throws IOException {
        Path target = local(k.path());
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            if (k.link().isPresent()) {
                // rename(2) of the kept link: the victim gets its name back and no extra link stays behind
                Files.move(k.link().get(), target, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.createDirectory(target);
            }
        }
        reattach(k.handle(), k.path());
        if (k.dirStat().isPresent()) {
            Stat s = k.dirStat().get();
            fs.setattr(k.handle(), new SetAttributes(s.mode(), s.uid(), s.gid(), null, TimeChange.at(s.atime()),
                    TimeChange.at(s.mtime())));
        }
    }

    /**
     * Makes {@code oldHandle} name the object now at {@code path} again: the file system registers what it
     * finds there (under a fresh handle if the old node was dropped), and the fresh handle is swapped for
     * the old one.
     */
    private void reattach(Inode oldHandle, ObjectPath path) throws IOException {
        Inode parent = inodeAt(path.parent().orElseThrow());
        String name = path.name().orElseThrow();
        Inode now = fs.lookup(parent, name);
        if (now.equals(oldHandle)) {
            return;
        }
        Nfh old = Nfh.of(oldHandle.toBytes());
        Nfh fresh = Nfh.of(now.toBytes());
        Nfh parentNfh = Nfh.of(parent.toBytes());
        try (HandleBatch batch = handles.write()) {
            Node node = batch.node(fresh).orElseThrow(() -> new IOException("no node for " + fresh));
            batch.unlink(parentNfh, name);
            if (batch.node(fresh).isPresent()) {
                batch.removeNode(fresh);
            }
            if (batch.node(old).isPresent()) {
                batch.addLink(old, parentNfh, name);
            } else {
                batch.register(old, parentNfh, name, node.type(), node.dev(), node.ino(), node.generation());
            }
            batch.commit();
        }
    }

    private void removeIfPresent(ObjectPath p) throws IOException {
        if (Files.exists(local(p), LinkOption.NOFOLLOW_LINKS)) {
            fs.remove(inodeAt(p.parent().orElseThrow()), p.name().orElseThrow());
        }
    }

    private Inode inodeAt(ObjectPath p) throws IOException {
        Inode at = fs.getRootInode();
        for (String name : p.components()) {
            at = fs.lookup(at, name);
        }
        return at;
    }

    private Path local(ObjectPath p) {
        Path path = root;
        for (String name : p.components()) {
            path = path.resolve(name);
        }
        return path;
    }

    private static org.tcnfs.proto.ObjectRef ref(ObjectPath p) {
        return org.tcnfs.proto.ObjectRef.at(new RelativePath(p.components()));
    }

    private static ObjectKind kind(FileType type) {
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

    // ---- record, commit, rollback ------------------------------------------------------------------------

    private void writeRecord(Txn txn) {
        RecoveryRecord.Builder b = RecoveryRecord.builder(txn.id, exportId, txn.started)
                .backupDirectory(root.relativize(txn.backups.directory().toAbsolutePath()).toString())
                .opCount(txn.args.argarray.length)
                .tag(txn.tagText());
        txn.steps.forEach(b::step);
        txn.pendingSteps.forEach(b::step);
        try (HandleBatch batch = handles.write()) {
            batch.put(records, key(txn.id), RecoveryRecords.encode(b.build()));
            batch.commit();
        }
        txn.recorded = true;
    }

    private void deleteRecord(Txn txn) {
        if (!txn.recorded) {
            return;
        }
        try (HandleBatch batch = handles.write()) {
            batch.delete(records, key(txn.id));
            batch.commit();
        }
    }

    private static byte[] key(long id) {
        return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
    }

    private void commit(Txn txn) throws IOException {
        syncTouched(txn);
        deleteRecord(txn);
        commits.incrementAndGet();
        discardLater(txn);
    }

    private void rollback(Txn txn) throws IOException {
        rollbacks.incrementAndGet();
        txn.pending.clear();
        try {
            while (!txn.undo.isEmpty()) {
                txn.undo.pop().run();
            }
            txn.backups.makeDurable();
            syncTouched(txn);
        } catch (IOException | RuntimeException e) {
            undoFailures.incrementAndGet();
            LOG.error("txn {}: undo failed, its record stays for recovery: {}", txn.id, e.toString(), e);
            throw new ServerFaultException("undo failed: " + e.getMessage(), e);
        }
        deleteRecord(txn);
        LOG.debug("txn {} rolled back", txn.id);
        discardLater(txn);
    }

    private void syncTouched(Txn txn) throws IOException {
        for (ObjectPath p : txn.touchedFiles) {
            Path file = local(p);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    ch.force(true);
                }
            }
        }
        for (ObjectPath p : txn.touchedDirs) {
            Path dir = local(p);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                    ch.force(true);
                }
            }
        }
    }

    private static void forceQuietly(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (NoSuchFileException e) {
            // nothing was backed up
        }
    }

    private void discardLater(Txn txn) {
        BackupManager manager = txn.backups;
        long id = txn.id;
        cleaner.execute(() -> {
            try {
                manager.discard();
            } catch (IOException | RuntimeException e) {
                LOG.warn("txn {}: deleting the backups failed: {}", id, e.toString());
            }
        });
    }

    /** One undo action; runs on the request thread during rollback. */
    @FunctionalInterface
    private interface Undo {
        void run() throws IOException;
    }

    /** A transactional compound's state, kept in the compound context. */
    private static final class Txn {
        final COMPOUND4args args;
        final boolean transactional;
        final Instant started = Instant.now();
        boolean begun;
        TxnPlan plan;
        LockSet lockSet;
        long id;
        BackupManager backups;
        boolean recorded;
        final Deque<Undo> undo = new ArrayDeque<>();
        final List<Undo> pending = new ArrayList<>();
        final List<UndoStep> steps = new ArrayList<>();
        final List<UndoStep> pendingSteps = new ArrayList<>();
        final Set<ObjectPath> created = new HashSet<>();
        final Set<ObjectPath> touchedFiles = new LinkedHashSet<>();
        final Set<ObjectPath> touchedDirs = new LinkedHashSet<>();

        Txn(COMPOUND4args args, boolean transactional) {
            this.args = args;
            this.transactional = transactional;
        }

        String tagText() {
            return args.tag == null ? "" : args.tag;
        }
    }
}
