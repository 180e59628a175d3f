package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * A crash (kill -9) of a server whose {@code async} export keeps the handle rows of the last second's plain
 * compounds in memory only (pending rows; docs/durability.md, "The async export option"; issue 16 goal 1): the rows
 * are lost, the objects are not (the page cache outlives the process). After the restart the table must be
 * consistent: every handle the client got either names the very object it named (same file id) or answers
 * NFS4ERR_STALE, never another object or another error; handles whose rows a flush committed before the crash
 * still resolve; every object on the disk is found by name again (getting a new handle) and reads as written; and
 * the export takes new work in the directories whose rows were lost. (Power cuts of an {@code async} export, which
 * also drop the directory entries not yet synced, are {@code PowerLossIT}'s.)
 */
@Tag("crash")
class AsyncPendingRowsCrashIT {
    private static final String PENDING_ROWS = "tcnfs_handle_table_pending_rows";

    private static byte[] contents(String path) {
        return ("contents of " + path).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void killedRightAfterAsyncCreatesEveryHandleNamesItsObjectOrIsStaleAndEveryObjectIsFoundAgain()
            throws Exception {
        try (ServerProcess server = ServerProcess.start("--data-options", "rw,no_root_squash,async")) {
            Map<String, byte[]> files = new LinkedHashMap<>(); // path -> contents, as on the disk
            Map<String, Long> ids = new LinkedHashMap<>(); // handle (hex) -> file id when the client got it
            List<String> durable = new ArrayList<>(); // handles whose rows a flush committed before the crash
            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "pending-rows-crash")) {
                NfsOps nfs = new NfsOps(session);
                byte[] root = nfs.rootFh();
                byte[] base = nfs.mkdir(root, "base");
                for (int i = 0; i < 5; i++) {
                    String path = "base/f" + i;
                    byte[] fh = nfs.createFile(base, "f" + i, contents(path));
                    files.put(path, contents(path));
                    note(nfs, fh, ids);
                    durable.add(HexFormat.of().formatHex(fh));
                }
                server.awaitNoPendingRows(Duration.ofSeconds(20));
                Thread.sleep(200);

                // the last second before the crash: new directories (rows of parents pending too), files in
                // them and in base, a rename and a removal, none of it committed to the table
                for (int d = 0; d < 3; d++) {
                    byte[] dir = nfs.mkdir(root, "new" + d);
                    note(nfs, dir, ids);
                    byte[] sub = nfs.mkdir(dir, "sub");
                    note(nfs, sub, ids);
                    for (int i = 0; i < 4; i++) {
                        String path = "new" + d + "/sub/g" + i;
                        note(nfs, nfs.createFile(sub, "g" + i, contents(path)), ids);
                        files.put(path, contents(path));
                    }
                }
                note(nfs, nfs.createFile(base, "late", contents("base/late")), ids);
                files.put("base/late", contents("base/late"));
                nfs.runOk(new CompoundBuilder().putfh(base).savefh().putfh(base).rename("f0", "renamed"));
                files.put("base/renamed", files.remove("base/f0"));
                durable.remove(0);
                nfs.runOk(new CompoundBuilder().putfh(base).remove("f1"));
                files.remove("base/f1");
                durable.remove(0);
                assertThat(server.metric(PENDING_ROWS)).as("rows waiting in memory at the crash").isPositive();
            }
            server.kill();
            server.relaunch();

            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "pending-rows-crash-check")) {
                NfsOps nfs = new NfsOps(session);
                int stale = 0;
                for (Map.Entry<String, Long> e : ids.entrySet()) {
                    byte[] fh = HexFormat.of().parseHex(e.getKey());
                    CompoundResult r = nfs.run(new CompoundBuilder().putfh(fh).getattr(nfs4_attr.FATTR4_FILEID));
                    if (r.status() == NfsStatus.STALE) {
                        assertThat(durable).as("a handle whose row was committed before the crash")
                                .doesNotContain(e.getKey());
                        stale++;
                        continue;
                    }
                    assertThat(r.status()).as("handle %s", e.getKey()).isEqualTo(NfsStatus.OK);
                    assertThat(nfs.getattr(fh, nfs4_attr.FATTR4_FILEID).fileid())
                            .as("the object handle %s names", e.getKey()).isEqualTo(e.getValue());
                }
                System.out.printf("AsyncPendingRowsCrashIT: %d handles, %d answered NFS4ERR_STALE after the crash%n",
                        ids.size(), stale);
                byte[] root = nfs.rootFh();
                for (Map.Entry<String, byte[]> f : files.entrySet()) {
                    byte[] fh = root;
                    for (String name : f.getKey().split("/")) {
                        fh = nfs.lookup(fh, name);
                    }
                    assertThat(nfs.read(fh)).as(f.getKey()).isEqualTo(f.getValue());
                }
                assertThat(nfs.readdirNames(nfs.lookup(root, "base")))
                        .containsExactlyInAnyOrder("renamed", "f2", "f3", "f4", "late");
                byte[] sub = nfs.lookup(nfs.lookup(root, "new1"), "sub");
                byte[] again = nfs.createFile(sub, "after", contents("after"));
                assertThat(nfs.read(again)).isEqualTo(contents("after"));
            }
            // a clean stop commits what is pending: every handle of the second run survives it
            server.restart();
            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "pending-rows-crash-restart")) {
                NfsOps nfs = new NfsOps(session);
                byte[] sub = nfs.lookup(nfs.lookup(nfs.rootFh(), "new1"), "sub");
                assertThat(nfs.read(nfs.lookup(sub, "after"))).isEqualTo(contents("after"));
            }
        }
    }

    private static void note(NfsOps nfs, byte[] fh, Map<String, Long> ids) throws IOException {
        ids.put(HexFormat.of().formatHex(fh), nfs.getattr(fh, nfs4_attr.FATTR4_FILEID).fileid());
    }
}
