package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * SIGHUP re-reads the exports file (issue 17): exports added to it are served, removed ones refuse their
 * handles (NFS4ERR_STALE) and vanish from the pseudo file system, changed options ({@code ro}/{@code rw},
 * {@code txn=}) apply to the compounds that follow, and a file with an error changes nothing and is named in
 * one log line with its line and cause. Each test runs its own server process (the reload changes it) and
 * stops it with SIGTERM, which must still end it cleanly.
 */
class ExportsReloadIT {
    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);

    private Path base;
    private Path exports;
    private ServerProcess server;
    private NfsConnection connection;
    private Nfs41Session session;

    @BeforeEach
    void directories() throws IOException {
        base = ServerProcess.freshWorkDirectory("reload-");
        exports = base.resolve("exports");
    }

    private void start(String exportsText) throws IOException {
        Files.writeString(exports, exportsText, StandardCharsets.UTF_8);
        server = ServerProcess.start("--exports", exports.toString());
        connection = server.connect();
        session = Nfs41Session.create(connection, "reload-it");
    }

    @AfterEach
    void stop() throws IOException {
        if (session != null) {
            session.close();
        }
        if (connection != null) {
            connection.close();
        }
        if (server != null) {
            server.close(); // SIGTERM: throws unless the server exits cleanly
        }
        ServerProcess.deleteTree(base);
    }

    private Path directory(String name, String fileText) throws IOException {
        Path dir = Files.createDirectory(base.resolve(name));
        Files.writeString(dir.resolve("file"), fileText, StandardCharsets.UTF_8);
        return dir;
    }

    private static String line(Path dir, String options) {
        return dir + " 127.0.0.1(" + options + ")\n";
    }

    /** Rewrites the exports file, sends SIGHUP and waits for the reload's log line ({@code reloaded} or not). */
    private String reload(String exportsText) throws IOException {
        Files.writeString(exports, exportsText, StandardCharsets.UTF_8);
        return hangUp();
    }

    private String hangUp() throws IOException {
        int before = reloadLines(server.outputOfLastStart());
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(server.pid())).inheritIO().start();
        try {
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
            long deadline = System.nanoTime() + RELOAD_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                String out = server.outputOfLastStart();
                if (reloadLines(out) > before) {
                    return lastReloadLine(out);
                }
                assertThat(server.isAlive()).as("server alive after SIGHUP\n%s", out).isTrue();
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        throw new AssertionError("no reload log line within " + RELOAD_TIMEOUT + "\n" + server.output());
    }

    private static boolean isReloadLine(String line) {
        return line.contains("exports reloaded from") || line.contains("exports not reloaded");
    }

    private static int reloadLines(String out) {
        return (int) out.lines().filter(ExportsReloadIT::isReloadLine).count();
    }

    private static String lastReloadLine(String out) {
        return out.lines().filter(ExportsReloadIT::isReloadLine).reduce((a, b) -> b).orElseThrow();
    }

    private CompoundBuilder fromRoot(Path dir) {
        CompoundBuilder c = new CompoundBuilder().putrootfh();
        for (Path name : dir) {
            c.lookup(name.toString());
        }
        return c;
    }

    private byte[] handleOf(Path dir) throws IOException {
        return session.execute(fromRoot(dir).getfh()).orThrow().fileHandle();
    }

    private String readFile(byte[] dir) throws IOException {
        CompoundResult r = session.execute(new CompoundBuilder().putfh(dir).lookup("file")
                .read(CompoundBuilder.anonymousStateid(), 0, 4096)).orThrow();
        ByteBuffer data = r.body(OP_READ, READ4resok.class).data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void anExportAddedToTheFileIsServedAfterSighup() throws IOException {
        Path first = directory("first", "first\n");
        start(line(first, "rw,no_root_squash"));
        Path second = directory("second", "new export\n");
        assertThat(session.execute(fromRoot(second).getfh()).status()).isEqualTo(NfsStatus.NOENT);

        String logged = reload(line(first, "rw,no_root_squash") + line(second, "ro,no_root_squash"));

        assertThat(logged).contains("exports reloaded from " + exports).contains("added [" + second + "]");
        assertThat(readFile(handleOf(second))).isEqualTo("new export\n");
        assertThat(session.execute(new CompoundBuilder().putfh(handleOf(first)).mkdir("still-rw")).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(second.resolve(".tcnfs")).as("a read-only export gets no backup area").doesNotExist();
    }

    @Test
    void aRemovedExportsHandlesAreStaleAndItLeavesThePseudoFileSystem() throws IOException {
        Path kept = directory("kept", "kept\n");
        Path gone = directory("gone", "gone\n");
        start(line(kept, "rw,no_root_squash") + line(gone, "rw,no_root_squash"));
        byte[] goneDir = handleOf(gone);
        byte[] goneFile = session.execute(new CompoundBuilder().putfh(goneDir).lookup("file").getfh()).orThrow()
                .fileHandle();

        String logged = reload(line(kept, "rw,no_root_squash"));

        assertThat(logged).contains("removed [" + gone + "]");
        assertThat(session.execute(new CompoundBuilder().putfh(goneDir).getattr(nfs4_attr.FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
        assertThat(session.execute(new CompoundBuilder().putfh(goneFile).read(CompoundBuilder.anonymousStateid(), 0,
                16)).status()).isEqualTo(NfsStatus.STALE);
        assertThat(session.execute(new CompoundBuilder().putfh(goneDir).mkdir("after")).status())
                .isEqualTo(NfsStatus.STALE);
        assertThat(session.executeTransaction(new CompoundBuilder().putfh(goneDir).mkdir("txn-after")).status())
                .isEqualTo(NfsStatus.STALE);
        assertThat(gone.resolve("after")).doesNotExist();
        assertThat(gone.resolve("txn-after")).doesNotExist();
        assertThat(session.execute(fromRoot(gone).getfh()).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(readFile(handleOf(kept))).isEqualTo("kept\n");
    }

    /** The server's open descriptors on files under {@code dir} (from /proc/PID/fd). */
    private long descriptorsUnder(Path dir) throws IOException {
        long n = 0;
        try (var fds = Files.list(Path.of("/proc", Long.toString(server.pid()), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).startsWith(dir)) {
                        n++;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return n;
    }

    @Test
    void aRemovedExportsOpenFilesAreClosedOnceNoCompoundUsesItAndItOpensAgainWhenItComesBack() throws IOException {
        Path kept = directory("kept", "kept\n");
        Path gone = directory("gone", "gone\n");
        for (int i = 0; i < 20; i++) {
            Files.writeString(gone.resolve("f" + i), "file " + i, StandardCharsets.UTF_8);
        }
        start(line(kept, "rw,no_root_squash") + line(gone, "rw,no_root_squash"));
        byte[] goneDir = handleOf(gone);
        for (int i = 0; i < 20; i++) {
            session.execute(new CompoundBuilder().putfh(goneDir).lookup("f" + i)
                    .read(CompoundBuilder.anonymousStateid(), 0, 64)).orThrow();
        }
        assertThat(descriptorsUnder(gone)).as("descriptors the server keeps on the export's files").isPositive();

        assertThat(reload(line(kept, "rw,no_root_squash"))).contains("removed [" + gone + "]");

        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (descriptorsUnder(gone) > 0 && System.nanoTime() < deadline) {
            sleep(50);
        }
        assertThat(descriptorsUnder(gone)).as("descriptors on the removed export's files").isZero();
        assertThat(server.outputOfLastStart()).contains("export " + gone + " removed by a reload: its file system is "
                + "closed");
        assertThat(readFile(handleOf(kept))).isEqualTo("kept\n");

        assertThat(reload(line(kept, "rw,no_root_squash") + line(gone, "rw,no_root_squash")))
                .contains("added [" + gone + "]");
        assertThat(readFile(handleOf(gone))).as("served again, on a file system opened again").isEqualTo("gone\n");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void changedOptionsApplyToTheCompoundsAfterSighup() throws IOException {
        Path wasRo = directory("was-ro", "");
        Path txn = directory("txn", "");
        start(line(wasRo, "ro,no_root_squash") + line(txn, "rw,no_root_squash,txn=request"));
        byte[] wasRoDir = handleOf(wasRo);
        byte[] txnDir = handleOf(txn);
        assertThat(session.execute(new CompoundBuilder().putfh(wasRoDir).mkdir("before")).status())
                .isEqualTo(NfsStatus.ROFS);
        assertThat(session.executeTransaction(new CompoundBuilder().putfh(txnDir).mkdir("flagged-before")).status())
                .isEqualTo(NfsStatus.OK);

        String logged = reload(line(wasRo, "rw,no_root_squash") + line(txn, "rw,no_root_squash,txn=never"));

        assertThat(logged).contains("changed [" + wasRo + ", " + txn + "]");
        assertThat(session.execute(new CompoundBuilder().putfh(wasRoDir).mkdir("after")).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(wasRo.resolve("after")).isDirectory();
        CompoundResult undone = session.executeTransaction(new CompoundBuilder().putfh(wasRoDir).mkdir("undone")
                .putfh(wasRoDir).remove("missing"));
        assertThat(undone.status()).as("a transaction on the export made writable rolls back").isEqualTo(NfsStatus.NOENT);
        assertThat(wasRo.resolve("undone")).doesNotExist();
        assertThat(session.executeTransaction(new CompoundBuilder().putfh(txnDir).mkdir("flagged-after")).status())
                .isEqualTo(NfsStatus.NOTSUPP);
        assertThat(txn.resolve("flagged-after")).doesNotExist();
    }

    @Test
    void aBadExportsFileIsRejectedWithOneLineAndTheOldExportsStay() throws IOException {
        Path served = directory("served", "old\n");
        start(line(served, "rw,no_root_squash"));
        Path other = directory("other", "other\n");

        String badOption = reload(line(served, "rw,no_root_squash") + line(other, "rw,bogus_option"));
        String missingDir = reload(line(served, "ro") + line(base.resolve("missing"), "rw"));

        assertThat(badOption).contains("exports not reloaded: " + exports + ": line 2: ").contains("bogus_option")
                .contains("still serving the 1 export(s) of before");
        assertThat(missingDir).contains("exports not reloaded: " + exports + ": line 2: " + base.resolve("missing"))
                .contains("no such file or directory");
        assertThat(server.outputOfLastStart()).doesNotContain("\tat org.tcnfs");
        assertThat(session.execute(fromRoot(other).getfh()).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(readFile(handleOf(served))).isEqualTo("old\n");
        assertThat(session.execute(new CompoundBuilder().putfh(handleOf(served)).mkdir("still-rw")).status())
                .as("the ro of the rejected file did not apply").isEqualTo(NfsStatus.OK);
    }

    @Test
    void sighupWithoutAnExportsFileLeavesTheServerServing() throws IOException {
        server = ServerProcess.start();
        connection = server.connect();
        session = Nfs41Session.create(connection, "reload-it");

        String logged = hangUp();

        assertThat(logged).contains("exports not reloaded: no exports file");
        assertThat(session.execute(new CompoundBuilder().putrootfh().mkdir("served")).status())
                .isEqualTo(NfsStatus.OK);
    }
}
