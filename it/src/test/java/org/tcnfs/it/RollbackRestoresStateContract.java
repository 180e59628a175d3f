package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOCK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOCKT;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOCKU;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN_CONFIRM;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A rolled-back transaction leaves open, share and lock state exactly as it was before the compound
 * (DESIGN.md "How a client asks for a transaction": nothing of a failed transaction took effect; issue 13
 * item 2), for NFSv4.1 and NFSv4.0 clients, through the wire against the real server process. Subclasses
 * choose the file system the server's directories live on.
 */
abstract class RollbackRestoresStateContract extends SharedServerTest {
    private ItSession mine;
    private ItSession theirs;
    private byte[] dir;
    private Path dirPath;

    @Override
    abstract Path workDirectory() throws IOException;

    @BeforeEach
    void openSessionsAndDirectory(TestInfo test) throws IOException {
        mine = ItSession.open(server, "rollback-state-a");
        theirs = ItSession.open(server, "rollback-state-b");
        String name = test.getTestMethod().orElseThrow().getName();
        dirPath = server.exportDir().resolve(name);
        Files.createDirectories(dirPath);
        Files.write(dirPath.resolve("f"), new byte[4096]);
        dir = mine.nfs().lookup(mine.nfs().rootFh(), name);
    }

    @AfterEach
    void closeSessions() throws IOException {
        for (ItSession s : new ItSession[] {mine, theirs}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static OPEN4args openArgs(int seqid, long clientId, byte[] owner, int access, int deny) {
        return new OPEN4args(seqid, access, deny, new open_owner4(clientId, owner.clone()), openflag4.noCreate(),
                open_claim4.byName("f"));
    }

    /** The other client opens f for writing, deny NONE; its status. */
    private NfsStatus theyOpenForWriting() throws IOException {
        CompoundResult r = theirs.nfs().run(new CompoundBuilder().putfh(dir).openExisting(
                theirs.session().clientId(), theirs.nfs().openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_WRITE));
        return r.status();
    }

    /** The other client's LOCKT of a WRITE lock over [offset, offset + length). */
    private NfsStatus theyTestWriteLock(byte[] file, long offset, long length) throws IOException {
        return theirs.nfs().run(new CompoundBuilder().putfh(file).lockt(nfs_lock_type4.WRITE_LT, offset, length,
                theirs.session().clientId(), "their-locker".getBytes())).statusOf(OP_LOCKT);
    }

    @Test
    void openUpgradeToDenyWriteIsUndoneByRollback() throws IOException {
        long client = mine.session().clientId();
        byte[] owner = mine.nfs().openOwner();
        CompoundResult opened = mine.nfs().runOk(new CompoundBuilder().putfh(dir)
                .open(openArgs(0, client, owner, OPEN4args.OPEN4_SHARE_ACCESS_READ, OPEN4args.OPEN4_SHARE_DENY_NONE)));
        stateid4 before = opened.body(OP_OPEN, OPEN4resok.class).stateid;

        CompoundResult txn = mine.session().executeTransaction(new CompoundBuilder().putfh(dir)
                .open(openArgs(0, client, owner, OPEN4args.OPEN4_SHARE_ACCESS_BOTH, OPEN4args.OPEN4_SHARE_DENY_WRITE))
                .putfh(dir).lookup("missing"));

        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
        assertThat(txn.statusOf(OP_OPEN)).as("the upgrade ran inside the transaction").isEqualTo(NfsStatus.OK);
        assertThat(theyOpenForWriting()).as("deny WRITE of the rolled-back upgrade is gone").isEqualTo(NfsStatus.OK);
        byte[] file = mine.nfs().lookup(dir, "f");
        assertThat(mine.nfs().run(new CompoundBuilder().putfh(file).read(before, 0, 10)).status())
                .as("the open stateid of before, with its seqid of before, reads").isEqualTo(NfsStatus.OK);
        assertThat(mine.nfs().run(new CompoundBuilder().putfh(file).close(before)).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void lockHeldBeforeSurvivesTheRollbackOfALockOverItsRange() throws IOException {
        long client = mine.session().clientId();
        CompoundResult opened = mine.nfs().runOk(new CompoundBuilder().putfh(dir)
                .openExisting(client, mine.nfs().openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_BOTH).getfh());
        byte[] file = opened.fileHandle();
        stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
        CompoundResult locked = mine.nfs().runOk(new CompoundBuilder().putfh(file)
                .lockNewOwner(nfs_lock_type4.WRITE_LT, 0, 100, open, client, "my-locker".getBytes()));
        stateid4 lock = locked.body(OP_LOCK, LOCK4resok.class).lock_stateid;
        mine.nfs().runOk(new CompoundBuilder().putfh(file).lockExistingOwner(nfs_lock_type4.WRITE_LT, 200, 100, lock));
        lock.seqid++;

        // a READ lock over [50, 250) splits and merges the two WRITE locks, an unlock cuts a hole, then a failure
        CompoundResult txn = mine.session().executeTransaction(new CompoundBuilder().putfh(file)
                .lockExistingOwner(nfs_lock_type4.READ_LT, 50, 200, lock)
                .locku(nfs_lock_type4.READ_LT, CompoundBuilder.currentStateid(), 60, 10)
                .putfh(dir).lookup("missing"));

        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
        assertThat(txn.statusOf(OP_LOCKU)).isEqualTo(NfsStatus.OK);
        assertThat(theyTestWriteLock(file, 0, 1)).as("[0, 100) is WRITE-locked again").isEqualTo(NfsStatus.DENIED);
        assertThat(theyTestWriteLock(file, 65, 1)).as("the hole is filled again").isEqualTo(NfsStatus.DENIED);
        assertThat(theyTestWriteLock(file, 299, 1)).as("[200, 300) is locked").isEqualTo(NfsStatus.DENIED);
        assertThat(theyTestWriteLock(file, 100, 100)).as("[100, 200) is free again").isEqualTo(NfsStatus.OK);
        assertThat(mine.nfs().run(new CompoundBuilder().putfh(file)
                .locku(nfs_lock_type4.WRITE_LT, lock, 0, 300)).status())
                .as("the lock stateid of before, with its seqid of before, unlocks").isEqualTo(NfsStatus.OK);
        assertThat(theyTestWriteLock(file, 0, 300)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void nfs40OpenUpgradeAndNewLockOfARolledBackCompoundAreUndone() throws IOException {
        try (NfsConnection connection = server.connect()) {
            Nfs40Client c40 = Nfs40Client.create(connection, "rollback-state-40");
            CompoundResult opened = c40.executeSequenced(new CompoundBuilder().putfh(dir).open(openArgs(c40.seqid(),
                    c40.clientId(), c40.openOwner(), OPEN4args.OPEN4_SHARE_ACCESS_READ,
                    OPEN4args.OPEN4_SHARE_DENY_NONE)).getfh());
            opened.orThrow();
            byte[] fh = opened.fileHandle();
            stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            if ((opened.body(OP_OPEN, OPEN4resok.class).rflags & OPEN4resok.OPEN4_RESULT_CONFIRM) != 0) {
                CompoundResult confirmed = c40.executeSequenced(new CompoundBuilder().putfh(fh)
                        .openConfirm(open, c40.seqid()));
                open = confirmed.orThrow().body(OP_OPEN_CONFIRM, OPEN_CONFIRM4resok.class).open_stateid;
            }
            Nfs40Client.Opened file = new Nfs40Client.Opened(fh, open);
            int seqid = c40.seqid();
            // the upgrade makes the open's seqid one more: the LOCK names the open by that stateid
            locker4 newLocker = locker4.newOwner(new open_to_lock_owner4(seqid + 1,
                    new stateid4(open.seqid + 1, open.other), 0,
                    new lock_owner4(c40.clientId(), "locker-40".getBytes())));
            COMPOUND4args args = new CompoundBuilder().minorVersion(0).putfh(dir)
                    .open(openArgs(seqid, c40.clientId(), c40.openOwner(), OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            OPEN4args.OPEN4_SHARE_DENY_WRITE))
                    .lock(new LOCK4args(nfs_lock_type4.WRITE_LT, false, 0, 100, newLocker))
                    .putfh(dir).lookup("missing").build();
            CompoundResult txn = new CompoundResult(args, connection.compound(NfsConnection.PROC_COMPOUND_TXN, args,
                    connection.credential()));

            assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
            assertThat(txn.statusOf(OP_LOCK)).as("the LOCK ran inside the transaction").isEqualTo(NfsStatus.OK);
            assertThat(theyTestWriteLock(file.fileHandle(), 0, 100)).as("the lock is released")
                    .isEqualTo(NfsStatus.OK);
            assertThat(theyOpenForWriting()).as("the upgrade to deny WRITE is undone").isEqualTo(NfsStatus.OK);
            CompoundResult read = c40.execute(new CompoundBuilder().putfh(fh).read(open, 0, 10));
            assertThat(read.status()).as("the open stateid of before reads: %s", read).isEqualTo(NfsStatus.OK);
        }
    }

    @Test
    void stateRestoreFailuresAreAMeterThatCleanRollbacksLeaveAtZero() throws IOException, InterruptedException {
        openUpgradeToDenyWriteIsUndoneByRollback();

        java.net.http.HttpResponse<String> scraped = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.metricsPort()
                        + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        String line = scraped.body().lines().filter(l -> l.startsWith("tcnfs_txn_state_restore_failures_total "))
                .findFirst().orElse("missing");
        assertThat(line).as("in %s", scraped.body()).isEqualTo("tcnfs_txn_state_restore_failures_total 0.0");
    }
}
