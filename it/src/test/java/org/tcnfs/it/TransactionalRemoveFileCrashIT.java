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
 * A crash inside a transaction of several changes (the full path: recovery record first) whose REMOVEs take files,
 * one of them with a second link: each REMOVE itself renames its file into the transaction's backup directory, so
 * until it runs the file is where it was with its link count unchanged (before: a hard link in the backup directory,
 * made with the record, raised it by one, and the REMOVE unlinked the name), and after it the file waits in the backup
 * directory. At every crash point the restart's recovery undoes the transaction: the same files (inode, contents, link
 * count) under their names, answering to their handles of before (issue 16).
 */
@Tag("crash")
class TransactionalRemoveFileCrashIT {
    private static final byte[] A = "contents of a".getBytes(StandardCharsets.UTF_8);
    private static final byte[] B = "contents of b, also named c".getBytes(StandardCharsets.UTF_8);

    private ServerProcess server;
    private byte[] handleA;
    private byte[] handleB;
    private long idA;
    private long idB;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /**
     * Starts a server armed to halt at {@code crashPoint}, makes directory d with file a and file b (with a second
     * link c), and sends the transaction SEQUENCE PUTFH(d) REMOVE(a) REMOVE(b) MKDIR(n) that halts the server; returns
     * the export directory d as the crash left it (the server not restarted).
     */
    private Path crashInTransaction(String crashPoint) throws Exception {
        server = HaltingTransaction.armedAt(crashPoint);
        HaltingTransaction.halt(server, crashPoint, "txn-rm-file-crash", nfs -> {
            byte[] d = nfs.mkdir(nfs.rootFh(), "d");
            handleA = nfs.createFile(d, "a", A);
            handleB = nfs.createFile(d, "b", B);
            nfs.runOk(new CompoundBuilder().putfh(handleB).savefh().putfh(d).link("c"));
            idA = nfs.getattr(handleA, nfs4_attr.FATTR4_FILEID).fileid();
            idB = nfs.getattr(handleB, nfs4_attr.FATTR4_FILEID).fileid();
            return new CompoundBuilder().putfh(d).remove("a").remove("b").mkdir("n");
        });
        return server.exportDir().resolve("d");
    }

    /** Restarts the server unarmed and checks that recovery put d back as it was, a and b answering to their handles. */
    private void restartAndFindEverythingBack(Path d) throws Exception {
        server.setJvmArgs();
        server.relaunch();
        assertThat(server.metric("tcnfs_txn_recovered")).as("transactions recovery undid").isEqualTo(1);
        assertThat(Files.readAllBytes(d.resolve("a"))).as("a, put back").isEqualTo(A);
        assertThat(inode(d.resolve("a"))).as("a, the same file").isEqualTo(idA);
        assertThat(inode(d.resolve("b"))).as("b, the same file").isEqualTo(idB);
        assertThat(links(d.resolve("b"))).as("b's links: b and c").isEqualTo(2);
        assertThat(Files.exists(d.resolve("n"))).isFalse();
        try (ItSession it = ItSession.open(server, "txn-rm-file-crash-check")) {
            NfsOps nfs = it.nfs();
            assertThat(nfs.getattr(handleA, nfs4_attr.FATTR4_FILEID).fileid()).as("a by its handle of before")
                    .isEqualTo(idA);
            assertThat(nfs.read(handleB)).as("b by its handle of before").isEqualTo(B);
            assertThat(nfs.getattr(handleB, nfs4_attr.FATTR4_NUMLINKS).numlinks()).isEqualTo(2);
            assertThat(nfs.readdirNames(nfs.lookup(nfs.rootFh(), "d"))).containsExactlyInAnyOrder("a", "b", "c");
        }
    }

    private static long inode(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
    }

    private static int links(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    @Test
    void aCrashRightBeforeTheRemoveOfAFileFindsItInPlaceWithNoLinkAddedAndRecoveryKeepsIt() throws Exception {
        Path d = crashInTransaction("before-op-3"); // SEQUENCE 0, PUTFH 1, REMOVE(a) 2, REMOVE(b) 3

        assertThat(Files.exists(d.resolve("a"), LinkOption.NOFOLLOW_LINKS)).as("d/a after its REMOVE").isFalse();
        assertThat(inode(d.resolve("b"))).as("d/b before its REMOVE ran: the file itself").isEqualTo(idB);
        assertThat(links(d.resolve("b"))).as("b's links before its REMOVE ran: b and c, none kept aside")
                .isEqualTo(2);
        restartAndFindEverythingBack(d);
    }

    @Test
    void aCrashRightAfterTheRemoveOfAFileIsUndoneByRecoveryWithTheSameFile() throws Exception {
        Path d = crashInTransaction("after-op-3");

        assertThat(Files.exists(d.resolve("b"), LinkOption.NOFOLLOW_LINKS)).as("d/b after its REMOVE").isFalse();
        assertThat(links(d.resolve("c"))).as("b's links after its REMOVE: c and the kept one").isEqualTo(2);
        restartAndFindEverythingBack(d);
    }

    @Test
    void aCrashBeforeTheCommitPointIsUndoneByRecoveryWithTheSameFiles() throws Exception {
        Path d = crashInTransaction("before-commit");

        assertThat(Files.exists(d.resolve("n"))).as("d/n, made by the last operation").isTrue();
        restartAndFindEverythingBack(d);
    }
}
