package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.txn.OneFileExport.AFTER;
import static org.tcnfs.txn.OneFileExport.BEFORE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.ShareMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.txn.Transaction.State;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.plan.CompoundPlanner;

/**
 * A transaction's steps (prepare, record, commit, rollback) driven by the {@link Transaction} state
 * machine without the wire and without the hook (issue 13, item 6): a real handle table with its recovery
 * records, a real backup area and lock manager, and a real file; the WRITE's own effect is made by the test.
 */
class TransactionStepsTest {
    @TempDir
    Path work;

    private OneFileExport fixture;
    private HandleTable table;
    private TxnExport export;
    private TransactionServices services;
    private final LockManager manager = new LockManager();
    private Path root;
    private Path file;
    private Nfh fileHandle;

    @BeforeEach
    void exportWithOneFile() throws IOException {
        fixture = OneFileExport.create(work, "the steps do not use the file system");
        root = fixture.root;
        file = fixture.file;
        table = fixture.table;
        fileHandle = fixture.fileHandle;
        export = fixture.export;
        services = new TransactionServices(table, CrashPoints.NONE, ConcurrentHashMap.newKeySet());
    }

    @AfterEach
    void close() {
        services.close();
        table.close();
    }

    private COMPOUND4args compound(nfs_argop4 last) {
        return fixture.compound("steps", last);
    }

    private COMPOUND4args writeCompound() {
        return fixture.writeCompound("steps");
    }

    /** A transaction planned, locked and prepared as the hook does it, its steps in {@code steps[0]}. */
    private Transaction prepared(COMPOUND4args args, TransactionSteps[] steps) throws IOException {
        return PreparedSteps.prepare(services, export, table, manager, args, steps);
    }

    /** Runs operation 2 (the WRITE) as the engine would, its effect made here. */
    private static void runWrite(Transaction t, TransactionSteps steps, Path file) throws IOException {
        t.running();
        steps.beforeOp(1);
        steps.afterOp(1);
        steps.beforeOp(2);
        Files.write(file, AFTER);
        steps.afterOp(2);
    }

    private int records() {
        return fixture.records();
    }

    /** SEQUENCE, PUTFH of "f", SETATTR size 1 (a truncation: one call, the light path). */
    private COMPOUND4args truncateCompound() {
        return compound(new nfs_argop4(nfs_opnum4.OP_SETATTR, new org.tcnfs.nfs4.xdr.SETATTR4args(new stateid4(),
                new org.tcnfs.nfs4.xdr.fattr4(org.tcnfs.nfs4.attr.Bitmaps.of(org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE),
                        java.nio.ByteBuffer.allocate(8).putLong(1).array()))));
    }

    /** Runs operation 2 (the SETATTR size 1) as the engine would, its effect made here. */
    private static void runTruncate(Transaction t, TransactionSteps steps, Path file) throws IOException {
        t.running();
        steps.beforeOp(1);
        steps.afterOp(1);
        steps.beforeOp(2);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(1);
        }
        steps.afterOp(2);
    }

    @Test
    void aLoneTruncationTakesTheLightPathWithoutARecordAndCommits() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(truncateCompound(), steps);
        assertThat(steps[0].light()).isTrue();
        assertThat(steps[0].recorded()).isFalse();
        assertThat(records()).as("no record before the one atomic change").isZero();
        runTruncate(t, steps[0], file);

        t.commit();
        t.close();

        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(Files.size(file)).isEqualTo(1);
        assertThat(records()).isZero();
        assertThat(services.lightCommits.get()).isEqualTo(1);
        assertThat(services.commits.get()).isEqualTo(1);
    }

    @Test
    void aLightCompoundThatFailsAfterItsChangeWritesItsRecordAndUndoesTheChange() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(truncateCompound(), steps);
        runTruncate(t, steps[0], file);

        t.close(); // an operation after the SETATTR failed: roll back

        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(Files.readAllBytes(file)).as("the cut bytes are back").isEqualTo(BEFORE);
        assertThat(steps[0].recorded()).as("the record was written before the undo").isTrue();
        assertThat(records()).as("and deleted after it").isZero();
        assertThat(services.lightRollbacks.get()).isEqualTo(1);
        assertThat(services.lightCommits.get()).isZero();
    }

    @Test
    void aWriteAcrossPagesTakesTheFullPath() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        prepared(writeCompound(), steps).close();
        assertThat(steps[0].light()).isFalse();
    }

    @Test
    void aWriteWithinOnePageTakesTheLightPathWithoutARecordAndCommits() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(fixture.writeInOnePageCompound("steps"), steps);
        assertThat(steps[0].light()).isTrue();
        assertThat(records()).as("no record before the one-page WRITE").isZero();
        runWrite(t, steps[0], file);

        t.commit();
        t.close();

        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(Files.readAllBytes(file)).isEqualTo(AFTER);
        assertThat(records()).isZero();
        assertThat(services.lightCommits.get()).isEqualTo(1);
    }

    @Test
    void aLightWriteThatFailsAfterItsChangeWritesItsRecordAndPutsTheBytesBack() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(fixture.writeInOnePageCompound("steps"), steps);
        runWrite(t, steps[0], file);

        t.close(); // an operation after the WRITE failed (a server fault): roll back

        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(Files.readAllBytes(file)).as("the old bytes are back").isEqualTo(BEFORE);
        assertThat(steps[0].recorded()).as("the record was written before the undo").isTrue();
        assertThat(records()).as("and deleted after it").isZero();
        assertThat(services.lightRollbacks.get()).isEqualTo(1);
    }

    @Test
    void aPreparedWriteHasADurableRecordAndItsRollbackPutsTheBytesBackAndDeletesTheRecord() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(writeCompound(), steps);
        assertThat(steps[0].id()).as("a transaction that changes something gets an id").isPositive();
        assertThat(steps[0].recorded()).isTrue();
        assertThat(records()).as("the record is in LMDB before anything changed").isEqualTo(1);
        runWrite(t, steps[0], file);

        t.close();

        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(Files.readAllBytes(file)).isEqualTo(BEFORE);
        assertThat(records()).isZero();
        assertThat(services.rollbacks.get()).isEqualTo(1);
        assertThat(services.commits.get()).isZero();
        assertThat(manager.acquire(new CompoundPlanner().plan(writeCompound(), new HandleTableResolver(table, "/"))
                .lockRequests(), Duration.ofSeconds(1))).as("close released the locks").isNotNull();
    }

    @Test
    void aCommittedWriteStaysItsRecordIsDeletedAndNothingRollsItBack() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(writeCompound(), steps);
        runWrite(t, steps[0], file);

        t.commit();
        assertThatThrownBy(t::rollback).isInstanceOf(IllegalStateException.class);
        t.close();

        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(Files.readAllBytes(file)).isEqualTo(AFTER);
        assertThat(records()).isZero();
        assertThat(services.commits.get()).isEqualTo(1);
        assertThat(services.rollbacks.get()).isZero();
    }

    @Test
    void aReadOnlyTransactionGetsNoIdRecordOrBackups() throws IOException {
        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction t = prepared(compound(new nfs_argop4(nfs_opnum4.OP_READ, new READ4args(new stateid4(), 0, 6))),
                steps);
        assertThat(steps[0].id()).isZero();
        assertThat(steps[0].recorded()).isFalse();
        assertThat(steps[0].buffer()).as("its handle changes would still wait in a buffer").isNotNull();
        assertThat(records()).isZero();
        t.running();
        t.close();
        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(Files.readAllBytes(file)).isEqualTo(BEFORE);
    }

    /** Runs a compound PUTFH f, CLOSE of an open held before it; returns that open's stateid. */
    private StateId closeInTransaction(Transaction t, TransactionSteps steps, OpenStateTable opens, NfsClient client,
            StateId open) throws IOException {
        t.running();
        steps.beforeOp(1);
        steps.afterOp(1);
        steps.beforeOp(2);
        steps.bindStateJournal(opens);
        opens.close(client, open, Inode.of(fileHandle.toBytes()));
        steps.unbindStateJournal();
        steps.afterOp(2);
        return open;
    }

    @Test
    void theRollbackOfACloseReopensTheOpenHeldBeforeAndACommittedCloseStaysClosed() throws IOException {
        OpenStateTable opens = new OpenStateTable();
        NfsClient client = new NfsClient(1);
        Inode f = Inode.of(fileHandle.toBytes());
        COMPOUND4args close = compound(new nfs_argop4(nfs_opnum4.OP_CLOSE, new CLOSE4args(0, new stateid4())));
        StateId open = opens.open(client, "o".getBytes(StandardCharsets.US_ASCII), f,
                new ShareMode(ShareMode.READ, 0), OpenStateTable.NOTHING);

        TransactionSteps[] steps = new TransactionSteps[1];
        Transaction rolledBack = prepared(close, steps);
        closeInTransaction(rolledBack, steps[0], opens, client, open);
        assertThat(opens.test(client, open)).as("closed inside the transaction").isNotEqualTo(NfsStatus.OK);
        rolledBack.close();
        assertThat(opens.test(client, open)).as("the open is back after the rollback").isEqualTo(NfsStatus.OK);
        assertThat(opens.isOpen(f)).isTrue();

        Transaction committed = prepared(close, steps);
        closeInTransaction(committed, steps[0], opens, client, open);
        committed.commit();
        committed.close();
        assertThat(opens.isOpen(f)).as("a committed CLOSE is never undone").isFalse();
    }
}
