package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * A committed transaction is never undone by a shutdown, and shutdown waits for the compounds in flight
 * (issue 13, item 3; DESIGN.md "The transaction protocol" steps 7-8): SIGTERM while a large transaction runs
 * lets it commit and reply NFS4_OK, every file it wrote is there after the restart, and nothing is left for
 * recovery (no record, no backup). Subclasses choose the file system under the server.
 */
abstract class ShutdownDrainContract extends SharedServerTest {
    private static final int FILES = 1000;
    private static final int SIZE = 4096;

    @Override
    abstract Path workDirectory() throws IOException;

    private static byte[] content(int i) {
        byte[] data = new byte[SIZE];
        Arrays.fill(data, (byte) ('a' + i % 26));
        byte[] label = ("file " + i + "\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(label, 0, data, 0, label.length);
        return data;
    }

    private static long filesIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void transactionInFlightAtSigtermCommitsRepliesAndIsNotUndone() throws Exception {
        Path local = server.exportDir().resolve("drained");
        ItSession s = ItSession.open(server, "shutdown-drain");
        CompletableFuture<CompoundResult> reply;
        long seen;
        try {
            NfsOps nfs = s.nfs();
            byte[] dir = nfs.mkdir(nfs.rootFh(), "drained");
            CompoundBuilder txn = new CompoundBuilder().tag("big").putfh(dir).savefh();
            for (int i = 0; i < FILES; i++) {
                txn.restorefh().openCreate(s.session().clientId(), nfs.openOwner(), "f" + i,
                        OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0644).build())
                        .write(CompoundBuilder.currentStateid(), 0, content(i));
            }
            reply = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.session().executeTransaction(txn);
                } catch (IOException e) {
                    throw new IllegalStateException("no reply: " + e, e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (filesIn(local) == 0 && !reply.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            seen = filesIn(local);
            assertThat(reply.isDone()).as("the transaction still runs when SIGTERM is sent").isFalse();
            server.stop();
        } finally {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                // the server is gone: its session cannot be destroyed any more
            }
        }
        System.out.printf("%s: SIGTERM when %d of %d files existed%n", getClass().getSimpleName(), seen, FILES);

        CompoundResult r;
        try {
            r = reply.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("the transaction in flight at SIGTERM got no reply: " + e.getCause()
                    + "\nserver output:\n" + server.output(), e);
        }
        assertThat(r.status()).as("the transaction in flight at SIGTERM: %s; server output:%n%s", r, server.output())
                .isEqualTo(NfsStatus.OK);
        ServerProcess.CheckResult check = server.check();
        assertThat(check.status()).as("nothing left for recovery after the stop: %s", check.output()).isZero();
        assertThat(filesIn(local)).isEqualTo(FILES);
        for (int i = 0; i < FILES; i += 97) {
            assertThat(Files.readAllBytes(local.resolve("f" + i))).as("f%d", i).isEqualTo(content(i));
        }
        server.relaunch();
        assertThat(filesIn(local)).as("recovery at the restart undid nothing").isEqualTo(FILES);
        assertThat(Files.readAllBytes(local.resolve("f" + (FILES - 1)))).isEqualTo(content(FILES - 1));
    }
}
