package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.txn.Transaction.State;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockManager;

/**
 * The light path's REMOVE of an empty directory (docs/durability.md, "The light path"), its steps without the wire: the
 * compound gets no record, and the place it gives the file system's REMOVE ({@link HandleTable#placeForRemoved})
 * keeps the same directory, so that a rollback after the change puts that very directory (its inode) back. The file
 * system's part (LocalFileSystem renames the directory to that place) is played by the test.
 */
class LightRmdirStepsTest {
    @TempDir
    Path work;

    private HandleTable table;
    private TxnExport export;
    private TransactionServices services;
    private final LockManager manager = new LockManager();
    private Path root;
    private Path dir;
    private Nfh rootHandle;

    /** An export root holding the empty directory "d", registered; its file system removes into a place or not. */
    private void export(boolean removesIntoPlace) throws IOException {
        root = Files.createDirectories(work.resolve("export"));
        dir = Files.createDirectory(root.resolve("d"));
        table = HandleTable.open(Files.createDirectories(work.resolve("state")));
        try (HandleBatch batch = table.write()) {
            rootHandle = batch.ensureRoot("/", 1, ino(root), 0);
            batch.register(rootHandle, "d", FileType.DIRECTORY, 1, ino(dir), 0);
            batch.commit();
        }
        VirtualFileSystem fs = (VirtualFileSystem) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {VirtualFileSystem.class}, (proxy, method, args) -> {
                    if (method.getName().equals("removesIntoPlace")) {
                        return removesIntoPlace;
                    }
                    if (method.getName().equals("orderedLogDevice")) {
                        return OptionalLong.empty(); // every directory synced, as on a file system without a log
                    }
                    throw new UnsupportedOperationException("the test plays the file system");
                });
        export = new TxnExport("/", fs, root, BackupStore.open(work.resolve("backups")), true,
                client -> TxnPolicy.REQUEST);
        services = new TransactionServices(table, CrashPoints.NONE, ConcurrentHashMap.newKeySet());
    }

    @BeforeEach
    void nothing() {
        // each test builds its export (export(boolean))
    }

    @AfterEach
    void close() {
        if (services != null) {
            services.close();
        }
        if (table != null) {
            table.close();
        }
    }

    private static long ino(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
    }

    /** SEQUENCE, PUTFH of the root, REMOVE "d". */
    private COMPOUND4args rmdir() {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "rmdir";
        args.minorversion = 1;
        args.argarray = new nfs_argop4[] {
            new nfs_argop4(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args()),
            new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(rootHandle.toBytes()))),
            new nfs_argop4(nfs_opnum4.OP_REMOVE, new REMOVE4args("d"))};
        return args;
    }

    private Transaction prepared(TransactionSteps[] steps) throws IOException {
        return PreparedSteps.prepare(services, export, table, manager, rmdir(), steps);
    }

    /** Runs the REMOVE as LocalFileSystem does on a thread bound to the buffer: into its place if it has one. */
    private Optional<Path> runRemove(Transaction t, TransactionSteps steps) throws IOException {
        long ino = ino(dir);
        t.running();
        steps.beforeOp(1);
        steps.afterOp(1);
        steps.beforeOp(2);
        Optional<Path> place;
        try (HandleTable.Binding bound = table.bind(steps.buffer())) {
            place = table.placeForRemoved(ino);
            if (place.isPresent()) {
                Files.move(dir, place.get(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.delete(dir);
            }
            try (HandleBatch batch = table.write()) {
                batch.unlink(rootHandle, "d");
                batch.commit();
            }
        }
        steps.afterOp(2);
        return place;
    }

    private int records() {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        try (HandleSnapshot snapshot = table.read()) {
            snapshot.forEach(table.sideTable(TransactionHook.RECORDS_TABLE), (k, v) -> count.incrementAndGet());
        }
        return count.get();
    }

    @Test
    void aLightRmdirMovesTheDirectoryIntoItsBackupDirectoryAndCommitsWithoutARecord() throws IOException {
        export(true);
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(steps);
        assertThat(steps[0].light()).as("an empty directory's REMOVE is light").isTrue();
        assertThat(records()).isZero();

        Optional<Path> place = runRemove(t, steps[0]);
        assertThat(place).as("the REMOVE got a place in the backup directory").isPresent();
        assertThat(place.get().startsWith(work.resolve("backups"))).isTrue();
        t.commit();
        t.close();

        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(Files.exists(dir, LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(Files.exists(place.get(), LinkOption.NOFOLLOW_LINKS)).as("the kept directory deleted").isFalse();
        assertThat(records()).isZero();
        assertThat(services.lightCommits.get()).isEqualTo(1);
    }

    @Test
    void aLightRmdirThatFailsAfterItsChangePutsTheSameDirectoryBack() throws IOException {
        export(true);
        long before = ino(dir);
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(steps);
        runRemove(t, steps[0]);
        assertThat(Files.exists(dir, LinkOption.NOFOLLOW_LINKS)).isFalse();

        t.close(); // an operation after the REMOVE failed (a server fault): roll back

        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)).as("the directory is back").isTrue();
        assertThat(ino(dir)).as("the same directory, not a new one").isEqualTo(before);
        assertThat(steps[0].recorded()).as("the record was written before the undo").isTrue();
        assertThat(records()).as("and deleted after it").isZero();
        assertThat(services.lightRollbacks.get()).isEqualTo(1);
    }

    @Test
    void whereTheFileSystemCannotRemoveIntoAPlaceARmdirTakesTheFullPath() throws IOException {
        export(false);
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(steps);
        assertThat(steps[0].light()).isFalse();
        assertThat(records()).as("its record before the change").isEqualTo(1);
        t.close();
    }
}
