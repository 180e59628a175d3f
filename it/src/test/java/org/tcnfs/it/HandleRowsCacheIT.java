package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The file system answers its handle-table reads from a cache while the table does not change (issue 16), through
 * the wire with two clients: a walk repeated with no change reads no row ({@code tcnfs_handle_table_reads_total}),
 * a read-only transaction repeated takes no snapshot, a transaction of REMOVEs reads the rows of the path it takes to
 * each victim once, and a RENAME or REMOVE by one client is seen by the other's next LOOKUP and PUTFH.
 */
class HandleRowsCacheIT extends SharedServerTest {
    private static final String READS = "tcnfs_handle_table_reads_total";
    private static final String CACHED = "tcnfs_handle_table_cached_reads_total";
    private static final String SNAPSHOTS = "tcnfs_handle_table_snapshots_total";
    private static final int DEPTH = 8;
    /** Rounds of walks tried until one sees no change of the table by the background flush (at most 1 s each). */
    private static final int ROUNDS = 20;
    /** REMOVEs of the transaction that reaches its victims by LOOKUPs. */
    private static final int REMOVALS = 16;

    private NfsOps one;
    private NfsOps other;

    @BeforeAll
    void connect() throws IOException {
        one = new NfsOps(Nfs41Session.create(server.connect(), "rows-cache-one"));
        other = new NfsOps(Nfs41Session.create(server.connect(), "rows-cache-other"));
        one.mkdir(one.rootFh(), "rows-cache");
    }

    /** {@code rows-cache/name/d0/.../d7/f}; the names from the root to f. */
    private List<String> deepTree(String name) throws IOException {
        List<String> names = new ArrayList<>(List.of("rows-cache"));
        names.addAll(one.mkdirChainWithFile(one.lookup(one.rootFh(), "rows-cache"), name, DEPTH));
        return names;
    }

    /** How a libnfs client resolves a path: PUTROOTFH, a LOOKUP per name, GETFH, GETATTR. */
    private static CompoundBuilder walk(List<String> names) {
        CompoundBuilder b = new CompoundBuilder().putrootfh();
        names.forEach(b::lookup);
        return b.getfh().getattr(FATTR4_SIZE);
    }

    @Test
    void aWalkAndAPutfhRepeatedWithNoChangeReadNoHandleTableRow() throws Exception {
        List<String> names = deepTree("repeated");
        byte[] file = other.runOk(walk(names)).fileHandle();
        double reads = -1;
        for (int round = 0; round < ROUNDS && reads != 0; round++) {
            Thread.sleep(100);
            other.runOk(walk(names));
            other.getattr(file, FATTR4_SIZE);
            double before = server.metric(READS);
            for (int i = 0; i < 3; i++) {
                assertThat(other.runOk(walk(names)).fileHandle()).isEqualTo(file);
                other.getattr(file, FATTR4_SIZE);
            }
            reads = server.metric(READS) - before;
        }
        // the old server read the table's rows for every LOOKUP (the child and its node) and every PUTFH (the node,
        // the path of its links), and before every operation to find the export of the handle
        assertThat(reads).as("handle-table reads of 3 walks and 3 PUTFH GETATTRs with no change between").isZero();
        assertThat(server.metric(CACHED)).isPositive();
    }

    /**
     * A compound that changes a file but no handle-table row (an unmodified client's {@code PUTFH, SETATTR}) is planned
     * and locked: the locker's look-up of the handle's export and the planner's resolution of the handle come from the
     * table's cache as the file system's reads do.
     */
    @Test
    void aPutfhSetattrRepeatedWithNoChangeOfTheTableTakesNoHandleTableSnapshot() throws Exception {
        List<String> names = deepTree("planned");
        byte[] file = other.runOk(walk(names)).fileHandle();
        double snapshots = -1;
        for (int round = 0; round < ROUNDS && snapshots != 0; round++) {
            Thread.sleep(100);
            chmod(file, 0600);
            double before = server.metric(SNAPSHOTS);
            for (int mode : new int[] {0640, 0600, 0644}) {
                chmod(file, mode);
            }
            snapshots = server.metric(SNAPSHOTS) - before;
        }
        // the old server took two snapshots for each: the locker read the handle's row to find its export, the
        // planner its row and path
        assertThat(snapshots).as("handle-table snapshots of 3 PUTFH SETATTRs with no change of the table between")
                .isZero();
        assertThat(other.getattr(file, FATTR4_SIZE, FATTR4_MODE).mode() & 07777).isEqualTo(0644);
    }

    /**
     * A transaction that only reads runs as a plain compound that only reads: finding the export of its PUTFH's handle,
     * which decides that, is answered by the table's cache as the locker's look-up is.
     */
    @Test
    void aReadOnlyTransactionRepeatedWithNoChangeOfTheTableTakesNoHandleTableSnapshot() throws Exception {
        List<String> names = deepTree("read-only-txn");
        byte[] file = other.runOk(walk(names)).fileHandle();
        CompoundBuilder getattr = new CompoundBuilder().putfh(file).getattr(FATTR4_SIZE);
        double snapshots = -1;
        for (int round = 0; round < ROUNDS && snapshots != 0; round++) {
            Thread.sleep(100);
            assertThat(other.session().executeTransaction(getattr).status()).isEqualTo(NfsStatus.OK);
            double before = server.metric(SNAPSHOTS);
            for (int i = 0; i < 3; i++) {
                assertThat(other.session().executeTransaction(getattr).status()).isEqualTo(NfsStatus.OK);
            }
            snapshots = server.metric(SNAPSHOTS) - before;
        }
        // the old server read the handle's row in a snapshot of its own for each, to find its export's policy
        assertThat(snapshots).as("handle-table snapshots of 3 read-only transactions with no change of the table")
                .isZero();
    }

    private void chmod(byte[] file, int mode) throws IOException {
        other.runOk(new CompoundBuilder().putfh(file).setattr(Attrs.builder().mode(mode).build()));
    }

    /**
     * A transaction of REMOVEs that reaches each victim from a common directory by LOOKUPs, as the workload driver's rm
     * -rf does (64 paths a compound): once its buffer holds its first removal, the rows of the directories on the way
     * are still those of the table, so the rows cache answers them as for a plain compound; only each victim's own
     * rows are read.
     */
    @Test
    void aTransactionOfRemovesAlongOnePathReadsTheRowsOfThatPathOnce() throws Exception {
        byte[] top = one.mkdir(one.lookup(one.rootFh(), "rows-cache"), "txn-removes");
        byte[] b = one.mkdir(one.mkdir(top, "a"), "b");
        CompoundBuilder removes = new CompoundBuilder();
        for (int i = 0; i < REMOVALS; i++) {
            one.createFile(b, "f" + i, new byte[8]);
            removes.putfh(top).lookup("a").lookup("b").remove("f" + i);
        }
        server.awaitNoLateWork();
        double before = server.metric(READS);
        CompoundResult txn = other.session().executeTransaction(removes);
        double reads = server.metric(READS) - before;
        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.OK);
        assertThat(one.readdirNames(b)).isEmpty();
        System.out.printf("HandleRowsCacheIT: %.0f handle-table reads for %d REMOVEs%n", reads, REMOVALS);
        // the old server read every row through the transaction's buffer after its first REMOVE: each PUTFH's and
        // LOOKUP's rows again, 94 reads (this one: 4)
        assertThat(reads).as("handle-table reads of a transaction of %d REMOVEs along one path", REMOVALS)
                .isLessThanOrEqualTo(REMOVALS);
    }

    @Test
    void aRenameByAnotherClientIsSeenByTheNextLookupAndPutfh() throws IOException {
        List<String> names = deepTree("renamed");
        byte[] file = other.runOk(walk(names)).fileHandle();
        byte[] d3 = other.runOk(walk(names.subList(0, 6))).fileHandle();
        other.runOk(walk(names));
        byte[] d2 = one.runOk(walk(names.subList(0, 5))).fileHandle();
        one.runOk(new CompoundBuilder().putfh(d2).savefh().putfh(d2).rename("d3", "moved"));
        assertThat(other.run(walk(names)).status()).as("the old path").isEqualTo(NfsStatus.NOENT);
        List<String> moved = new ArrayList<>(names);
        moved.set(5, "moved");
        assertThat(other.runOk(walk(moved)).fileHandle()).isEqualTo(file);
        assertThat(other.runOk(walk(moved.subList(0, 6))).fileHandle()).isEqualTo(d3);
        assertThat(other.getattr(file, FATTR4_SIZE).size()).as("PUTFH of the file below the renamed directory")
                .isEqualTo("deep".length());
    }

    @Test
    void aRemoveByAnotherClientIsSeenByTheNextLookupAndPutfh() throws IOException {
        List<String> names = deepTree("removed");
        byte[] file = other.runOk(walk(names)).fileHandle();
        other.getattr(file, FATTR4_SIZE);
        byte[] dir = one.runOk(walk(names.subList(0, names.size() - 1))).fileHandle();
        one.runOk(new CompoundBuilder().putfh(dir).remove("f"));
        assertThat(other.run(walk(names)).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(other.run(new CompoundBuilder().putfh(file).getattr(FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
        one.createFile(dir, "f", "again".getBytes(StandardCharsets.UTF_8));
        byte[] again = other.runOk(walk(names)).fileHandle();
        assertThat(Arrays.equals(again, file)).as("a new file has a new handle").isFalse();
        assertThat(other.getattr(again, FATTR4_SIZE).size()).isEqualTo("again".length());
    }
}
