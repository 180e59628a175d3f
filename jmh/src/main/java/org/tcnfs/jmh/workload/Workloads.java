package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The workload driver's command line: {@code java -cp jmh/target/benchmarks.jar org.tcnfs.jmh.workload.Workloads
 * --target tcnfs-txn=nfs://127.0.0.1:2049/?txn --target tcnfs=nfs://127.0.0.1:2049/ --target
 * tcnfs-async=nfs://127.0.0.1:2049/async --target ganesha=nfs://127.0.0.1:2050/export --target
 * disk=disk:/mnt/tcnfs-xfs/bench/disk} (tcnfs-async: an export with the {@code async} option, see
 * {@code scripts/bench.sh}). Writes {@code results.csv},
 * {@code results.md} and one PNG per workload into {@code --out}; exit status 0 when every run succeeded, 1 when
 * some failed (their rows say why), 2 for bad arguments.
 */
@Command(name = "workloads", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs file workloads against NFSv4.1 servers and the local disk; writes CSV, markdown, PNGs.")
public final class Workloads implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(Workloads.class);
    static final List<String> ALL = List.of("writefiles", "readfiles", "degree", "shared", "macro", "bigtxn");

    @Option(names = "--target", required = true, paramLabel = "NAME=URL",
            description = "name=nfs://host:port/export[?txn] or name=disk:/dir; repeat; order is the table's")
    private List<String> targetSpecs = new ArrayList<>();
    @Option(names = "--workloads", split = ",", paramLabel = "W",
            description = "any of writefiles,readfiles,degree,shared,macro,bigtxn (default: all)")
    private List<String> workloads = new ArrayList<>(ALL);
    @Option(names = "--baseline", description = "target the ratios divide by first (default: ${DEFAULT-VALUE})")
    private String baseline = "tcnfs";
    @Option(names = "--reference", description = "target the ratios divide by second (default: ${DEFAULT-VALUE})")
    private String reference = "ganesha";
    @Option(names = "--out", description = "result directory (default: ${DEFAULT-VALUE})")
    private Path out = Path.of("target/bench-results");
    @Option(names = "--uid", description = "AUTH_SYS uid (default: ${DEFAULT-VALUE})")
    private int uid;
    @Option(names = "--gid", description = "AUTH_SYS gid (default: ${DEFAULT-VALUE})")
    private int gid;
    @Option(names = "--files", description = "files per writefiles/readfiles run (default: ${DEFAULT-VALUE})")
    private int files = 1000;
    @Option(names = "--sizes", split = ",", description = "writefiles/readfiles sizes (default: 4K,64K)")
    private List<String> sizes = new ArrayList<>(List.of("4K", "64K"));
    @Option(names = "--clients", split = ",", description = "writefiles/readfiles clients (default: 1,8)")
    private List<Integer> clients = new ArrayList<>(List.of(1, 8));
    @Option(names = {"-k", "--per-compound"}, description = "files per call (default: ${DEFAULT-VALUE})")
    private int perCompound = 16;
    @Option(names = "--degree-files", description = "files per degree run (default: ${DEFAULT-VALUE})")
    private int degreeFiles = 256;
    @Option(names = "--degrees", split = ",", description = "files per call of degree runs (default: 1,4,16,64,256)")
    private List<Integer> degrees = new ArrayList<>(List.of(1, 4, 16, 64, 256));
    @Option(names = "--degree-sizes", split = ",", description = "degree file sizes (default: 1K,128K)")
    private List<String> degreeSizes = new ArrayList<>(List.of("1K", "128K"));
    @Option(names = "--shared-clients", description = "clients of shared runs (default: ${DEFAULT-VALUE})")
    private int sharedClients = 8;
    @Option(names = "--shared-files", description = "files per client of shared runs (default: ${DEFAULT-VALUE})")
    private int sharedFiles = 100;
    @Option(names = "--shared-percents", split = ",", description = "shared percentages (default: 5,20)")
    private List<Integer> sharedPercents = new ArrayList<>(List.of(5, 20));
    @Option(names = "--shared-size", description = "file size of shared runs (default: ${DEFAULT-VALUE})")
    private String sharedSize = "4K";
    @Option(names = "--macro-dirs", description = "directories of the macro tree (default: ${DEFAULT-VALUE})")
    private int macroDirs = 200;
    @Option(names = "--macro-files", description = "files of the macro tree (default: ${DEFAULT-VALUE})")
    private int macroFiles = 2000;
    @Option(names = "--macro-symlinks", description = "symlinks of the macro tree (default: ${DEFAULT-VALUE})")
    private int macroSymlinks = 100;
    @Option(names = "--macro-mean-size", description = "mean file size of the macro tree (default: ${DEFAULT-VALUE})")
    private String macroMeanSize = "15K";
    @Option(names = "--bigtxn-files", description = "files per client in its one bigtxn call (default: ${DEFAULT-VALUE})")
    private int bigtxnFiles = 1024;
    @Option(names = "--bigtxn-size", description = "size of each bigtxn file (default: ${DEFAULT-VALUE})")
    private String bigtxnSize = "16K";
    @Option(names = "--bigtxn-clients", split = ",", description = "bigtxn clients (default: 1,8)")
    private List<Integer> bigtxnClients = new ArrayList<>(List.of(1, 8));
    @Option(names = "--server-metrics", paramLabel = "URL",
            description = "Prometheus endpoint of the server behind --metrics-targets (tcnfs: "
                    + "http://127.0.0.1:PORT/metrics): its heap is sampled during runs, bigtxn's operations checked")
    private URI serverMetrics;
    @Option(names = "--metrics-targets", split = ",", paramLabel = "NAME",
            description = "targets served by the --server-metrics server (default: tcnfs-txn,tcnfs,tcnfs-async)")
    private List<String> metricsTargets = new ArrayList<>(List.of("tcnfs-txn", "tcnfs", Report.ASYNC_TARGET));
    @Option(names = "--heap-workloads", split = ",", paramLabel = "W",
            description = "workloads whose runs sample the server's heap, or all (default: bigtxn; sampling costs "
                    + "the server CPU)")
    private List<String> heapWorkloads = new ArrayList<>(List.of("bigtxn"));
    @Option(names = "--heap-sample-ms", description = "heap sample period (default: ${DEFAULT-VALUE})")
    private int heapSampleMillis = 100;
    @Option(names = "--seed", description = "seed of trees, contents, shuffles (default: ${DEFAULT-VALUE})")
    private long seed = 42;
    @Option(names = "--warmup-files", description = "files of the untimed warm-up each target gets before the first "
            + "workload, 0 for none (default: ${DEFAULT-VALUE})")
    private int warmupFiles = 500;
    @Option(names = "--warmup-rounds", description = "rounds of that warm-up (default: ${DEFAULT-VALUE})")
    private int warmupRounds = 2;
    @Option(names = "--no-progress", description = "no progress bars")
    private boolean noProgress;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Workloads()).execute(args));
    }

    Settings settings() {
        return new Settings(files, sizes.stream().map(Sizes::parse).toList(), clients, perCompound, degreeFiles,
                degrees, degreeSizes.stream().map(Sizes::parse).toList(), sharedClients, sharedFiles, sharedPercents,
                Sizes.parse(sharedSize), macroDirs, macroFiles, macroSymlinks, Sizes.parse(macroMeanSize), seed,
                bigtxnFiles, Sizes.parse(bigtxnSize), bigtxnClients);
    }

    @Override
    public Integer call() throws IOException {
        Settings settings;
        List<Target> targets = new ArrayList<>();
        try {
            settings = settings();
            for (String spec : targetSpecs) {
                targets.add(Target.parse(spec).create(new Target.Identity(uid, gid)));
            }
            for (String w : workloads) {
                if (!ALL.contains(w)) {
                    throw new IllegalArgumentException("unknown workload '" + w + "' (" + String.join(",", ALL) + ")");
                }
            }
            for (String w : heapWorkloads) {
                if (!ALL.contains(w) && !w.equals(HeapSampler.ALL)) {
                    throw new IllegalArgumentException("unknown heap workload '" + w + "'");
                }
            }
            if (warmupFiles < 0 || warmupRounds < 1) {
                throw new IllegalArgumentException("warmup-files must not be negative and warmup-rounds positive");
            }
            if (heapSampleMillis < 1) {
                throw new IllegalArgumentException("heap-sample-ms must be positive");
            }
            if (serverMetrics != null && !"http".equals(serverMetrics.getScheme())) {
                throw new IllegalArgumentException("server-metrics '" + serverMetrics + "': expected http://");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("workloads: " + e.getMessage());
            return 2;
        }
        List<String> names = targets.stream().map(Target::name).toList();
        Files.createDirectories(out);
        List<Result> results = Collections.synchronizedList(new ArrayList<>());
        String base = "wl-" + Instant.now().getEpochSecond();
        Map<String, ServerMetrics> metricsOf = new HashMap<>();
        HeapSampler sampler = null;
        if (serverMetrics != null) {
            ServerMetrics m = new ServerMetrics(serverMetrics);
            metricsTargets.stream().filter(names::contains).forEach(n -> metricsOf.put(n, m));
            sampler = new HeapSampler(m, metricsOf.keySet(), Set.copyOf(heapWorkloads),
                    Duration.ofMillis(heapSampleMillis));
        }
        Runner runner = new Runner(noProgress ? Runner.Progress.NONE : Runner.Progress.BAR,
                sampler == null ? Runner.RunObserver.NONE : sampler);
        Suite suite = new Suite(runner, targets, settings, results::add, base, metricsOf);
        long start = System.nanoTime();
        suite.createBase();
        try {
            if (warmupFiles > 0) {
                LOG.info("warm-up: {} round(s) of {} files per target", warmupRounds, warmupFiles);
                suite.warmUp(warmupFiles, warmupRounds);
            }
            for (String w : workloads) {
                LOG.info("workload {}", w);
                switch (w) {
                    case "writefiles" -> suite.writefiles();
                    case "readfiles" -> suite.readfiles();
                    case "degree" -> suite.degree();
                    case "shared" -> suite.shared();
                    case "macro" -> suite.macro();
                    case "bigtxn" -> suite.bigtxn();
                    default -> throw new IllegalStateException(w);
                }
                write(results, names, targets, settings, sampler, (System.nanoTime() - start) / 1e9);
            }
        } finally {
            suite.removeBase();
            if (sampler != null) {
                sampler.close();
            }
        }
        write(results, names, targets, settings, sampler, (System.nanoTime() - start) / 1e9);
        System.out.println(Report.markdown(results, names, baseline, reference));
        if (sampler != null) {
            System.out.println(heapSummary(sampler));
            System.out.println(Report.heapMarkdown(sampler.peaks(), names));
        }
        System.out.println("results in " + out.toAbsolutePath());
        return results.stream().allMatch(Result::ok) ? 0 : 1;
    }

    private static String heapSummary(HeapSampler sampler) {
        return String.format(Locale.ROOT, "Server heap (%s, sampled every run of the heap workloads): peak %s MiB in "
                + "use over %d samples; heap maximum %s MiB.%n", sampler.metrics(), Report.mib(sampler.wholeRunPeak()),
                sampler.wholeRunSamples(), Report.mib(sampler.heapMax()));
    }

    private void write(List<Result> results, List<String> names, List<Target> targets, Settings settings,
            HeapSampler sampler, double seconds) throws IOException {
        List<Result> copy = List.copyOf(results);
        Files.writeString(out.resolve("results.csv"), Report.csv(copy), StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder();
        md.append("Workload results, ").append(Instant.now()).append(String.format(Locale.ROOT, ", %.0f s.%n%n", seconds));
        md.append("Targets: ").append(targets).append("\n\n");
        md.append("Settings: ").append(settings).append("\n\n");
        md.append("Throughput in items per second (files written or read, entries listed, paths removed); ratios ")
                .append("divide throughputs, so above 1 is faster.\n\n");
        String note = Report.durabilityNote(names, baseline, reference);
        if (!note.isEmpty()) {
            md.append(note).append("\n\n");
        }
        md.append(Report.markdown(copy, names, baseline, reference));
        if (sampler != null) {
            List<HeapSampler.Peak> peaks = sampler.peaks();
            md.append('\n').append(heapSummary(sampler)).append('\n');
            md.append("Peak server heap in use (jvm_memory_used_bytes{area=\"heap\"}, all pools, garbage included) ")
                    .append("and direct buffers, per run, in MiB:\n\n");
            md.append(Report.heapMarkdown(peaks, names));
            Files.writeString(out.resolve("heap.csv"), Report.heapCsv(peaks), StandardCharsets.UTF_8);
        }
        Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
        try {
            Plots.write(copy, names, out);
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.warn("plots not written: {}", e.toString());
        }
    }
}
