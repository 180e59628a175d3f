package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * The work one compound that creates and writes one new file costs the server (issue 16 goal 1: the workload
 * driver's {@code degree k=1} row, OPEN-create + stable WRITE + CLOSE in one compound; docs/benchmarks.md, "one new
 * file per compound"), counted through the wire by the server's metrics endpoint around compounds sent one at a
 * time. On an {@code async} export (docs/durability.md, "The async export option") such a compound's only flush
 * before its reply is its file's fsync; its row waits in memory and its directory's sync in the background queue.
 */
class OneNewFilePerCompoundIT {
    private static final String FILE = "tcnfs_fsyncs_total{of=\"file\"}";
    private static final String DIRECTORY = "tcnfs_fsyncs_total{of=\"directory\"}";
    private static final String HAND_OFFS = "tcnfs_fsync_pool_handoffs_total";
    private static final String JOINED = "tcnfs_directory_syncs_joined_total";
    private static final String LATE = "tcnfs_late_pending";
    private static final String PENDING_ROWS = "tcnfs_handle_table_pending_rows";
    private static final String RESOLUTIONS = "tcnfs_handle_resolutions_total";

    private static ServerProcess async;

    @BeforeAll
    static void startServer() throws IOException {
        async = ServerProcess.start("--data-options", "rw,no_root_squash,async");
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (async != null) {
            async.close();
        }
    }

    private static double metric(String scraped, String name) {
        // labelled series are matched whole, as the scrape prints them
        OptionalDouble value = ServerProcess.metric(scraped, name);
        assertThat(value).as(name + " on the metrics endpoint").isPresent();
        return value.getAsDouble();
    }

    private static long delta(String before, String after, String name) {
        return (long) (metric(after, name) - metric(before, name));
    }

    /** Waits until the background flush has done what was queued (at most 20 s). */
    private static void settle() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            String now = async.scrapeMetrics();
            if (metric(now, LATE) == 0 && metric(now, PENDING_ROWS) == 0) {
                break;
            }
            Thread.sleep(50);
        }
        Thread.sleep(500);
    }

    private static CompoundBuilder createWriteClose(Nfs41Session session, NfsOps nfs, byte[] dir, String name) {
        return new CompoundBuilder().putfh(dir)
                .openCreate(session.clientId(), nfs.openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().mode(0644).build())
                .write(CompoundBuilder.currentStateid(), 0, new byte[1024])
                .getfh()
                .close(CompoundBuilder.currentStateid());
    }

    /**
     * On an {@code async} export the compound's row goes to memory (pending rows) rather than into an LMDB commit, so
     * nothing is left to run beside its file's fsync: the compound's own thread runs it, with no hand-off to an
     * fsync pool thread and back (two thread wake-ups; before, it handed the fsync to the pool while its own thread
     * kept the rows pending, 1 hand-off per compound). The file's fsync still happens before the reply.
     */
    @Test
    void asyncExportCreateWriteCloseCompoundSyncsItsFileOnItsOwnThread() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-own-thread");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "own-thread");
        settle();
        for (int i = 0; i < 3; i++) {
            String before = async.scrapeMetrics();
            nfs.runOk(createWriteClose(session, nfs, dir, "f" + i));
            String after = async.scrapeMetrics();
            // (the directory's sync waits in the queue; the background flush may run it meanwhile, on its own thread)
            assertThat(List.of(delta(before, after, FILE), delta(before, after, HAND_OFFS)))
                    .as("file fsyncs, pool hand-offs of f" + i)
                    .containsExactly(1L, 0L);
        }
        session.close();
    }

    /**
     * A compound that creates a file in a directory whose sync already waits in the background queue (created in a
     * moment before, not yet flushed) needs no sync of its own: the queued one has not begun, so it makes this entry
     * durable too. The compound then opens no descriptor of the directory (before: one {@code open} and
     * {@code close} per compound, the descriptor dropped at the queue). Each directory is still synced by the flush,
     * and every file is there, by handle and by name.
     */
    @Test
    void asyncExportCreateInADirectoryWhoseSyncWaitsInTheQueueJoinsThatSync() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-joined");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "joined");
        settle();
        String start = async.scrapeMetrics();
        List<byte[]> files = new ArrayList<>();
        int count = 10;
        for (int i = 0; i < count; i++) {
            CompoundResult created = nfs.runOk(createWriteClose(session, nfs, dir, "f" + i));
            files.add(created.fileHandle());
        }
        String sent = async.scrapeMetrics();
        // the first create queues the directory's sync; the others join it unless a flush (at most one a second)
        // took it in between, when the next create queues it again
        long joined = delta(start, sent, JOINED);
        assertThat(joined).as("creates that joined a queued directory sync").isBetween(count / 2L, count - 1L);
        settle();
        String end = async.scrapeMetrics();
        assertThat(delta(start, end, DIRECTORY)).as("directory fsyncs of the background flush")
                .isBetween(1L, count - joined);
        for (int i = 0; i < count; i++) {
            assertThat(nfs.run(new CompoundBuilder().putfh(files.get(i)).getattr(nfs4_attr.FATTR4_SIZE)).status())
                    .as("f" + i + " by handle").isEqualTo(NfsStatus.OK);
            assertThat(nfs.runOk(new CompoundBuilder().putfh(dir).lookup("f" + i).getfh()).fileHandle())
                    .as("f" + i + " by name").isEqualTo(files.get(i));
        }
        session.close();
    }

    /**
     * An OPEN that creates reads its directory for its type, the name's absence, the change attribute before and the
     * create's own checks, all before anything changes under the compound's locks: one stretch of the compound's scope
     * (as a REMOVE's reads are), so the file system resolves the directory once (handle-table read, path,
     * {@code lstat}) and reads the change attribute after with one {@code lstat} of the path it created in. Counted
     * for {@code PUTFH(dir) OPEN(create)}: 1 resolution, PUTFH's, which the OPEN of a plain compound continues to use
     * (2 while the OPEN began a stretch of its own and resolved the directory again; before that, the directory was
     * resolved six times: for its type, the lookup, the change before, the pseudo file system's check, the create,
     * the change after). The reply's {@code cinfo} still matches what GETATTR sees after.
     */
    @Test
    void anOpenThatCreatesResolvesItsDirectoryOnce() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-resolutions");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "resolutions");
        for (int i = 0; i < 3; i++) {
            CompoundBuilder open = new CompoundBuilder().putfh(dir).openCreate(session.clientId(), nfs.openOwner(),
                    "f" + i, OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0644).build());
            assertChangeIn(nfs, dir, open, r -> r.body(OP_OPEN, OPEN4resok.class).cinfo, 1,
                    "PUTFH and OPEN-create of f" + i);
        }
        session.close();
    }

    /**
     * A CREATE of a directory (what {@code mkdir} through an unmodified client sends) reads its directory for its
     * type, the change attribute before and the create's own checks in one stretch of the compound's scope, before
     * anything changes: the file system resolves the directory once for them, and once more for the change attribute
     * after. Counted for {@code PUTFH(dir) CREATE(dir)}: 3 resolutions (before: 6). {@code cinfo} still matches what
     * GETATTR sees before and after.
     */
    @Test
    void aCreateOfADirectoryResolvesItsDirectoryOnceBeforeTheChange() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-mkdir-resolutions");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "mkdir-resolutions");
        for (int i = 0; i < 3; i++) {
            assertChangeIn(nfs, dir, new CompoundBuilder().putfh(dir).mkdir("d" + i),
                    r -> r.body(OP_CREATE, CREATE4resok.class).cinfo, 3, "PUTFH and CREATE of d" + i);
        }
        session.close();
    }

    /**
     * Sends {@code compound}, which changes {@code dir}: it resolved {@code resolutions} handles, and its
     * {@code cinfo} is what GETATTR of the directory saw before and sees after.
     */
    private void assertChangeIn(NfsOps nfs, byte[] dir, CompoundBuilder compound,
            java.util.function.Function<CompoundResult, change_info4> cinfoOf, long resolutions, String what)
            throws Exception {
        long changeBefore = nfs.getattr(dir, nfs4_attr.FATTR4_CHANGE).change();
        String before = async.scrapeMetrics();
        CompoundResult result = nfs.runOk(compound);
        String after = async.scrapeMetrics();
        assertThat(delta(before, after, RESOLUTIONS)).as("handles resolved by " + what).isEqualTo(resolutions);
        change_info4 cinfo = cinfoOf.apply(result);
        assertThat(cinfo.before).as("cinfo.before of " + what).isEqualTo(changeBefore);
        assertThat(cinfo.after).as("cinfo.after of " + what)
                .isEqualTo(nfs.getattr(dir, nfs4_attr.FATTR4_CHANGE).change())
                .isNotEqualTo(changeBefore);
    }

    /**
     * The driver's k=1 compound: a WRITE reads the file for the pseudo file system's permission check and for the
     * write itself in one stretch of the compound's scope, which the file system ends before the bytes go out: it
     * resolves the file once. Counted for {@code PUTFH(dir) OPEN(create) WRITE CLOSE}: 1 resolution (PUTFH's
     * directory, which OPEN uses too; the WRITE finds the file as the create left it in the stretch the engine resumes
     * after the OPEN; 2 while WRITE resolved it, 3 while OPEN resolved its directory again, 9 before that), and the
     * bytes are there.
     */
    @Test
    void theOneNewFileCompoundResolvesEachObjectOncePerOperation() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-write-resolutions");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "write-resolutions");
        for (int i = 0; i < 3; i++) {
            String before = async.scrapeMetrics();
            CompoundResult created = nfs.runOk(createWriteClose(session, nfs, dir, "f" + i));
            String after = async.scrapeMetrics();
            assertThat(delta(before, after, RESOLUTIONS))
                    .as("handles resolved by PUTFH, OPEN-create, WRITE, CLOSE of f" + i).isEqualTo(1);
            assertThat(nfs.read(created.fileHandle())).as("f" + i).isEqualTo(new byte[1024]);
        }
        session.close();
    }

    /**
     * A SETATTR (what {@code chmod} through an unmodified client sends) reads its object for the pseudo file system's
     * permission checks and for the change itself in one stretch of the compound's scope, which the file system ends
     * before it changes anything: it resolves the object once. Counted for {@code PUTFH(file) SETATTR(mode)}: 2
     * resolutions (before: 3), and the mode is set.
     */
    @Test
    void aSetattrResolvesItsObjectOnce() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "k1-setattr-resolutions");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "setattr-resolutions");
        byte[] file = nfs.runOk(createWriteClose(session, nfs, dir, "f")).fileHandle();
        for (int mode : new int[] {0600, 0640, 0644}) {
            String before = async.scrapeMetrics();
            nfs.runOk(new CompoundBuilder().putfh(file).setattr(Attrs.builder().mode(mode).build()));
            String after = async.scrapeMetrics();
            assertThat(delta(before, after, RESOLUTIONS)).as("handles resolved by PUTFH and SETATTR mode "
                    + Integer.toOctalString(mode)).isEqualTo(2);
            assertThat(nfs.getattr(file, nfs4_attr.FATTR4_MODE).mode()).isEqualTo(mode);
        }
        session.close();
    }
}
