package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * A crash inside a transaction of several changes (the full path: recovery record first) whose REMOVE takes an empty
 * directory: the REMOVE itself renames the directory into the transaction's backup directory, so until it runs the
 * directory stays where it was, the same directory (before: it was moved aside before the operation and an empty
 * stand-in with another inode took its name), and after it the directory waits in the backup directory. Either way
 * the restart's recovery undoes the transaction and the same directory answers to its handle of before (issue 16).
 */
@Tag("crash")
class TransactionalRemoveDirectoryCrashIT {
    private static final byte[] A = "contents of a".getBytes(StandardCharsets.UTF_8);

    private ServerProcess server;
    private byte[] directoryHandle;
    private long directoryId;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /**
     * Starts a server armed to halt at {@code crashPoint}, makes directory d with file a and empty directory e, and
     * sends the transaction SEQUENCE PUTFH(d) REMOVE(a) REMOVE(e) MKDIR(n) that halts the server; returns the export
     * directory d as the crash left it (the server not restarted).
     */
    private Path crashInTransaction(String crashPoint) throws Exception {
        server = HaltingTransaction.armedAt(crashPoint);
        HaltingTransaction.halt(server, crashPoint, "txn-rmdir-crash", nfs -> {
            byte[] d = nfs.mkdir(nfs.rootFh(), "d");
            nfs.createFile(d, "a", A);
            directoryHandle = nfs.mkdir(d, "e");
            directoryId = nfs.getattr(directoryHandle, nfs4_attr.FATTR4_FILEID).fileid();
            return new CompoundBuilder().putfh(d).remove("a").remove("e").mkdir("n");
        });
        return server.exportDir().resolve("d");
    }

    /** Restarts the server unarmed and checks that recovery put d back as it was, e answering to its handle. */
    private void restartAndFindEverythingBack(Path d) throws Exception {
        server.setJvmArgs();
        server.relaunch();
        assertThat(server.metric("tcnfs_txn_recovered")).as("transactions recovery undid").isEqualTo(1);
        assertThat(Files.readAllBytes(d.resolve("a"))).as("a, put back").isEqualTo(A);
        assertThat(inode(d.resolve("e"))).as("e, the same directory").isEqualTo(directoryId);
        assertThat(Files.exists(d.resolve("n"))).isFalse();
        try (ItSession it = ItSession.open(server, "txn-rmdir-crash-check")) {
            NfsOps nfs = it.nfs();
            assertThat(nfs.getattr(directoryHandle, nfs4_attr.FATTR4_FILEID).fileid())
                    .as("e by its handle of before").isEqualTo(directoryId);
            assertThat(nfs.readdirNames(nfs.lookup(nfs.rootFh(), "d"))).containsExactlyInAnyOrder("a", "e");
        }
    }

    private static long inode(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
    }

    @Test
    void aCrashRightBeforeTheRemoveOfADirectoryFindsThatDirectoryStillInItsPlaceAndRecoveryKeepsIt() throws Exception {
        Path d = crashInTransaction("before-op-3"); // SEQUENCE 0, PUTFH 1, REMOVE(a) 2, REMOVE(e) 3

        assertThat(inode(d.resolve("e"))).as("what d/e is before its REMOVE ran: the directory itself")
                .isEqualTo(directoryId);
        restartAndFindEverythingBack(d);
    }

    @Test
    void aCrashRightAfterTheRemoveOfADirectoryIsUndoneByRecoveryWithTheSameDirectory() throws Exception {
        Path d = crashInTransaction("after-op-3");

        assertThat(Files.exists(d.resolve("e"), LinkOption.NOFOLLOW_LINKS)).as("d/e after its REMOVE").isFalse();
        restartAndFindEverythingBack(d);
    }
}
