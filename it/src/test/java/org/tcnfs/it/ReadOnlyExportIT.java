package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.READ4resok;

/**
 * Read-only exports (issue 17): an export whose rules are all {@code ro} gets no {@code .tcnfs} backup area,
 * so a read-only directory or mount can be exported. Clients read it, every change is NFS4ERR_ROFS (plain or
 * transactional), and a transaction that only reads commits.
 */
class ReadOnlyExportIT {
    private Path base;
    private Path mountPoint;
    private ServerProcess server;
    private NfsConnection connection;
    private Nfs41Session session;

    @BeforeEach
    void directories() throws IOException {
        base = ServerProcess.freshWorkDirectory("read-only-");
    }

    @AfterEach
    void stop() throws IOException {
        try {
            if (session != null) {
                session.close();
            }
            if (connection != null) {
                connection.close();
            }
            if (server != null) {
                server.close();
            }
        } finally {
            if (mountPoint != null) {
                run("umount", mountPoint.toString());
            }
            ServerProcess.deleteTree(base);
        }
    }

    private static int run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void serve(Path exported) throws IOException {
        Path exports = base.resolve("exports");
        Files.writeString(exports, exported + " 127.0.0.1(ro,no_root_squash,txn=request)\n", StandardCharsets.UTF_8);
        server = ServerProcess.start("--exports", exports.toString());
        connection = server.connect();
        session = Nfs41Session.create(connection, "read-only-it");
    }

    private byte[] handleOf(Path dir) throws IOException {
        CompoundBuilder c = new CompoundBuilder().putrootfh();
        for (Path name : dir) {
            c.lookup(name.toString());
        }
        return session.execute(c.getfh()).orThrow().fileHandle();
    }

    private static String text(CompoundResult r) {
        ByteBuffer data = r.body(OP_READ, READ4resok.class).data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Reads, writes, creates and removes on the export: reads work, every change is ROFS, nothing changes. */
    private void readableAndRefusingChanges(Path dir) throws IOException {
        byte[] root = handleOf(dir);
        CompoundBuilder read = new CompoundBuilder().putfh(root).lookup("file")
                .read(CompoundBuilder.anonymousStateid(), 0, 4096);

        CompoundResult plainRead = session.execute(read);
        CompoundResult txnRead = session.executeTransaction(new CompoundBuilder().putfh(root).lookup("file")
                .read(CompoundBuilder.anonymousStateid(), 0, 4096));
        CompoundResult write = session.execute(new CompoundBuilder().putfh(root).lookup("file")
                .write(CompoundBuilder.anonymousStateid(), 0, "changed".getBytes(StandardCharsets.UTF_8)));
        CompoundResult txnWrite = session.executeTransaction(new CompoundBuilder().putfh(root).lookup("file")
                .write(CompoundBuilder.anonymousStateid(), 0, "changed".getBytes(StandardCharsets.UTF_8)));
        CompoundResult mkdir = session.execute(new CompoundBuilder().putfh(root).mkdir("new"));
        CompoundResult txnMkdir = session.executeTransaction(new CompoundBuilder().putfh(root).mkdir("new"));
        CompoundResult remove = session.execute(new CompoundBuilder().putfh(root).remove("file"));

        assertThat(plainRead.status()).isEqualTo(NfsStatus.OK);
        assertThat(text(plainRead)).isEqualTo("read-only data\n");
        assertThat(txnRead.status()).as("a transaction that only reads commits").isEqualTo(NfsStatus.OK);
        assertThat(text(txnRead)).isEqualTo("read-only data\n");
        assertThat(List.of(write.status(), txnWrite.status(), mkdir.status(), txnMkdir.status(), remove.status()))
                .containsOnly(NfsStatus.ROFS);
        assertThat(Files.readString(dir.resolve("file"), StandardCharsets.UTF_8)).isEqualTo("read-only data\n");
        assertThat(dir.resolve("new")).doesNotExist();
        assertThat(dir.resolve(".tcnfs")).as("no backup area in a read-only export").doesNotExist();
    }

    @Test
    void aReadOnlyBindMountExportedReadOnlyIsReadableAndRefusesChanges() throws IOException {
        Path source = Files.createDirectory(base.resolve("source"));
        Files.writeString(source.resolve("file"), "read-only data\n", StandardCharsets.UTF_8);
        Path mounted = Files.createDirectory(base.resolve("mounted"));
        assumeTrue(run("mount", "--bind", source.toString(), mounted.toString()) == 0,
                "bind mounts need root (CAP_SYS_ADMIN)");
        mountPoint = mounted;
        assumeTrue(run("mount", "-o", "remount,ro,bind", mounted.toString()) == 0, "cannot remount read-only");
        assertThat(Files.isWritable(mounted)).as("the bind mount is read-only").isFalse();

        serve(mounted);

        readableAndRefusingChanges(mounted);
        assertThat(source.resolve(".tcnfs")).doesNotExist();
    }

    @Test
    void aReadOnlyExportOfAWritableDirectoryGetsNoBackupArea() throws IOException {
        Path dir = Files.createDirectory(base.resolve("plain"));
        Files.writeString(dir.resolve("file"), "read-only data\n", StandardCharsets.UTF_8);

        serve(dir);

        readableAndRefusingChanges(dir);
    }
}
