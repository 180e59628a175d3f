package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * The HTTP endpoints of the real server process (README, "Metrics, health and status"): the Prometheus
 * counters move while a workload runs, and count exactly what the workload did; the transaction counters
 * count commits, rollbacks and backed-up bytes; /health and /status.
 */
class MetricsEndpointIT extends SharedServerTest {
    private static final int FILE_SIZE = 4096;
    private static final String COMPOUNDS_OK = "tcnfs_compounds_total{status=\"NFS4_OK\"}";
    private static final String WRITES_OK = "tcnfs_ops_total{op=\"WRITE\",status=\"NFS4_OK\"}";
    private static final String LOOKUPS_NOENT = "tcnfs_ops_total{op=\"LOOKUP\",status=\"NFS4ERR_NOENT\"}";
    private static final String WRITE_BYTES = "tcnfs_io_bytes_total{op=\"WRITE\"}";
    private static final String READ_BYTES = "tcnfs_io_bytes_total{op=\"READ\"}";
    private static final String COMPOUND_LATENCIES = "tcnfs_compound_seconds_count";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort() + path))
                .timeout(Duration.ofSeconds(30)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The samples of one scrape: series (name and labels, as printed) to value. */
    private Map<String, Double> scrape() throws IOException, InterruptedException {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Double> samples = new HashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }

    private static double value(Map<String, Double> samples, String series) {
        return samples.getOrDefault(series, 0.0);
    }

    /** What the workload did, counted by the workload itself. */
    private static final class Done {
        volatile int files;
        volatile int missingLookups;
    }

    /**
     * Writes, reads back and looks up missing names until told to stop: one session, one directory.
     */
    private Done workload(Done done, AtomicBoolean stop) throws IOException {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "metrics")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "metrics-workload");
            Random random = new Random(7);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!stop.get() && System.nanoTime() < deadline) {
                byte[] data = new byte[FILE_SIZE];
                random.nextBytes(data);
                byte[] fh = nfs.createFile(dir, "f" + done.files, data);
                assertThat(nfs.read(fh)).isEqualTo(data);
                done.files++;
                NfsStatus missing = nfs.run(new CompoundBuilder().putfh(dir).lookup("missing" + done.files))
                        .statusOf(OP_LOOKUP);
                assertThat(missing).isEqualTo(NfsStatus.NOENT);
                done.missingLookups++;
            }
        }
        return done;
    }

    @Test
    void transactionCountersCountCommitsRollbacksAndBackedUpBytes() throws Exception {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "metrics-txn")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "metrics-txn");
            byte[] file = nfs.createFile(dir, "f", new byte[64 * 1024]);
            Map<String, Double> before = scrape();
            int commits = 3;
            int rollbacks = 2;
            for (int i = 0; i < commits; i++) {
                CompoundResult r = session.executeTransaction(new CompoundBuilder().putfh(file)
                        .setattr(Attrs.builder().size(1000 * (i + 1)).build()));
                assertThat(r.status()).as("commit %s: %s", i, r).isEqualTo(NfsStatus.OK);
            }
            for (int i = 0; i < rollbacks; i++) {
                CompoundResult r = session.executeTransaction(new CompoundBuilder().putfh(dir).mkdir("d" + i)
                        .putfh(dir).lookup("missing"));
                assertThat(r.status()).as("rollback %s: %s", i, r).isEqualTo(NfsStatus.NOENT);
            }
            Map<String, Double> after = scrape();

            assertThat(value(after, "tcnfs_txn_commits_total") - value(before, "tcnfs_txn_commits_total"))
                    .isEqualTo(commits);
            assertThat(value(after, "tcnfs_txn_rollbacks_total") - value(before, "tcnfs_txn_rollbacks_total"))
                    .isEqualTo(rollbacks);
            assertThat(value(after, "tcnfs_txn_undo_failures_total")).isZero();
            assertThat(after).containsKeys("tcnfs_txn_lock_wait_seconds_total", "tcnfs_txn_recovered",
                    "tcnfs_txn_backup_cloned_bytes_total", "tcnfs_txn_backup_copied_bytes_total",
                    "tcnfs_txn_lock_blocked_total{key=\"directory\",mode=\"write\"}",
                    "tcnfs_txn_lock_blocked_seconds_total{key=\"object\",mode=\"read\"}");
            assertThat(value(after, "tcnfs_txn_backup_cloned_bytes_total")
                    + value(after, "tcnfs_txn_backup_copied_bytes_total")
                    - value(before, "tcnfs_txn_backup_cloned_bytes_total")
                    - value(before, "tcnfs_txn_backup_copied_bytes_total"))
                    .as("the first truncation cut 63 KiB, more than fits in the record: backed up to a file")
                    .isGreaterThanOrEqualTo(64 * 1024 - 1000 - 16 * 1024);
        }
    }

    /**
     * Issue 16: a plain compound that only reads runs as a quiet read (no plan, no locks) while no compound holds or
     * waits for a WRITE lock (docs/architecture.md, step 1b); one that writes never does.
     */
    @Test
    void plainReadOnlyCompoundsRunAsQuietReadsWhileNothingWrites() throws Exception {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "metrics-quiet")) {
            NfsOps nfs = new NfsOps(session);
            byte[] dir = nfs.mkdir(nfs.rootFh(), "metrics-quiet");
            byte[] file = nfs.createFile(dir, "f", new byte[100]);
            Map<String, Double> before = scrape();
            int reads = 20;
            for (int i = 0; i < reads; i++) {
                nfs.runOk(new CompoundBuilder().putfh(dir).lookup("f").getfh().getattr(nfs4_attr.FATTR4_SIZE));
                nfs.runOk(new CompoundBuilder().putfh(file).read(CompoundBuilder.anonymousStateid(), 0, 100));
            }
            Map<String, Double> afterReads = scrape();
            nfs.runOk(new CompoundBuilder().putfh(file).setattr(Attrs.builder().size(10).build()));
            Map<String, Double> afterWrite = scrape();

            assertThat(value(afterReads, "tcnfs_txn_lock_quiet_reads_total")
                    - value(before, "tcnfs_txn_lock_quiet_reads_total")).isEqualTo(2 * reads);
            assertThat(value(afterWrite, "tcnfs_txn_lock_quiet_reads_total"))
                    .isEqualTo(value(afterReads, "tcnfs_txn_lock_quiet_reads_total"));
            assertThat(nfs.getattr(file, nfs4_attr.FATTR4_SIZE).size()).isEqualTo(10);
        }
    }

    @Test
    void countersMoveWhileAWorkloadRunsAndCountWhatItDid() throws Exception {
        Map<String, Double> before = scrape();
        AtomicBoolean stop = new AtomicBoolean();
        Done progress = new Done();
        CompletableFuture<Done> running = CompletableFuture.supplyAsync(() -> {
            try {
                return workload(progress, stop);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });

        // Scrape while it runs, until the compound counter was seen to rise three times and some files
        // were written.
        List<Double> seen = new ArrayList<>(List.of(value(before, COMPOUNDS_OK)));
        Map<String, Double> during = before;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((seen.size() < 4 || progress.files < 5) && !running.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            during = scrape();
            double now = value(during, COMPOUNDS_OK);
            assertThat(now).as("counters never fall").isGreaterThanOrEqualTo(seen.get(seen.size() - 1));
            if (now > seen.get(seen.size() - 1)) {
                seen.add(now);
            }
        }
        boolean sawItRun = !running.isDone();
        stop.set(true);
        Done done = running.get(120, TimeUnit.SECONDS);
        Map<String, Double> after = scrape();

        assertThat(sawItRun).as("the workload was still running when the counter had risen 3 times: %s", seen)
                .isTrue();
        assertThat(seen).hasSizeGreaterThanOrEqualTo(4);
        assertThat(value(during, "tcnfs_sessions")).as("the workload's session, open during the scrape")
                .isGreaterThanOrEqualTo(1);
        assertThat(value(during, "tcnfs_clients")).isGreaterThanOrEqualTo(1);
        assertThat(done.files).isGreaterThanOrEqualTo(5);
        assertThat(value(after, WRITES_OK) - value(before, WRITES_OK)).as("one WRITE per file").isEqualTo(done.files);
        assertThat(value(after, WRITE_BYTES) - value(before, WRITE_BYTES)).isEqualTo((double) done.files * FILE_SIZE);
        assertThat(value(after, READ_BYTES) - value(before, READ_BYTES)).isEqualTo((double) done.files * FILE_SIZE);
        assertThat(value(after, LOOKUPS_NOENT) - value(before, LOOKUPS_NOENT)).isEqualTo(done.missingLookups);
        assertThat(value(after, "tcnfs_compounds_total{status=\"NFS4ERR_NOENT\"}")
                - value(before, "tcnfs_compounds_total{status=\"NFS4ERR_NOENT\"}")).isEqualTo(done.missingLookups);
        // Per file: open, write, close, read; plus one failed lookup; plus the session's setup compounds.
        assertThat(value(after, COMPOUNDS_OK) - value(before, COMPOUNDS_OK)).isGreaterThanOrEqualTo(4.0 * done.files);
        assertThat(value(after, COMPOUND_LATENCIES) - value(before, COMPOUND_LATENCIES))
                .isGreaterThanOrEqualTo(5.0 * done.files);
        assertThat(value(after, "tcnfs_handle_table_size_bytes")).isPositive();
    }

    @Test
    void healthIsOk() throws Exception {
        HttpResponse<String> r = get("/health");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("ok\n");
    }

    @Test
    void statusNamesVersionExportsAndClients() throws Exception {
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "status")) {
            assertThat(session.clientId()).isNotZero();
            HttpResponse<String> r = get("/status");

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(r.body())
                    .contains("\"version\":\"0.1.0-SNAPSHOT\"")
                    .contains("\"nfs_port\":" + server.port())
                    .contains("\"directory\":\"" + server.exportDir().toAbsolutePath().normalize() + "\"")
                    .containsPattern("\"clients\":[1-9]")
                    .containsPattern("\"sessions\":[1-9]")
                    .containsPattern("\"uptime_seconds\":[0-9]+");
        }
    }
}
