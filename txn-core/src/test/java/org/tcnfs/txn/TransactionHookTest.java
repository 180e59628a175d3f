package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.txn.OneFileExport.AFTER;
import static org.tcnfs.txn.OneFileExport.BEFORE;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.TEST_STATEID4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockManager;

/**
 * The transaction hook driven through its hook points as the compound engine drives them, without the wire
 * (issue 13, item 3): a real handle table, backup area and lock manager; the operations' own effects are
 * made by the test where the engine would run them.
 */
class TransactionHookTest {
    @TempDir
    Path work;

    private OneFileExport fixture;
    private HandleTable table;
    private TransactionHook hook;
    private ServerContext server;
    private Path file;
    private Nfh fileHandle;

    @BeforeEach
    void exportWithOneFile() throws IOException {
        fixture = OneFileExport.create(work, "the hook does not use the file system");
        table = fixture.table;
        file = fixture.file;
        fileHandle = fixture.fileHandle;
        hook = new TransactionHook(List.of(fixture.export), table, new LockManager(), Duration.ofSeconds(2),
                CrashPoints.NONE);
        server = new ServerContext((credential, client) -> fixture.unused, new StateHandler(NfsLimits.DEFAULTS,
                Clock.systemUTC()), NfsLimits.DEFAULTS, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        hook.close();
        table.close();
    }

    private CompoundContext context(int procedure) {
        return CompoundContext.builder().server(server).minorVersion(1).procedure(procedure).tag("test")
                .credential(Credential.ROOT).clientAddress(InetAddress.getLoopbackAddress()).connection(new Object())
                .build();
    }

    private COMPOUND4args writeCompound() {
        return fixture.writeCompound("test");
    }

    /** Runs the hook points of operations {@code 0..last} of {@code args}; the WRITE's effect is the test's. */
    private void runOps(CompoundContext context, COMPOUND4args args, int last) throws IOException {
        for (int i = 0; i <= last; i++) {
            nfs_argop4 op = args.argarray[i];
            hook.beforeOp(context, i, op);
            if (op.argop == nfs_opnum4.OP_WRITE) {
                Files.write(file, AFTER);
            }
            hook.afterOp(context, i, op, new nfs_resop4(op.argop, 0, null));
        }
    }

    private static COMPOUND4res ok() {
        COMPOUND4res res = new COMPOUND4res();
        res.status = 0;
        return res;
    }

    private int records() {
        return fixture.records();
    }

    @Test
    void shutdownWaitsForTheTransactionInFlightWhichCommitsAndIsNeverUndone() throws Exception {
        CompoundContext inFlight = context(TransactionHook.TXN_FLAG | 1);
        COMPOUND4args args = writeCompound();
        hook.beforeCompound(inFlight, args);
        runOps(inFlight, args, 2);
        assertThat(records()).as("the transaction's record is durable while it runs").isEqualTo(1);

        CompletableFuture<Void> shutdown = CompletableFuture.runAsync(hook::close);
        Thread.sleep(200);
        assertThat(shutdown.isDone()).as("shutdown waits for the compound in flight").isFalse();

        CompoundContext late = context(1);
        hook.beforeCompound(late, args);
        hook.beforeOp(late, 0, args.argarray[0]);
        assertThatThrownBy(() -> hook.beforeOp(late, 1, args.argarray[1]))
                .as("a compound arriving during shutdown").isInstanceOf(DelayException.class);
        hook.afterCompound(late, ok());

        hook.afterCompound(inFlight, ok());
        shutdown.get(10, TimeUnit.SECONDS);

        assertThat(Files.readAllBytes(file)).as("the committed WRITE").isEqualTo(AFTER);
        assertThat(records()).isZero();
        assertThat(hook.commits()).isEqualTo(1);
        assertThat(hook.rollbacks()).isZero();
    }

    @Test
    void failedCompoundIsRolledBackAndItsRecordDeleted() throws Exception {
        CompoundContext context = context(TransactionHook.TXN_FLAG | 1);
        COMPOUND4args args = writeCompound();
        hook.beforeCompound(context, args);
        runOps(context, args, 2);
        COMPOUND4res failed = new COMPOUND4res();
        failed.status = org.tcnfs.nfs4.status.NfsStatus.NOENT.code();
        hook.afterCompound(context, failed);

        assertThat(Files.readAllBytes(file)).isEqualTo(BEFORE);
        assertThat(records()).isZero();
        assertThat(hook.rollbacks()).isEqualTo(1);
    }

    @Test
    void plainCompoundStartingWithTestStateidWaitsForTheTransactionOnItsFile() throws Exception {
        CompoundContext txn = context(TransactionHook.TXN_FLAG | 1);
        COMPOUND4args write = writeCompound();
        hook.beforeCompound(txn, write);
        runOps(txn, write, 2);

        AtomicBoolean transactionEnded = new AtomicBoolean();
        CompletableFuture<Boolean> plain = CompletableFuture.supplyAsync(() -> {
            CompoundContext context = context(1);
            COMPOUND4args args = writeCompound();
            args.argarray = new nfs_argop4[] {args.argarray[0], new nfs_argop4(nfs_opnum4.OP_TEST_STATEID,
                    new TEST_STATEID4args(new stateid4[0])), args.argarray[1], args.argarray[2]};
            try {
                hook.beforeCompound(context, args);
                hook.beforeOp(context, 0, args.argarray[0]);
                hook.beforeOp(context, 1, args.argarray[1]);
                boolean waited = transactionEnded.get();
                hook.afterCompound(context, ok());
                return waited;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(500);
        transactionEnded.set(true);
        hook.afterCompound(txn, ok());
        assertThat(plain.get(10, TimeUnit.SECONDS))
                .as("the plain compound went on only once the transaction on the file ended").isTrue();
    }
}
