package org.tcnfs.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_DELEGPURGE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ILLEGAL;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LAYOUTGET;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTROOTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SEQUENCE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.RENEW4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * What {@link OperationFuzzIT} found, one test per finding, through the wire (docs/fuzzing.md lists them). Each
 * failed on the code before its fix.
 */
class OperationFuzzFindingsIT extends SharedServerTest {

    /**
     * Before: a rollback restored the times of the FIFO with {@code BasicFileAttributeView.setTimes}, which opens
     * the FIFO for reading first and waits for a writer: the compound never got its reply, its locks stayed held,
     * and the server ignored SIGTERM.
     */
    @Test
    void aFailedTransactionThatSetTheTimesOfAFifoRollsBackWithoutWaitingForAWriter() throws Exception {
        try (NfsConnection connection = server.connect(AuthSys.ROOT, Duration.ofSeconds(20));
                Nfs41Session session = Nfs41Session.create(connection, "fifo-undo")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "fifo-undo");
            nfs.runOk(new CompoundBuilder().putfh(dir)
                    .create(new CREATE4args(new createtype4(nfs_ftype4.NF4FIFO), "p", Attrs.builder().build())));
            Path fifo = server.exportDir().resolve("fifo-undo").resolve("p");
            FileTime before = Files.getLastModifiedTime(fifo, LinkOption.NOFOLLOW_LINKS);

            CompoundResult r = session.executeTransaction(new CompoundBuilder().putfh(dir).lookup("p")
                    .setattr(Attrs.builder().timeModifySet(1_000_000_000L, 0).build())
                    .putfh(dir).lookup("missing"));

            assertThat(r.status()).isEqualTo(NfsStatus.NOENT);
            assertThat(Files.getLastModifiedTime(fifo, LinkOption.NOFOLLOW_LINKS)).isEqualTo(before);
            assertThat(server.metric("tcnfs_txn_lock_keys")).isZero();
            assertThat(server.metric("tcnfs_txn_undo_failures_total")).isZero();
        }
    }

    /** Before: DELEGPURGE, LAYOUTGET and the like were answered as ILLEGAL (NFS4ERR_OP_ILLEGAL). */
    @Test
    void aDefinedOperationTheServerDoesNotImplementIsNotSuppAtItsPosition() throws Exception {
        try (ItSession s = ItSession.open(server, "notsupp")) {
            for (int op : new int[] {OP_DELEGPURGE, OP_LAYOUTGET}) {
                CompoundResult r = s.session().execute(new CompoundBuilder().putrootfh()
                        .op(op, new RENEW4args(s.session().clientId())).putrootfh());
                nfs_resop4[] results = r.response().resarray;
                assertThat(results).hasSize(3);
                assertThat(results[0].resop).isEqualTo(OP_SEQUENCE);
                assertThat(results[1].resop).isEqualTo(OP_PUTROOTFH);
                assertThat(results[2].resop).isEqualTo(op);
                assertThat(r.status()).isEqualTo(NfsStatus.NOTSUPP);
            }
        }
    }

    /**
     * Before: in a transactional compound that cannot start (no PUTFH first), the refusal (NFS4ERR_NOTSUPP) took the
     * place of the ILLEGAL operation's own status.
     */
    @Test
    void anIllegalOperationIsOpIllegalAlsoWhereATransactionCannotStart() throws Exception {
        try (ItSession s = ItSession.open(server, "illegal")) {
            for (int opnum : new int[] {2, 72, OP_ILLEGAL}) {
                CompoundResult r = s.session().executeTransaction(new CompoundBuilder().op(opnum, null));
                nfs_resop4[] results = r.response().resarray;
                assertThat(results).hasSize(2);
                assertThat(results[1].resop).as("opnum %d", opnum).isEqualTo(OP_ILLEGAL);
                assertThat(r.status()).as("opnum %d", opnum).isEqualTo(NfsStatus.OP_ILLEGAL);
            }
        }
    }

    /**
     * The first guess at the open finding of seed 4 (docs/fuzzing.md): a transaction opens a second name of a file
     * (a hard link), writes through it with the all-ones stateid across two pages, then fails; the bytes it
     * overwrote must come back under both names. A guard: it passes, so seed 4's case is another shape.
     */
    @Test
    void aFailedTransactionThatWroteThroughAHardLinkLeavesTheBytesOfBothNamesAsTheyWere() throws Exception {
        try (ItSession s = ItSession.open(server, "link-undo")) {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "link-undo");
            Path a = server.exportDir().resolve("link-undo").resolve("a");
            byte[] before = writeRandomBytes(a, 9343, 4);
            nfs.runOk(new CompoundBuilder().putfh(dir).lookup("a").savefh().putfh(dir).link("d"));
            byte[] data = written(4328);

            CompoundResult r = s.session().executeTransaction(new CompoundBuilder().putfh(dir)
                    .openExisting(s.session().clientId(), "o".getBytes(java.nio.charset.StandardCharsets.UTF_8), "d",
                            OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                    .getfh().write(readBypassStateid(), 3371, data).putfh(dir).lookup("missing"));

            assertThat(r.status()).isEqualTo(NfsStatus.NOENT);
            assertThat(Files.readAllBytes(a)).as("a after the rollback").isEqualTo(before);
            assertThat(Files.readAllBytes(a.resolveSibling("d"))).as("d after the rollback").isEqualTo(before);
        }
    }

    /**
     * A guard from the analysis of seed 5's open finding (docs/fuzzing.md): a WRITE across a page boundary with the
     * all-ones or the anonymous stateid, then a failure, puts the bytes back. It passes: the finding needs more
     * than this shape (the state earlier compounds of the run left on the file, docs/fuzzing.md).
     */
    @Test
    void aFailedTransactionThatWroteAcrossAPageBoundaryPutsTheBytesBack() throws Exception {
        try (ItSession s = ItSession.open(server, "page-undo")) {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "page-undo");
            Path f = server.exportDir().resolve("page-undo").resolve("f");
            byte[] before = writeRandomBytes(f, 10038, 5);
            for (stateid4 stateid : new stateid4[] {readBypassStateid(), CompoundBuilder.anonymousStateid()}) {
                byte[] data = written(28);
                CompoundResult r = s.session().executeTransaction(new CompoundBuilder().putfh(dir).lookup("f")
                        .write(stateid, 4095, data).putfh(dir).lookup("missing"));

                assertThat(r.status()).isEqualTo(NfsStatus.NOENT);
                assertThat(Files.readAllBytes(f)).as("f after the rollback").isEqualTo(before);
            }
        }
    }

    @Test
    void aFailedTransactionPutsBackTheBytesOfAFileWhoseFirstNameWasLinkedElsewhereAndRemoved() throws Exception {
        try (ItSession s = ItSession.open(server, "moved-undo")) {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "moved-undo");
            byte[] file = nfs.createFile(dir, "a", new byte[1]);
            Path f = server.exportDir().resolve("moved-undo").resolve("\u00e9t\u00e9");
            byte[] before = writeRandomBytes(server.exportDir().resolve("moved-undo").resolve("a"), 10038, 5);
            nfs.runOk(new CompoundBuilder().putfh(file).savefh().putfh(dir).link("\u00e9t\u00e9").remove("a"));
            byte[] data = written(28);

            CompoundResult r = s.session().executeTransaction(new CompoundBuilder().putfh(file)
                    .write(readBypassStateid(), 4095, data).putfh(dir).lookup("missing"));

            assertThat(r.status()).isEqualTo(NfsStatus.NOENT);
            assertThat(Files.readAllBytes(f)).as("the file under its second name after the rollback").isEqualTo(before);
        }
    }

    /**
     * A plain REMOVE's row leaves the handle table up to a second after the name (docs/durability.md, "Plain REMOVE:
     * the row goes later"). Before, in that second the planner took the handle of a file a client held open for the
     * object at its removed path: a transaction through it was planned and ran (its WRITE changed the open file)
     * where, a second later, the same compound is refused with NFS4ERR_NOTSUPP (the test above). Now the planner
     * treats a handle whose every name waits for removal as one with no name. The server's background flush waits
     * 4 s, so that the compounds run inside that window.
     */
    @Test
    void aTransactionThroughTheHandleOfAnOpenFileAPlainRemoveJustRemovedIsRefusedAsOnceItsRowIsGone()
            throws Exception {
        try (ServerProcess late = ServerProcess.start(List.of("-Dtcnfs.test.late-delay-ms=4000"));
                ItSession s = ItSession.open(late, "removed-open-window")) {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "removed-open-window");
            CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir).openCreate(s.session().clientId(),
                    nfs.openOwner(), "d", OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().build()).getfh());
            byte[] d = opened.fileHandle();
            stateid4 stateid = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            nfs.runOk(new CompoundBuilder().putfh(d).write(stateid, 0, "0123456789".getBytes(UTF_8)));
            late.awaitNoLateWork();
            nfs.runOk(new CompoundBuilder().putfh(dir).remove("d"));
            assertThat(late.metric("tcnfs_late_pending")).as("d's row waits for the background flush").isEqualTo(1);

            CompoundResult failing = s.session().executeTransaction(new CompoundBuilder().putfh(dir).putfh(d)
                    .write(stateid, 0, "zz".getBytes(UTF_8)).putfh(dir).lookup("missing"));
            CompoundResult txn = s.session().executeTransaction(new CompoundBuilder().putfh(dir).putfh(d)
                    .write(stateid, 4, "yy".getBytes(UTF_8)));
            CompoundResult read = nfs.run(new CompoundBuilder().putfh(d).read(stateid, 0, 100));

            assertThat(late.metric("tcnfs_late_pending")).as("still inside the window").isEqualTo(1);
            assertThat(failing.status()).as("%s", failing).isEqualTo(NfsStatus.NOTSUPP);
            assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOTSUPP);
            assertThat(read.status()).as("%s", read).isEqualTo(NfsStatus.OK);
            assertThat(UTF_8.decode(read.body(OP_READ, READ4resok.class).data.duplicate()).toString())
                    .as("what the open file holds").isEqualTo("0123456789");
            nfs.runOk(new CompoundBuilder().putfh(d).close(stateid));
        }
    }

    /**
     * Before: a compound that named, by its handle, a file that lost its last name while a client held it open
     * (RFC 8881 18.26.4: the open's state outlives the name) was answered NFS4ERR_DELAY at the operation after that
     * PUTFH, with no other compound about, every time it was sent (OperationFuzzIT seed 3: {@code PUTFH(home)
     * PUTFH(d) SAVEFH ...}, also with {@code READ}, {@code RENAME}). The handle table no longer knows the handle, so
     * the planner took it for a stale one, planned the compound to end at its PUTFH and locked nothing beyond it;
     * PUTFH accepts the handle of an open file, and the next operation ran past the plan's end. Now a plain compound
     * that reaches such a file runs under WRITE locks of the whole export and gets the operations' own results; a
     * transaction is refused with NFS4ERR_NOTSUPP before anything runs (its undo has no name to restore the file
     * under); once the file is closed its handle is NFS4ERR_STALE.
     */
    @Test
    void aCompoundThatUsesAFileRemovedWhileOpenGetsItsOperationsResultsNotDelay() throws Exception {
        try (ItSession s = ItSession.open(server, "removed-open-delay")) {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "removed-open-delay");
            for (String how : new String[] {"full-path transaction", "plain REMOVE"}) {
                CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir).openCreate(s.session().clientId(),
                        nfs.openOwner(), "d", OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().build()).getfh());
                byte[] d = opened.fileHandle();
                stateid4 stateid = opened.body(OP_OPEN, OPEN4resok.class).stateid;
                nfs.runOk(new CompoundBuilder().putfh(d).write(stateid, 0, "0123456789".getBytes(UTF_8)));
                if (how.equals("plain REMOVE")) {
                    nfs.runOk(new CompoundBuilder().putfh(dir).remove("d"));
                    Thread.sleep(3_000); // the handle table drops the row at most a second later (LateDurability)
                } else {
                    // two changes: the full path, whose commit drops the row at once
                    CompoundResult removed = s.session().executeTransaction(new CompoundBuilder().putfh(dir)
                            .remove("d").putfh(dir).mkdir("x"));
                    assertThat(removed.status()).as("%s", removed).isEqualTo(NfsStatus.OK);
                    nfs.runOk(new CompoundBuilder().putfh(dir).remove("x"));
                }

                CompoundResult write = nfs.run(new CompoundBuilder().putfh(dir).putfh(d)
                        .write(stateid, 10, "abc".getBytes(UTF_8)).getattr(FATTR4_SIZE));
                assertThat(write.status()).as("%s: plain WRITE of the removed, open file: %s", how, write)
                        .isEqualTo(NfsStatus.OK);
                assertThat(Attrs.decode(write.body(OP_GETATTR, GETATTR4resok.class).obj_attributes).size())
                        .isEqualTo(13);
                CompoundResult renameFromAFile = nfs.run(new CompoundBuilder().putfh(dir).putfh(d).savefh()
                        .putfh(dir).rename("b", "c"));
                assertThat(renameFromAFile.status()).as("%s: RENAME from a file, not a directory: %s", how,
                        renameFromAFile).isEqualTo(NfsStatus.NOTDIR);
                CompoundResult renameIntoAFile = nfs.run(new CompoundBuilder().putfh(dir).savefh().putfh(d)
                        .rename("b", "c"));
                assertThat(renameIntoAFile.status()).as("%s: RENAME into a file, not a directory: %s", how,
                        renameIntoAFile).isEqualTo(NfsStatus.NOTDIR);
                CompoundResult txn = s.session().executeTransaction(new CompoundBuilder().putfh(dir)
                        .putfh(d).write(stateid, 0, "zz".getBytes(UTF_8)));
                assertThat(txn.status()).as("%s: transactional WRITE of the removed, open file: %s", how, txn)
                        .isEqualTo(NfsStatus.NOTSUPP);
                CompoundResult read = nfs.run(new CompoundBuilder().putfh(d).read(stateid, 0, 100).putfh(dir)
                        .mkdir("y"));
                assertThat(read.status()).as("%s: %s", how, read).isEqualTo(NfsStatus.OK);
                ByteBuffer bytes = read.body(OP_READ, READ4resok.class).data.duplicate();
                assertThat(UTF_8.decode(bytes).toString()).as("%s: what the file holds", how)
                        .isEqualTo("0123456789abc");

                nfs.runOk(new CompoundBuilder().putfh(d).close(stateid));
                CompoundResult afterClose = nfs.run(new CompoundBuilder().putfh(dir).putfh(d).savefh()
                        .putfh(dir).rename("b", "c"));
                assertThat(afterClose.status()).as("%s: after CLOSE: %s", how, afterClose).isEqualTo(NfsStatus.STALE);
                CompoundResult txnAfterClose = s.session().executeTransaction(new CompoundBuilder().putfh(dir)
                        .putfh(d).write(stateid, 0, "zz".getBytes(UTF_8)));
                assertThat(txnAfterClose.status()).as("%s: after CLOSE: %s", how, txnAfterClose)
                        .isEqualTo(NfsStatus.STALE);
                nfs.runOk(new CompoundBuilder().putfh(dir).remove("y"));
            }
            assertThat(server.metric("tcnfs_txn_lock_keys")).isZero();
        }
    }

    @Test
    void aTransactionWhoseNfs40OpenIsARetransmissionWritesAndRollsBackTheFileThatOpenMadeCurrent() throws Exception {
        byte[] dir;
        try (ItSession s = ItSession.open(server, "retransmitted-open")) {
            dir = s.nfs().mkdir(s.nfs().rootFh(), "retransmitted-open");
        }
        Path d = server.exportDir().resolve("retransmitted-open").resolve("d");
        Path a = server.exportDir().resolve("retransmitted-open").resolve("a");
        try (NfsConnection connection = server.connect()) {
            Nfs40Client c40 = Nfs40Client.create(connection, "retransmitted-open");
            c40.openCreate(dir, "first");
            byte[] before = writeRandomBytes(d, 13214, 7);
            int seqid = c40.seqid();
            c40.executeSequenced(new CompoundBuilder().putfh(dir).openNfs40(seqid, c40.clientId(), c40.openOwner(),
                    "d", OPEN4args.OPEN4_SHARE_ACCESS_BOTH, null)).orThrow();
            byte[] data = written(3398);

            // the same seqid again: a retransmission of the OPEN of d, whatever name it carries now
            COMPOUND4args args = new CompoundBuilder().minorVersion(0).putfh(dir)
                    .openNfs40(seqid, c40.clientId(), c40.openOwner(), "a", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()))
                    .getfh().write(CompoundBuilder.anonymousStateid(), 5466, data).putfh(dir).lookup("missing")
                    .build();
            CompoundResult txn = new CompoundResult(args, connection.compound(NfsConnection.PROC_COMPOUND_TXN, args,
                    connection.credential()));

            assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
            assertThat(txn.statusOf(OP_WRITE)).as("the WRITE ran, on d").isEqualTo(NfsStatus.OK);
            assertThat(Files.readAllBytes(d)).as("d after the rollback").isEqualTo(before);
            assertThat(a).as("a retransmitted OPEN creates nothing").doesNotExist();

            CompoundResult plain = c40.execute(new CompoundBuilder().putfh(dir)
                    .openNfs40(seqid, c40.clientId(), c40.openOwner(), "a", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()))
                    .getfh().write(CompoundBuilder.anonymousStateid(), 0, data));
            assertThat(plain.status()).as("%s", plain).isEqualTo(NfsStatus.OK);
            assertThat(Files.readAllBytes(d)).as("a plain compound writes d, the file the retransmission made current")
                    .startsWith(data);
            assertThat(a).doesNotExist();
        }
    }

    /**
     * Before: an NFSv4.0 compound with two OPENs of one open owner, each with the seqid that follows the owner's last,
     * was planned with the owner's sequence as it was before the compound: neither a retransmission. The first OPEN
     * ran and made the second a retransmission of it, against the plan, and the second got NFS4ERR_DELAY, every time
     * (OperationFuzzIT seed 4, compound 2,394, once OPEN retransmissions were planned). Now a compound with an OPEN
     * after an operation that carries a seqid is not plannable: a plain one locks every export whole and gets its
     * results, a transaction is refused with NFS4ERR_NOTSUPP before anything runs.
     */
    @Test
    void anNfs40OpenThatAnEarlierOpenOfTheCompoundMakesARetransmissionIsNeverDelayed() throws Exception {
        byte[] dir;
        try (ItSession s = ItSession.open(server, "two-opens")) {
            dir = s.nfs().mkdir(s.nfs().rootFh(), "two-opens");
        }
        try (NfsConnection connection = server.connect()) {
            Nfs40Client c40 = Nfs40Client.create(connection, "two-opens");
            c40.openCreate(dir, "first");
            int seqid = c40.seqid();
            for (boolean transaction : new boolean[] {true, false}) {
                COMPOUND4args args = new CompoundBuilder().minorVersion(0).putfh(dir)
                        .openNfs40(seqid, c40.clientId(), c40.openOwner(), "a", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()))
                        .putfh(dir)
                        .openNfs40(seqid, c40.clientId(), c40.openOwner(), "a", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()))
                        .getfh().build();
                CompoundResult r = new CompoundResult(args, connection.compound(
                        transaction ? NfsConnection.PROC_COMPOUND_TXN : NfsConnection.PROC_COMPOUND, args,
                        connection.credential()));

                assertThat(r.status()).as("transaction %s: %s", transaction, r)
                        .isEqualTo(transaction ? NfsStatus.NOTSUPP : NfsStatus.OK);
                assertThat(server.exportDir().resolve("two-opens").resolve("a").toFile().exists())
                        .as("transaction %s: a", transaction).isEqualTo(!transaction);
            }
        }
    }

    /** {@code length} bytes of 0x5a: what the tests' WRITEs put over the bytes they check are put back. */
    private static byte[] written(int length) {
        byte[] data = new byte[length];
        java.util.Arrays.fill(data, (byte) 0x5a);
        return data;
    }

    /** Writes {@code size} bytes drawn from {@code seed} to {@code file} beside the server; returns them. */
    private static byte[] writeRandomBytes(Path file, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new java.util.Random(seed).nextBytes(bytes);
        Files.write(file, bytes);
        return bytes;
    }

    /** The READ bypass stateid (all bits one, RFC 8881 section 8.2.3), which a WRITE treats as anonymous. */
    private static stateid4 readBypassStateid() {
        byte[] ones = new byte[12];
        java.util.Arrays.fill(ones, (byte) 0xff);
        return new stateid4(0xffffffff, ones);
    }
}
