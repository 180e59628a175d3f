package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Through the wire, against the server's cache of directory paths: after a directory is renamed (plainly, in a
 * committed transaction, or in one that rolls back) every handle below it, looked up before, works at the
 * directory's new place, and the old name is gone; nothing is served from where the directory used to be.
 */
class DirectoryRenameIT extends SharedServerTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** root/name/b/f (holding "data"), looked up name by name so that the server resolved each directory. */
    private static byte[][] tree(NfsOps nfs, String name) throws IOException {
        byte[] root = nfs.rootFh();
        byte[] a = nfs.mkdir(root, name);
        byte[] b = nfs.mkdir(a, "b");
        byte[] f = nfs.createFile(b, "f", bytes("data"));
        assertThat(nfs.lookup(nfs.lookup(nfs.lookup(root, name), "b"), "f")).isEqualTo(f);
        return new byte[][] {root, a, b, f};
    }

    private static CompoundBuilder rename(byte[] root, String from, String to) {
        return new CompoundBuilder().putfh(root).savefh().putfh(root).rename(from, to);
    }

    @Test
    void handlesBelowADirectoryRenamedPlainlyWorkAtItsNewPlace() throws IOException {
        try (ItSession s = ItSession.open(server, "rename-plain")) {
            NfsOps nfs = s.nfs();
            byte[][] t = tree(nfs, "plain-a");
            nfs.runOk(rename(t[0], "plain-a", "plain-z"));

            byte[] g = nfs.createFile(t[2], "g", bytes("new"));
            assertThat(nfs.lookup(nfs.lookup(nfs.lookup(t[0], "plain-z"), "b"), "g")).isEqualTo(g);
            assertThat(nfs.read(t[3])).isEqualTo(bytes("data"));
            assertThat(nfs.readdirNames(t[2])).containsExactlyInAnyOrder("f", "g");
            assertThat(nfs.run(new CompoundBuilder().putfh(t[0]).lookup("plain-a")).status())
                    .isEqualTo(NfsStatus.NOENT);
        }
    }

    @Test
    void handlesBelowADirectoryRenamedInATransactionWorkAtItsNewPlace() throws IOException {
        try (ItSession s = ItSession.open(server, "rename-txn")) {
            NfsOps nfs = s.nfs();
            byte[][] t = tree(nfs, "txn-a");
            CompoundResult r = s.session().executeTransaction(rename(t[0], "txn-a", "txn-z").putfh(t[2]).lookup("f"));
            assertThat(r.status()).isEqualTo(NfsStatus.OK);

            byte[] g = nfs.createFile(t[2], "g", bytes("new"));
            assertThat(nfs.lookup(nfs.lookup(nfs.lookup(t[0], "txn-z"), "b"), "g")).isEqualTo(g);
            assertThat(nfs.read(t[3])).isEqualTo(bytes("data"));
            assertThat(nfs.run(new CompoundBuilder().putfh(t[0]).lookup("txn-a")).status()).isEqualTo(NfsStatus.NOENT);
        }
    }

    @Test
    void aRenameThatRollsBackLeavesTheHandlesAtTheOldPlace() throws IOException {
        try (ItSession s = ItSession.open(server, "rename-rollback")) {
            NfsOps nfs = s.nfs();
            byte[][] t = tree(nfs, "rb-a");
            CompoundResult r = s.session().executeTransaction(
                    rename(t[0], "rb-a", "rb-z").putfh(t[2]).lookup("f").lookup("missing"));
            assertThat(r.status()).isNotEqualTo(NfsStatus.OK);

            byte[] g = nfs.createFile(t[2], "g", bytes("new"));
            assertThat(nfs.lookup(nfs.lookup(nfs.lookup(t[0], "rb-a"), "b"), "g")).isEqualTo(g);
            assertThat(nfs.read(t[3])).isEqualTo(bytes("data"));
            assertThat(nfs.run(new CompoundBuilder().putfh(t[0]).lookup("rb-z")).status()).isEqualTo(NfsStatus.NOENT);
        }
    }
}
