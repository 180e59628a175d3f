package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.stable_how4;

/**
 * PUTROOTFH above several exports locks only what the compound then reaches (DESIGN.md, "The transaction
 * protocol", step 3): the pseudo directories are read-only and need no lock, a LOOKUP into an export locks
 * that export's path. A PUTROOTFH+LOOKUP+GETATTR compound on export B is answered while a long transaction
 * on export A holds its locks; before, PUTROOTFH above several exports locked every export whole and waited
 * for the transaction.
 */
class PseudoRootLockingIT {
    private static final int MIB = 1 << 20;

    @Test
    void aLongTransactionOnOneExportDoesNotBlockALookupFromThePseudoRootIntoAnother() throws Exception {
        Path work = Files.createDirectories(Paths.get(System.getProperty("tcnfs.it.work",
                System.getProperty("java.io.tmpdir"))));
        Path base = Files.createTempDirectory(work, "pseudo-root-");
        Path a = Files.createDirectory(base.resolve("a"));
        Path b = Files.createDirectory(base.resolve("b"));
        Files.write(a.resolve("big"), TestData.randomBytes(16 * MIB, 1));
        Files.writeString(b.resolve("small"), "b");
        Path exports = base.resolve("exports");
        Files.writeString(exports, a + " 127.0.0.1(rw,no_root_squash,txn=request)\n"
                + b + " 127.0.0.1(rw,no_root_squash,txn=request)\n", StandardCharsets.UTF_8);
        try (ServerProcess server = ServerProcess.start("--exports", exports.toString());
                NfsConnection ca = server.connect();
                Nfs41Session sa = Nfs41Session.create(ca, "long-txn");
                NfsConnection cb = server.connect();
                Nfs41Session sb = Nfs41Session.create(cb, "other-export")) {
            byte[] big = sa.execute(lookups(a).lookup("big").getfh()).orThrow().fileHandle();
            // the long transaction: 60 overwrites of 256 KiB of a 16 MiB file (each range backed up first)
            CompoundBuilder overwrite = new CompoundBuilder().putfh(big);
            for (int i = 0; i < 60; i++) {
                overwrite.write(CompoundBuilder.anonymousStateid(), (long) i * 256 * 1024, stable_how4.FILE_SYNC4,
                        TestData.randomBytes(256 * 1024, 100 + i));
            }
            Path area = a.resolve(".tcnfs").resolve("txn");
            CompletableFuture<Long> longTxn = CompletableFuture.supplyAsync(() -> {
                try {
                    sa.executeTransaction(overwrite).orThrow();
                    return System.nanoTime();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            // the transaction holds its locks once its backup directory exists (DESIGN.md step 4)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!hasBackupDirectory(area) && !longTxn.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(longTxn.isDone()).as("the long transaction still runs when B is asked").isFalse();
            long asked = System.nanoTime();
            CompoundResult onB = sb.execute(lookups(b).lookup("small").getattr());
            long answered = System.nanoTime();
            long txnDone = longTxn.get(60, TimeUnit.SECONDS);
            System.out.printf("PseudoRootLockingIT: PUTROOTFH+LOOKUP+GETATTR on B answered in %d ms; the transaction "
                    + "on A ended %d ms after B was asked%n", (answered - asked) / 1_000_000,
                    (txnDone - asked) / 1_000_000);
            assertThat(onB.status()).isEqualTo(NfsStatus.OK);
            assertThat(answered).as("B answered before the transaction on A ended").isLessThan(txnDone);
        } finally {
            ServerProcess.deleteTree(base);
        }
    }

    /** PUTROOTFH and a LOOKUP of each component of {@code export}. */
    private static CompoundBuilder lookups(Path export) {
        CompoundBuilder c = new CompoundBuilder().putrootfh();
        for (Path name : export) {
            c.lookup(name.toString());
        }
        return c;
    }

    private static boolean hasBackupDirectory(Path area) {
        if (!Files.isDirectory(area)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(area)) {
            return entries.anyMatch(Files::isDirectory);
        } catch (IOException e) {
            return false;
        }
    }
}
