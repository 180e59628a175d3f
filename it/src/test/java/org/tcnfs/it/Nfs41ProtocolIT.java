package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.TestData.randomBytes;
import static org.tcnfs.it.TestData.sha256;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_NUMLINKS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOCK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOCKT;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READLINK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SEQUENCE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RawRpcSocket;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.LOCK4denied;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READLINK4resok;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * The NFSv4.1 protocol of the real server process, through the Java client: data, directories, the
 * namespace operations, attributes, byte-range locks, handles across a crash, the reply cache, and bad
 * input (RFC 8881; DESIGN.md "Handles" and "Reliability targets"). Each test works in a directory of
 * its own under the export root; one server serves the class, except where a test restarts it.
 */
class Nfs41ProtocolIT extends SharedServerTest {
    private ItSession itSession;
    private NfsOps nfs;
    private byte[] dir;

    @BeforeEach
    void openSessionAndTestDirectory(TestInfo test) throws IOException {
        itSession = ItSession.open(server, "it");
        nfs = itSession.nfs();
        dir = nfs.mkdir(nfs.rootFh(), test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void closeSession() throws IOException {
        if (itSession != null) {
            itSession.close();
        }
    }

    private String serverOutput() {
        return "\n--- server output ---\n" + server.output();
    }

    // ---- data

    @Test
    void fileWrittenThroughTheJavaClientReadsBackWithSameChecksum() throws IOException {
        int[] sizes = {0, 1, 4095, 4097, NfsOps.IO_SIZE - 1, NfsOps.IO_SIZE, NfsOps.IO_SIZE + 1, 9 * NfsOps.IO_SIZE + 7};
        for (int size : sizes) {
            byte[] data = randomBytes(size, size);
            byte[] fh = nfs.createFile(dir, "f" + size, data);

            assertThat(nfs.getattr(fh, FATTR4_SIZE).size()).as("size of f%d", size).isEqualTo(size);
            assertThat(sha256(nfs.read(fh))).as("content of f%d", size).isEqualTo(sha256(data));
        }
    }

    @Test
    void writeInTheMiddleOfAFileReplacesOnlyThatRange() throws IOException {
        byte[] data = randomBytes(3 * NfsOps.IO_SIZE, 1);
        byte[] fh = nfs.createFile(dir, "f", data);
        CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                .openExisting(nfs.session().clientId(), nfs.openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_WRITE));
        stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
        byte[] patch = randomBytes(70_000, 2);

        nfs.write(fh, open, NfsOps.IO_SIZE - 13, patch);
        nfs.runOk(new CompoundBuilder().putfh(fh).close(open));

        System.arraycopy(patch, 0, data, NfsOps.IO_SIZE - 13, patch.length);
        assertThat(sha256(nfs.read(fh))).isEqualTo(sha256(data));
    }

    // ---- directories

    @Test
    void readdirOf10000EntriesReturnsEveryNameOnce() throws IOException {
        List<String> expected = new ArrayList<>();
        CompoundBuilder batch = new CompoundBuilder();
        for (int i = 0; i < 10_000; i++) {
            String name = String.format("entry-%05d", i);
            expected.add(name);
            batch.putfh(dir).openCreate(nfs.session().clientId(), nfs.openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_WRITE,
                    Attrs.builder().mode(0644).build()).close(CompoundBuilder.currentStateid());
            if (batch.size() >= 300) {
                nfs.runOk(batch);
                batch = new CompoundBuilder();
            }
        }
        if (batch.size() > 0) {
            nfs.runOk(batch);
        }

        List<String> names = nfs.readdirNames(dir);

        assertThat(new HashSet<>(names)).as("distinct names").hasSameSizeAs(names);
        assertThat(names).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void renameMovesAnEntryBetweenDirectoriesAndKeepsItsHandle() throws IOException {
        byte[] a = nfs.mkdir(dir, "a");
        byte[] b = nfs.mkdir(dir, "b");
        byte[] fh = nfs.createFile(a, "x", "content".getBytes(StandardCharsets.UTF_8));
        long fileid = nfs.getattr(fh, FATTR4_FILEID).fileid();

        nfs.runOk(new CompoundBuilder().putfh(a).savefh().putfh(b).rename("x", "y"));

        assertThat(nfs.run(new CompoundBuilder().putfh(a).lookup("x")).statusOf(OP_LOOKUP)).isEqualTo(NfsStatus.NOENT);
        byte[] moved = nfs.lookup(b, "y");
        assertThat(nfs.getattr(moved, FATTR4_FILEID).fileid()).isEqualTo(fileid);
        assertThat(nfs.read(fh)).as("the old handle still reaches the file").isEqualTo("content".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void renameOntoAnExistingFileReplacesIt() throws IOException {
        nfs.createFile(dir, "src", "new".getBytes(StandardCharsets.UTF_8));
        nfs.createFile(dir, "dst", "old".getBytes(StandardCharsets.UTF_8));

        nfs.runOk(new CompoundBuilder().putfh(dir).savefh().rename("src", "dst"));

        assertThat(nfs.readdirNames(dir)).containsExactly("dst");
        assertThat(nfs.read(nfs.lookup(dir, "dst"))).isEqualTo("new".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void linkGivesTheFileASecondName() throws IOException {
        byte[] fh = nfs.createFile(dir, "orig", "shared".getBytes(StandardCharsets.UTF_8));

        nfs.runOk(new CompoundBuilder().putfh(fh).savefh().putfh(dir).link("second"));

        Attrs orig = nfs.getattr(fh, FATTR4_FILEID, FATTR4_NUMLINKS);
        Attrs second = nfs.getattr(nfs.lookup(dir, "second"), FATTR4_FILEID, FATTR4_NUMLINKS);
        assertThat(second.fileid()).isEqualTo(orig.fileid());
        assertThat(orig.numlinks()).isEqualTo(2);
        nfs.runOk(new CompoundBuilder().putfh(dir).remove("orig"));
        assertThat(nfs.getattr(fh, FATTR4_NUMLINKS).numlinks()).isEqualTo(1);
        assertThat(nfs.read(fh)).isEqualTo("shared".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void symlinkReadsBackItsTarget() throws IOException {
        CompoundResult created = nfs.runOk(new CompoundBuilder().putfh(dir).symlink("sym", "../some/target").getfh()
                .readlink());

        assertThat(new String(created.body(OP_READLINK, READLINK4resok.class).link, StandardCharsets.UTF_8))
                .isEqualTo("../some/target");
        assertThat(nfs.getattr(created.fileHandle(), FATTR4_TYPE).type()).isEqualTo(nfs_ftype4.NF4LNK);
        assertThat(nfs.getattr(nfs.lookup(dir, "sym"), FATTR4_TYPE).type()).as("LOOKUP does not follow links")
                .isEqualTo(nfs_ftype4.NF4LNK);
    }

    @Test
    void removeDeletesAFileAndAnEmptyDirectoryButNotAFullOne() throws IOException {
        nfs.createFile(dir, "file", new byte[10]);
        nfs.mkdir(dir, "empty");
        byte[] full = nfs.mkdir(dir, "full");
        nfs.mkdir(full, "inner");

        nfs.runOk(new CompoundBuilder().putfh(dir).remove("file").remove("empty"));
        CompoundResult refused = nfs.run(new CompoundBuilder().putfh(dir).remove("full"));
        CompoundResult missing = nfs.run(new CompoundBuilder().putfh(dir).remove("file"));

        assertThat(refused.statusOf(OP_REMOVE)).isEqualTo(NfsStatus.NOTEMPTY);
        assertThat(missing.statusOf(OP_REMOVE)).isEqualTo(NfsStatus.NOENT);
        assertThat(nfs.readdirNames(dir)).containsExactly("full");
    }

    @Test
    void setattrChangesModeAndTruncatesAndExtendsWithZeros() throws IOException {
        byte[] data = randomBytes(10_000, 3);
        byte[] fh = nfs.createFile(dir, "f", data);

        nfs.runOk(new CompoundBuilder().putfh(fh).setattr(Attrs.builder().mode(0640).build()));
        assertThat(nfs.getattr(fh, FATTR4_MODE).mode() & 07777).isEqualTo(0640);

        nfs.runOk(new CompoundBuilder().putfh(fh).setattr(Attrs.builder().size(100).build()));
        assertThat(nfs.read(fh)).isEqualTo(java.util.Arrays.copyOf(data, 100));

        nfs.runOk(new CompoundBuilder().putfh(fh).setattr(Attrs.builder().size(5000).build()));
        assertThat(nfs.getattr(fh, FATTR4_SIZE).size()).isEqualTo(5000);
        assertThat(nfs.read(fh)).isEqualTo(java.util.Arrays.copyOf(java.util.Arrays.copyOf(data, 100), 5000));
    }

    /**
     * libnfs sends SETATTR mode with the file-type bits (0100644, 040755), as {@code tar -x} and
     * {@code chmod} through it do; the server uses the permission bits, like knfsd and NFS-Ganesha
     * (issue 16), and the type stays.
     */
    @Test
    void setattrModeWithFileTypeBitsSetsThePermissionBits() throws IOException {
        byte[] file = nfs.createFile(dir, "typed-file", new byte[] {1});
        byte[] sub = nfs.mkdir(dir, "typed-dir");

        nfs.runOk(new CompoundBuilder().putfh(file).setattr(Attrs.builder().mode(0600).build()));
        nfs.runOk(new CompoundBuilder().putfh(sub).setattr(Attrs.builder().mode(0700).build()));

        nfs.runOk(new CompoundBuilder().putfh(file).setattr(Attrs.builder().mode(0100644).build()));
        nfs.runOk(new CompoundBuilder().putfh(sub).setattr(Attrs.builder().mode(040755).build()));

        assertThat(nfs.getattr(file, FATTR4_MODE, FATTR4_TYPE).mode()).isEqualTo(0644);
        assertThat(nfs.getattr(file, FATTR4_MODE, FATTR4_TYPE).type()).isEqualTo(nfs_ftype4.NF4REG);
        assertThat(nfs.getattr(sub, FATTR4_MODE, FATTR4_TYPE).mode()).isEqualTo(0755);
        assertThat(nfs.getattr(sub, FATTR4_MODE, FATTR4_TYPE).type()).isEqualTo(nfs_ftype4.NF4DIR);
    }

    // ---- locks (RFC 8881 section 12 and 18.10)

    @Test
    void writeLockOfOneSessionIsDeniedToAnotherUntilUnlocked() throws IOException {
        byte[] fh = nfs.createFile(dir, "locked", new byte[1000]);
        try (NfsConnection otherConnection = server.connect();
                Nfs41Session other = Nfs41Session.create(otherConnection, "it-other")) {
            NfsOps them = new NfsOps(other);
            stateid4 mine = openForLocking(nfs, "locked");
            stateid4 theirs = openForLocking(them, "locked");
            byte[] myLockOwner = "lock-owner-one".getBytes(StandardCharsets.UTF_8);
            byte[] theirLockOwner = "lock-owner-two".getBytes(StandardCharsets.UTF_8);

            CompoundResult locked = nfs.runOk(new CompoundBuilder().putfh(fh)
                    .lockNewOwner(nfs_lock_type4.WRITE_LT, 0, 100, mine, nfs.session().clientId(), myLockOwner));
            stateid4 myLock = locked.body(OP_LOCK, LOCK4resok.class).lock_stateid;

            CompoundResult denied = them.run(new CompoundBuilder().putfh(fh)
                    .lockNewOwner(nfs_lock_type4.WRITE_LT, 50, 10, theirs, other.clientId(), theirLockOwner));
            assertThat(denied.statusOf(OP_LOCK)).isEqualTo(NfsStatus.DENIED);
            LOCK4denied holder = denied.body(OP_LOCK, LOCK4denied.class);
            assertThat(holder.owner.owner).as("the holder's owner").isEqualTo(myLockOwner);
            assertThat(holder.owner.clientid).isEqualTo(nfs.session().clientId());
            assertThat(holder.offset).isZero();
            assertThat(holder.length).isEqualTo(100);
            assertThat(holder.locktype).isEqualTo(nfs_lock_type4.WRITE_LT);

            CompoundResult tested = them.run(new CompoundBuilder().putfh(fh)
                    .lockt(nfs_lock_type4.READ_LT, 99, 1, other.clientId(), theirLockOwner));
            assertThat(tested.statusOf(OP_LOCKT)).isEqualTo(NfsStatus.DENIED);
            CompoundResult beyond = them.run(new CompoundBuilder().putfh(fh)
                    .lockt(nfs_lock_type4.WRITE_LT, 100, 10, other.clientId(), theirLockOwner));
            assertThat(beyond.statusOf(OP_LOCKT)).as("a range after the lock").isEqualTo(NfsStatus.OK);

            nfs.runOk(new CompoundBuilder().putfh(fh).locku(nfs_lock_type4.WRITE_LT, myLock, 0, 100));
            CompoundResult granted = them.run(new CompoundBuilder().putfh(fh)
                    .lockNewOwner(nfs_lock_type4.WRITE_LT, 50, 10, theirs, other.clientId(), theirLockOwner));
            assertThat(granted.statusOf(OP_LOCK)).as(granted.toString()).isEqualTo(NfsStatus.OK);
        }
    }

    @Test
    void readLocksOfTwoSessionsOnTheSameRangeAreBothGranted() throws IOException {
        byte[] fh = nfs.createFile(dir, "shared", new byte[100]);
        try (NfsConnection otherConnection = server.connect();
                Nfs41Session other = Nfs41Session.create(otherConnection, "it-other")) {
            NfsOps them = new NfsOps(other);
            stateid4 mine = openForLocking(nfs, "shared");
            stateid4 theirs = openForLocking(them, "shared");

            nfs.runOk(new CompoundBuilder().putfh(fh)
                    .lockNewOwner(nfs_lock_type4.READ_LT, 0, -1, mine, nfs.session().clientId(), new byte[] {1}));
            CompoundResult second = them.run(new CompoundBuilder().putfh(fh)
                    .lockNewOwner(nfs_lock_type4.READ_LT, 0, -1, theirs, other.clientId(), new byte[] {2}));
            CompoundResult writer = them.run(new CompoundBuilder().putfh(fh)
                    .lockt(nfs_lock_type4.WRITE_LT, 0, 1, other.clientId(), new byte[] {3}));

            assertThat(second.statusOf(OP_LOCK)).isEqualTo(NfsStatus.OK);
            assertThat(writer.statusOf(OP_LOCKT)).isEqualTo(NfsStatus.DENIED);
        }
    }

    private stateid4 openForLocking(NfsOps ops, String name) throws IOException {
        return ops.runOk(new CompoundBuilder().putfh(dir).openExisting(ops.session().clientId(), ops.openOwner(), name,
                OPEN4args.OPEN4_SHARE_ACCESS_BOTH)).body(OP_OPEN, OPEN4resok.class).stateid;
    }

    // ---- handles (DESIGN.md "Handles")

    @Test
    void handlesStayValidAcrossAKillAndRestart() throws IOException {
        try (ServerProcess own = ServerProcess.start()) {
            byte[] dirFh;
            byte[] fileFh;
            long fileid;
            byte[] data = randomBytes(200_000, 4);
            try (NfsConnection c = own.connect(); Nfs41Session s = Nfs41Session.create(c, "before-crash")) {
                NfsOps ops = new NfsOps(s);
                dirFh = ops.mkdir(ops.rootFh(), "kept");
                fileFh = ops.createFile(dirFh, "file", data);
                fileid = ops.getattr(fileFh, FATTR4_FILEID).fileid();
                own.kill();
            }

            own.restart();

            try (NfsConnection c = own.connect(); Nfs41Session s = Nfs41Session.create(c, "after-crash")) {
                NfsOps ops = new NfsOps(s);
                CompoundResult r = ops.run(new CompoundBuilder().putfh(fileFh).getattr(FATTR4_FILEID, FATTR4_SIZE));
                assertThat(r.status()).as("PUTFH of a handle from before the crash: %s%s", r,
                        "\n" + own.output()).isEqualTo(NfsStatus.OK);
                assertThat(ops.getattr(fileFh, FATTR4_FILEID).fileid()).isEqualTo(fileid);
                assertThat(sha256(ops.read(fileFh))).isEqualTo(sha256(data));
                assertThat(ops.lookup(dirFh, "file")).isEqualTo(fileFh);
            }
        }
    }

    @Test
    void unknownSixteenByteHandleIsStale() throws IOException {
        byte[] forged = new byte[16];
        new SecureRandom().nextBytes(forged);

        CompoundResult r = nfs.run(new CompoundBuilder().putfh(forged).getattr(FATTR4_TYPE));

        assertThat(r.status()).as(r.toString()).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void malformedHandleIsBadHandle() throws IOException {
        for (byte[] malformed : new byte[][] {new byte[0], {1, 2, 3}, new byte[17], new byte[128]}) {
            CompoundResult r = nfs.run(new CompoundBuilder().putfh(malformed).getattr(FATTR4_TYPE));

            assertThat(r.statusOf(OP_PUTFH)).as("PUTFH of %d bytes: %s", malformed.length, r)
                    .isEqualTo(NfsStatus.BADHANDLE);
        }
    }

    // ---- sessions (RFC 8881 section 2.10.6)

    @Test
    void retransmittedSequenceIsAnsweredFromTheReplyCache() throws IOException {
        CompoundResult first = nfs.run(new CompoundBuilder().putfh(dir).mkdir("once").getfh());
        assertThat(first.status()).as(first.toString()).isEqualTo(NfsStatus.OK);

        CompoundResult retry = nfs.session().resend(first);

        assertThat(retry.status()).as(retry.toString()).isEqualTo(NfsStatus.OK);
        assertThat(XdrBytes.encode(retry.response())).as("the retry's reply, byte for byte")
                .isEqualTo(XdrBytes.encode(first.response()));
        assertThat(nfs.readdirNames(dir)).containsExactly("once");
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("once")).status())
                .as("the session goes on after the retry").isEqualTo(NfsStatus.OK);
    }

    @Test
    void sequenceIdTwoAheadIsMisordered() throws IOException {
        int next = nfs.session().nextSequenceId(0);
        org.tcnfs.nfs4.xdr.COMPOUND4args ahead = new CompoundBuilder().sequence(nfs.session().sequence(0, next + 1))
                .putrootfh().build();

        CompoundResult r = new CompoundResult(ahead, itSession.connection().compound(ahead));

        assertThat(r.statusOf(OP_SEQUENCE)).isEqualTo(NfsStatus.SEQ_MISORDERED);
        assertThat(nfs.run(new CompoundBuilder().putrootfh()).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void compoundWithMoreOperationsThanNegotiatedIsTooManyOps() throws IOException {
        int max = nfs.session().foreChannel().ca_maxoperations;
        CompoundBuilder ops = new CompoundBuilder().putfh(dir).mkdir("never");
        while (ops.size() + 1 <= max) {
            ops.putrootfh();
        }

        CompoundResult r = nfs.run(ops);

        assertThat(r.request().argarray).hasSize(max + 1);
        assertThat(r.status()).as(r.toString()).isEqualTo(NfsStatus.TOO_MANY_OPS);
        assertThat(nfs.readdirNames(dir)).as("nothing of the refused compound ran").isEmpty();
    }

    // ---- bad input (DESIGN.md "Reliability targets")

    @Test
    void nameWithSlashIsBadCharAndNothingIsCreated() throws IOException {
        CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).mkdir("a/b"));

        assertThat(r.statusOf(OP_CREATE)).as(r.toString()).isEqualTo(NfsStatus.BADCHAR);
        assertThat(nfs.readdirNames(dir)).isEmpty();
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).lookup("a")).statusOf(OP_LOOKUP)).isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void dotAndDotDotAreRefusedAsNames() throws IOException {
        for (String name : new String[] {".", ".."}) {
            CompoundResult r = nfs.run(new CompoundBuilder().putfh(dir).mkdir(name));

            assertThat(r.status()).as("CREATE %s: %s", name, r).isIn(NfsStatus.BADNAME, NfsStatus.EXIST,
                    NfsStatus.INVAL);
        }
        assertThat(nfs.readdirNames(dir)).isEmpty();
    }

    @Test
    void malformedXdrIsGarbageArgsAndTheServerKeepsServing() throws IOException {
        byte[][] garbage = {
            {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xf0}, // a tag of 2 GiB
            {0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 0, 0, 0}, // 2^30 operations
            {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 22, 0, 0, 0, (byte) 200}, // PUTFH of 200 bytes, cut short
            {1},
        };
        for (byte[] args : garbage) {
            RawReply reply = itSession.connection().callRaw(NfsConnection.PROC_COMPOUND, args);

            assertThat(reply.acceptStatus()).as("reply to %s%s", HexFormat.of().formatHex(args), serverOutput())
                    .isEqualTo(RpcAcceptStatus.GARBAGE_ARGS);
        }
        itSession.connection().ping();
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).getattr(FATTR4_TYPE)).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void randomBytesOnAConnectionDoNotStopTheServer() throws IOException {
        Random random = new Random(5);
        for (int i = 0; i < 20; i++) {
            try (RawRpcSocket raw = RawRpcSocket.connect(server.address(), Duration.ofSeconds(2))) {
                byte[] junk = new byte[1 + random.nextInt(400)];
                random.nextBytes(junk);
                raw.sendRecord(junk);
                byte[] truncatedHeader = RawRpcSocket.callHeader(i, NfsConnection.NFS_PROGRAM, NfsConnection.NFS_V4,
                        NfsConnection.PROC_COMPOUND, AuthSys.ROOT);
                raw.sendBytes(java.util.Arrays.copyOf(truncatedHeader, 10));
            }
        }
        try (NfsConnection fresh = server.connect()) {
            fresh.ping();
        }
        itSession.connection().ping();
        assertThat(nfs.run(new CompoundBuilder().putfh(dir).getattr(FATTR4_TYPE)).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void unknownProcedureIsProcUnavail() throws IOException {
        RawReply reply = itSession.connection().callRaw(7, new byte[0]);

        assertThat(reply.acceptStatus()).isEqualTo(RpcAcceptStatus.PROC_UNAVAIL);
    }
}
