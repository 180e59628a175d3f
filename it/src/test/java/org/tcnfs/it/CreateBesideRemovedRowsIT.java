package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;

/**
 * A plain CREATE in a directory that is there answers NFS4_OK while other compounds create and remove objects
 * beside it (DESIGN.md, "Handles": an unknown handle is NFS4ERR_STALE, a known one is not). On ext4, whose inode
 * numbers come back at once, the new object often gets the inode number of an object another compound has just
 * removed; that compound commits the row of its removed object (the row goes later, docs/durability.md) at the end,
 * maybe while the new object is being registered. The crash-recovery stream test of main 018a580 saw such a CREATE
 * answer NFS4ERR_STALE once (the handle table's registration refused the inode number, "the directory changed").
 *
 * <p>Half the clients run compounds that make and remove {@value #CHURN} symbolic links each, the other half
 * compounds of {@value #BATCH} CREATEs of a symbolic link, each client in its own directory, for 20 seconds
 * ({@code -Dtcnfs.it.create-beside.seconds}); every compound must succeed and every name made must resolve
 * afterwards. Before the fix (d888c6f) a run here saw 1 to 3 CREATEs answer NFS4ERR_STALE, the server logging
 * "registering .../x35-2 failed: inode 35288 of export / is registered" at DEBUG.
 */
class CreateBesideRemovedRowsIT extends SharedServerTest {
    private static final int CLIENTS = 6;
    private static final int CHURN = 24;
    private static final int BATCH = 8;
    private static final int SECONDS = Integer.getInteger("tcnfs.it.create-beside.seconds", 20);

    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }

    @Test
    void createsBesideCompoundsThatCreateAndRemoveNeverAnswerStale() throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger creates = new AtomicInteger();
        AtomicInteger churned = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        byte[][] dirs = new byte[CLIENTS][];
        List<List<String>> made = new ArrayList<>();
        try (ThreadClients clients = ThreadClients.open(server, "create-beside")) {
            byte[] top = clients.nfs().mkdir(clients.nfs().rootFh(), "create-beside");
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                dirs[c] = clients.nfs().mkdir(top, "c" + c);
                NfsOps nfs = clients.newClient("create-beside-" + c);
                byte[] dir = dirs[c];
                List<String> names = new ArrayList<>();
                made.add(names);
                boolean churner = c % 2 == 0;
                tasks.add(() -> {
                    for (int round = 0; System.nanoTime() < end && failures.size() < 5; round++) {
                        // CREATE makes the new object the current one: each goes from the directory's handle
                        CompoundBuilder ops = new CompoundBuilder();
                        if (churner) {
                            for (int i = 0; i < CHURN; i++) {
                                ops.putfh(dir).symlink("x" + round + "-" + i, "../gone");
                            }
                            ops.putfh(dir);
                            for (int i = 0; i < CHURN; i++) {
                                ops.remove("x" + round + "-" + i);
                            }
                        } else {
                            for (int i = 0; i < BATCH; i++) {
                                ops.putfh(dir).symlink("y" + round + "-" + i, "../t312");
                            }
                        }
                        CompoundResult r = nfs.run(ops);
                        if (!r.isOk()) {
                            failures.add((churner ? "create-and-remove" : "create") + " round " + round + ": " + r);
                        } else if (churner) {
                            churned.addAndGet(CHURN);
                        } else {
                            creates.addAndGet(BATCH);
                            for (int i = 0; i < BATCH; i++) {
                                names.add("y" + round + "-" + i);
                            }
                        }
                    }
                    return null;
                });
            }
            ThreadClients.runAll(tasks, TimeUnit.SECONDS.toNanos(SECONDS));
            System.out.printf("CreateBesideRemovedRowsIT: %d creates beside %d created and removed objects in %d s, "
                    + "%d failed compounds%n", creates.get(), churned.get(), SECONDS, failures.size());
            assertThat(failures).as("compounds that failed; server log:%n%s", server.warnings(40)).isEmpty();
            for (int c = 1; c < CLIENTS; c += 2) {
                for (String name : made.get(c)) {
                    clients.nfs().lookup(dirs[c], name);
                }
            }
        }
        assertThat(creates.get()).isPositive();
    }
}
