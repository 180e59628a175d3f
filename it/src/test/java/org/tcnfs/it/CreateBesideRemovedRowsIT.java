package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
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
 * <p>A third of the clients run compounds that make and remove {@value #CHURN} symbolic links each, a third
 * compounds of {@value #BATCH} CREATEs of a symbolic link, a third compounds of {@value #BATCH} LOOKUPs of files
 * the test made beside the server (which the LOOKUP registers), each client in its own directory, for 20 seconds
 * ({@code -Dtcnfs.it.create-beside.seconds}); every compound must succeed and every name made must resolve
 * afterwards. Before the fix (d888c6f) a run here saw 1 to 3 CREATEs answer NFS4ERR_STALE, the server logging
 * "registering .../x35-2 failed: inode 35288 of export / is registered" at DEBUG.
 */
class CreateBesideRemovedRowsIT extends SharedServerTest {
    private static final int CLIENTS = 6;
    private static final int CHURN = 24;
    private static final int BATCH = 8;
    private static final int SECONDS = Integer.getInteger("tcnfs.it.create-beside.seconds", 20);
    /**
     * Most rounds a client runs within {@link #SECONDS}: the four clients that keep what they make (CREATE, LOOKUP)
     * then make at most 4 x {@value #BATCH} x this many objects, which the ext4 test mount's 65,536 inodes hold (a
     * fast run made more and failed with ENOSPC).
     */
    private static final int MAX_ROUNDS = 1_500;

    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }

    /** What a client does in a round: churn (create and remove), create, or look up objects made beside the server. */
    private enum Role { CHURN, CREATE, LOOKUP }

    @Test
    void createsAndLookupsBesideCompoundsThatCreateAndRemoveNeverAnswerStale() throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger creates = new AtomicInteger();
        AtomicInteger lookups = new AtomicInteger();
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
                Path onDisk = server.exportDir().resolve("create-beside").resolve("c" + c);
                List<String> names = new ArrayList<>();
                made.add(names);
                Role role = Role.values()[c % Role.values().length];
                tasks.add(() -> {
                    for (int round = 0; round < MAX_ROUNDS && System.nanoTime() < end && failures.size() < 5;
                            round++) {
                        // CREATE makes the new object the current one: each goes from the directory's handle
                        CompoundBuilder ops = new CompoundBuilder();
                        List<String> inRound = new ArrayList<>();
                        switch (role) {
                            case CHURN -> {
                                for (int i = 0; i < CHURN; i++) {
                                    ops.putfh(dir).symlink("x" + round + "-" + i, "../gone");
                                }
                                ops.putfh(dir);
                                for (int i = 0; i < CHURN; i++) {
                                    ops.remove("x" + round + "-" + i);
                                }
                            }
                            case CREATE -> {
                                for (int i = 0; i < BATCH; i++) {
                                    inRound.add("y" + round + "-" + i);
                                    ops.putfh(dir).symlink("y" + round + "-" + i, "../t312");
                                }
                            }
                            case LOOKUP -> {
                                for (int i = 0; i < BATCH; i++) {
                                    // made beside the server: the LOOKUP registers it
                                    inRound.add("z" + round + "-" + i);
                                    Files.createFile(onDisk.resolve("z" + round + "-" + i));
                                    ops.putfh(dir).lookup("z" + round + "-" + i);
                                }
                            }
                            default -> throw new IllegalStateException(role.toString());
                        }
                        CompoundResult r = nfs.run(ops);
                        if (!r.isOk()) {
                            failures.add(role + " round " + round + ": " + r);
                            continue;
                        }
                        names.addAll(inRound);
                        (role == Role.CHURN ? churned : role == Role.CREATE ? creates : lookups).addAndGet(
                                role == Role.CHURN ? CHURN : BATCH);
                    }
                    return null;
                });
            }
            ThreadClients.runAll(tasks, TimeUnit.SECONDS.toNanos(SECONDS));
            System.out.printf("CreateBesideRemovedRowsIT: %d creates and %d lookups beside %d created and removed "
                    + "objects in %d s, %d failed compounds%n", creates.get(), lookups.get(), churned.get(), SECONDS,
                    failures.size());
            assertThat(failures).as("compounds that failed; server log:%n%s", server.warnings(40)).isEmpty();
            for (int c = 0; c < CLIENTS; c++) {
                assertThat(clients.nfs().readdirNames(dirs[c])).as("c%s", c).containsAll(made.get(c));
            }
        }
        assertThat(creates.get()).isPositive();
        assertThat(lookups.get()).isPositive();
    }
}
