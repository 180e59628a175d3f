package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawRpcSocket;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * The NFSv4.0 protocol (RFC 7530) of the real server process, through the Java client in minor version 0:
 * client ids, open-owner seqids with replies replayed, writes of any size, which minor version has which
 * operations, and what a restart does to NFSv4.0 client ids and stateids. Each test works in a directory
 * of its own under the export root.
 */
class Nfs40ProtocolIT extends SharedServerTest {
    private static final int IO_SIZE = 1024 * 1024;

    private NfsConnection connection;
    private Nfs40Client client;
    private byte[] dir;

    @BeforeEach
    void clientAndTestDirectory(TestInfo test) throws IOException {
        connection = server.connect();
        client = Nfs40Client.create(connection, "it40");
        dir = mkdir(client, test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void closeConnection() throws IOException {
        if (connection != null) {
            connection.close();
        }
    }

    /** Sends {@code ops} with the minor version they were built with. */
    private CompoundResult send(CompoundBuilder ops) throws IOException {
        COMPOUND4args args = ops.build();
        return new CompoundResult(args, connection.compound(args));
    }

    private static byte[] mkdir(Nfs40Client c, String name) throws IOException {
        CompoundResult made = c.execute(new CompoundBuilder().putrootfh().mkdir(name).getfh());
        made.orThrow();
        return made.fileHandle();
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** WRITEs of {@code data} in 1 MiB pieces, FILE_SYNC4, under the open's stateid. */
    private static void write(Nfs40Client c, Nfs40Client.Opened file, byte[] data) throws IOException {
        for (int offset = 0; offset < data.length; offset += IO_SIZE) {
            byte[] piece = Arrays.copyOfRange(data, offset, Math.min(data.length, offset + IO_SIZE));
            CompoundResult written = c.execute(new CompoundBuilder().putfh(file.fileHandle())
                    .write(file.stateid(), offset, piece));
            written.orThrow();
            assertThat(written.body(OP_WRITE, WRITE4resok.class).count).isEqualTo(piece.length);
        }
    }

    /** READs of the whole file under {@code stateid} until EOF. */
    private static byte[] read(Nfs40Client c, byte[] fh, stateid4 stateid) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            CompoundResult r = c.execute(new CompoundBuilder().putfh(fh).read(stateid, out.size(), IO_SIZE));
            r.orThrow();
            READ4resok ok = r.body(OP_READ, READ4resok.class);
            ByteBuffer data = ok.data.duplicate();
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            out.write(bytes);
            if (ok.eof) {
                return out.toByteArray();
            }
        }
    }

    @Test
    void fileWrittenOverNfs40InPiecesOfAMebibyteReadsBackWithTheSameChecksum() throws IOException {
        byte[] data = randomBytes(16 * IO_SIZE + 5, 40);
        Nfs40Client.Opened file = client.openCreate(dir, "f");
        write(client, file, data);
        assertThat(sha256(read(client, file.fileHandle(), file.stateid()))).isEqualTo(sha256(data));
        assertThat(client.close(file).status()).isEqualTo(NfsStatus.OK);
        assertThat(sha256(read(client, file.fileHandle(), CompoundBuilder.anonymousStateid())))
                .as("read after CLOSE with the anonymous stateid").isEqualTo(sha256(data));
    }

    @Test
    void retransmittedOpenIsAnsweredWithTheOriginalReply() throws IOException {
        client.close(client.openCreate(dir, "f"));
        CompoundBuilder open = new CompoundBuilder().putfh(dir).openNfs40(client.seqid(), client.clientId(),
                client.openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_READ, null).getfh();
        CompoundResult first = client.executeSequenced(open);
        first.orThrow();
        CompoundResult resent = client.execute(open);
        assertThat(resent.status()).isEqualTo(NfsStatus.OK);
        OPEN4resok a = first.body(OP_OPEN, OPEN4resok.class);
        OPEN4resok b = resent.body(OP_OPEN, OPEN4resok.class);
        assertThat(b.stateid.other).isEqualTo(a.stateid.other);
        assertThat(b.stateid.seqid).isEqualTo(a.stateid.seqid);
        assertThat(resent.fileHandle()).isEqualTo(first.fileHandle());
        CompoundResult skipped = client.execute(new CompoundBuilder().putfh(dir).openNfs40(client.seqid() + 1,
                client.clientId(), client.openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_READ, null));
        assertThat(skipped.status()).isEqualTo(NfsStatus.BAD_SEQID);
    }

    @Test
    void eachMinorVersionHasItsOwnOperations() throws IOException {
        CompoundResult sequenceIn40 = client.execute(new CompoundBuilder().putrootfh().sequence(new SEQUENCE4args()));
        assertThat(sequenceIn40.statuses()).containsExactly(NfsStatus.OK, NfsStatus.OP_ILLEGAL);
        assertThat(sequenceIn40.results().get(1).resop).isEqualTo(nfs_opnum4.OP_ILLEGAL);
        CompoundResult renewIn41 = send(new CompoundBuilder().minorVersion(1).renew(client.clientId()));
        assertThat(renewIn41.statuses()).containsExactly(NfsStatus.NOTSUPP);
        assertThat(send(new CompoundBuilder().minorVersion(2).putrootfh()).status())
                .isEqualTo(NfsStatus.MINOR_VERS_MISMATCH);
        assertThat(client.renew().status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void aTransactionalNfs40CompoundThatFailsLeavesNothingBehind() throws IOException {
        COMPOUND4args args = new CompoundBuilder().minorVersion(0).putfh(dir).mkdir("made").putfh(dir)
                .lookup("missing").build();
        CompoundResult failed = new CompoundResult(args,
                connection.compound(NfsConnection.PROC_COMPOUND_TXN, args, connection.credential()));
        assertThat(failed.statuses()).containsExactly(NfsStatus.OK, NfsStatus.OK, NfsStatus.OK, NfsStatus.NOENT);
        assertThat(client.execute(new CompoundBuilder().putfh(dir).lookup("made")).status())
                .as("the MKDIR was rolled back").isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void afterARestartTheClientIdAndStateidsAreStaleButTheDataStays() throws IOException {
        try (ServerProcess own = ServerProcess.start()) {
            byte[] data = randomBytes(3 * IO_SIZE, 41);
            Nfs40Client.Opened file;
            try (NfsConnection before = own.connect()) {
                Nfs40Client c = Nfs40Client.create(before, "restart");
                byte[] d = mkdir(c, "restart");
                file = c.openCreate(d, "f");
                write(c, file, data);
                own.restart();
                try (NfsConnection after = own.connect()) {
                    COMPOUND4args renewArgs = new CompoundBuilder().minorVersion(0).renew(c.clientId()).build();
                    CompoundResult renew = new CompoundResult(renewArgs, after.compound(renewArgs));
                    assertThat(renew.status()).isEqualTo(NfsStatus.STALE_CLIENTID);
                    Nfs40Client fresh = Nfs40Client.create(after, "restarted");
                    CompoundResult oldStateid = fresh.execute(new CompoundBuilder().putfh(file.fileHandle())
                            .read(file.stateid(), 0, 1));
                    assertThat(oldStateid.status()).isEqualTo(NfsStatus.STALE_STATEID);
                    assertThat(sha256(read(fresh, file.fileHandle(), CompoundBuilder.anonymousStateid())))
                            .isEqualTo(sha256(data));
                }
            }
        }
    }

    @Test
    void aClientOpensCreatesAndConfirmsManyFilesWithOneOwner() throws IOException {
        for (int i = 0; i < 200; i++) {
            Nfs40Client.Opened file = client.openCreate(dir, "f" + i);
            write(client, file, new byte[] {(byte) i});
            assertThat(client.close(file).status()).as("CLOSE of f%d", i).isEqualTo(NfsStatus.OK);
        }
        CompoundResult reopened = client.executeSequenced(new CompoundBuilder().putfh(dir).openNfs40(client.seqid(),
                client.clientId(), client.openOwner(), "f7", OPEN4args.OPEN4_SHARE_ACCESS_READ,
                createhow4.withAttributes(createmode4.GUARDED4, new fattr4())));
        assertThat(reopened.status()).as("GUARDED4 create of an existing name").isEqualTo(NfsStatus.EXIST);
        assertThat(client.close(client.openCreate(dir, "another")).status())
                .as("the owner's sequence went on after the failure").isEqualTo(NfsStatus.OK);
    }

    @Test
    void aChangeSentAgainWithTheSameXidGetsItsFirstReplyWithoutRunningTwice() throws IOException {
        int xid = 0x5eed0001;
        byte[] mkdir = compoundCall(xid, new CompoundBuilder().minorVersion(0).putfh(dir).mkdir("once"));
        byte[] remove = compoundCall(xid, new CompoundBuilder().minorVersion(0).putfh(dir).remove("once"));
        try (RawRpcSocket raw = RawRpcSocket.connect(server.address(), Duration.ofSeconds(30))) {
            assertThat(statusOf(raw, xid, mkdir)).as("the first MKDIR").isEqualTo(NfsStatus.OK);
            assertThat(statusOf(raw, xid, mkdir)).as("the same call again: its first reply, not NFS4ERR_EXIST")
                    .isEqualTo(NfsStatus.OK);
            assertThat(statusOf(raw, xid, mkdir)).as("and once more").isEqualTo(NfsStatus.OK);
            assertThat(statusOf(raw, xid, remove)).as("another call with the same xid runs")
                    .isEqualTo(NfsStatus.OK);
            assertThat(statusOf(raw, xid, mkdir)).as("the MKDIR after it runs again, not answered from the cache")
                    .isEqualTo(NfsStatus.OK);
        }
        CompoundResult listed = client.execute(new CompoundBuilder().putfh(dir).lookup("once"));
        assertThat(listed.status()).as("the directory the last MKDIR made").isEqualTo(NfsStatus.OK);
    }

    /** An NFSv4 COMPOUND call of {@code ops} as root, with {@code xid}. */
    private static byte[] compoundCall(int xid, CompoundBuilder ops) {
        byte[] header = RawRpcSocket.callHeader(xid, NfsConnection.NFS_PROGRAM, NfsConnection.NFS_V4,
                NfsConnection.PROC_COMPOUND, AuthSys.ROOT);
        byte[] args = XdrBytes.encode(ops.build());
        byte[] call = Arrays.copyOf(header, header.length + args.length);
        System.arraycopy(args, 0, call, header.length, args.length);
        return call;
    }

    /** Sends {@code call} on {@code raw} and returns the status of the COMPOUND its reply carries. */
    private static NfsStatus statusOf(RawRpcSocket raw, int xid, byte[] call) throws IOException {
        raw.sendRecord(call);
        ByteBuffer reply = ByteBuffer.wrap(raw.readRecord().orElseThrow());
        assertThat(reply.getInt()).as("xid").isEqualTo(xid);
        assertThat(reply.getInt()).as("REPLY").isEqualTo(1);
        assertThat(reply.getInt()).as("MSG_ACCEPTED").isEqualTo(0);
        reply.getInt(); // the verifier's flavor
        int verifierBytes = reply.getInt();
        reply.position(reply.position() + ((verifierBytes + 3) & ~3));
        assertThat(reply.getInt()).as("SUCCESS").isEqualTo(0);
        return NfsStatus.of(reply.getInt());
    }
}
