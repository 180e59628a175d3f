package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A file removed (or renamed over) while a client holds it open stays readable and writable through its open
 * stateid until CLOSE, as with knfsd and POSIX (RFC 8881 18.26.4, 18.25.4; issue 13 item 5): whether a plain
 * compound or a transaction removed it; a rolled-back transaction that removed it and wrote it leaves it as
 * it was; what the server holds for such files (descriptors) is gone after CLOSE and after the lease of a
 * client that stopped renewing expired. Through the wire against the real server process, with a 2 s lease.
 * Subclasses choose the file system the server's directories live on.
 */
abstract class RemovedOpenFileContract extends SharedServerTest {
    private static final byte[] BEFORE = "0123456789".getBytes(StandardCharsets.UTF_8);

    private ItSession session;
    private Path dirPath;
    private byte[] dir;

    @Override
    abstract Path workDirectory() throws IOException;

    @BeforeAll
    @Override
    void startServer() throws IOException {
        server = ServerProcess.startIn(workDirectory(), List.of(), "--lease", "2s");
    }

    @BeforeEach
    void openSessionAndFile(TestInfo test) throws IOException {
        session = ItSession.open(server, "removed-open");
        String name = test.getTestMethod().orElseThrow().getName();
        dirPath = Files.createDirectories(server.exportDir().resolve(name));
        Files.write(dirPath.resolve("f"), BEFORE);
        Files.write(dirPath.resolve("g"), "new content".getBytes(StandardCharsets.UTF_8));
        dir = session.nfs().lookup(session.nfs().rootFh(), name);
    }

    @AfterEach
    void closeSession() throws IOException {
        if (session != null) {
            session.close();
        }
    }

    private record Opened(byte[] fh, stateid4 stateid) {
    }

    private Opened open(ItSession s, String name) throws IOException {
        CompoundResult r = s.nfs().runOk(new CompoundBuilder().putfh(dir).openExisting(s.session().clientId(),
                s.nfs().openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH).getfh());
        return new Opened(r.fileHandle(), r.body(OP_OPEN, OPEN4resok.class).stateid);
    }

    private static byte[] bytesOf(CompoundResult r) {
        ByteBuffer data = r.body(OP_READ, READ4resok.class).data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return bytes;
    }

    private CompoundResult read(Opened f) throws IOException {
        return session.nfs().run(new CompoundBuilder().putfh(f.fh()).read(f.stateid(), 0, 1000));
    }

    /** Descriptors of the server process that point at a deleted file of this test's directory. */
    private List<String> deletedFilesHeld() throws IOException {
        List<String> held = new ArrayList<>();
        Path fds = Path.of("/proc", Long.toString(server.pid()), "fd");
        try (Stream<Path> all = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) all::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(dirPath.toString()) && target.endsWith("(deleted)")) {
                        held.add(target);
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        }
        return held;
    }

    private void assertUsableThroughItsStateid(Opened f) throws IOException {
        CompoundResult r = read(f);
        assertThat(r.status()).as("READ of the removed, open file: %s", r).isEqualTo(NfsStatus.OK);
        assertThat(bytesOf(r)).isEqualTo(BEFORE);
        CompoundResult w = session.nfs().run(new CompoundBuilder().putfh(f.fh())
                .write(f.stateid(), BEFORE.length, "abc".getBytes(StandardCharsets.UTF_8)).getattr(FATTR4_SIZE));
        assertThat(w.status()).as("WRITE of the removed, open file: %s", w).isEqualTo(NfsStatus.OK);
        assertThat(Attrs.decode(w.body(OP_GETATTR, GETATTR4resok.class).obj_attributes).size()).isEqualTo(13);
        assertThat(new String(bytesOf(read(f)), StandardCharsets.UTF_8)).isEqualTo("0123456789abc");
    }

    private void assertGoneAfterClose(Opened f) throws IOException {
        assertThat(session.nfs().run(new CompoundBuilder().putfh(f.fh()).close(f.stateid())).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(read(f).status()).as("after CLOSE the handle is stale").isEqualTo(NfsStatus.STALE);
        assertThat(deletedFilesHeld()).as("descriptors of deleted files after CLOSE").isEmpty();
    }

    @Test
    void fileRemovedByAPlainCompoundStaysReadableAndWritableUntilClose() throws IOException {
        Opened f = open(session, "f");
        assertThat(session.nfs().run(new CompoundBuilder().putfh(dir).remove("f")).status()).isEqualTo(NfsStatus.OK);
        assertThat(Files.exists(dirPath.resolve("f"))).isFalse();

        assertUsableThroughItsStateid(f);
        assertGoneAfterClose(f);
    }

    @Test
    void fileRemovedByACommittedTransactionStaysReadableAndWritableUntilClose() throws IOException {
        Opened f = open(session, "f");
        CompoundResult txn = session.session().executeTransaction(new CompoundBuilder().putfh(dir).remove("f"));
        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.OK);

        assertUsableThroughItsStateid(f);
        assertGoneAfterClose(f);
    }

    @Test
    void fileRenamedOverStaysReadableAndWritableUntilClose() throws IOException {
        Opened f = open(session, "f");
        assertThat(session.nfs().run(new CompoundBuilder().putfh(dir).savefh().rename("g", "f")).status())
                .isEqualTo(NfsStatus.OK);

        assertUsableThroughItsStateid(f);
        assertGoneAfterClose(f);
    }

    @Test
    void rolledBackTransactionThatRemovedAndWroteAnOpenFileRestoresItCompletely() throws IOException {
        Opened f = open(session, "f");
        CompoundResult txn = session.session().executeTransaction(new CompoundBuilder().putfh(dir).remove("f")
                .putfh(f.fh()).write(f.stateid(), 0, "XXXXXXXXXXXXXXX".getBytes(StandardCharsets.UTF_8))
                .putfh(dir).lookup("missing"));

        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
        assertThat(Files.readAllBytes(dirPath.resolve("f"))).as("name, data and size are back").isEqualTo(BEFORE);
        assertThat(Files.getAttribute(dirPath.resolve("f"), "unix:nlink")).isEqualTo(1);
        assertThat(session.nfs().lookup(dir, "f")).as("the handle of before").isEqualTo(f.fh());
        assertThat(bytesOf(read(f))).isEqualTo(BEFORE);
        assertThat(session.nfs().run(new CompoundBuilder().putfh(f.fh()).close(f.stateid())).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(deletedFilesHeld()).isEmpty();
    }

    @Test
    void whatIsKeptForARemovedOpenFileGoesWhenItsClientsLeaseExpires() throws Exception {
        try (ItSession other = ItSession.open(server, "removed-open-lapsing")) {
            Opened f = open(other, "f");
            other.nfs().runOk(new CompoundBuilder().putfh(dir).remove("f"));
            assertThat(deletedFilesHeld()).as("the removed, open file is held").isNotEmpty();

            // the other client stops renewing; ours keeps its lease by working
            long deadline = System.nanoTime() + 15_000_000_000L;
            while (!deletedFilesHeld().isEmpty() && System.nanoTime() < deadline) {
                session.nfs().rootFh();
                Thread.sleep(200);
            }
            assertThat(deletedFilesHeld()).as("descriptors of deleted files after the lease expired").isEmpty();
            assertThat(read(f).status()).isIn(NfsStatus.STALE, NfsStatus.BAD_STATEID, NfsStatus.EXPIRED);
        }
    }

    @Test
    void nfs40FileRemovedWhileOpenStaysReadableAndWritableUntilClose() throws IOException {
        try (org.tcnfs.client.rpc.NfsConnection connection = server.connect()) {
            org.tcnfs.client.Nfs40Client c40 = org.tcnfs.client.Nfs40Client.create(connection, "removed-open-40");
            org.tcnfs.client.Nfs40Client.Opened f = c40.openCreate(dir, "f");
            assertThat(c40.execute(new CompoundBuilder().putfh(dir).remove("f")).status()).isEqualTo(NfsStatus.OK);

            CompoundResult r = c40.execute(new CompoundBuilder().putfh(f.fileHandle()).read(f.stateid(), 0, 100));
            assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.OK);
            assertThat(bytesOf(r)).isEqualTo(BEFORE);
            CompoundResult w = c40.execute(new CompoundBuilder().putfh(f.fileHandle())
                    .write(f.stateid(), 0, "ABC".getBytes(StandardCharsets.UTF_8)));
            assertThat(w.status()).as("%s", w).isEqualTo(NfsStatus.OK);
            assertThat(new String(bytesOf(c40.execute(new CompoundBuilder().putfh(f.fileHandle())
                    .read(f.stateid(), 0, 100))), StandardCharsets.UTF_8)).isEqualTo("ABC3456789");
            assertThat(c40.close(f).status()).isEqualTo(NfsStatus.OK);
            assertThat(deletedFilesHeld()).isEmpty();
        }
    }
}
