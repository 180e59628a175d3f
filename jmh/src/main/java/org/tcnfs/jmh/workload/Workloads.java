package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The workload driver's command line: {@code java -cp jmh/target/benchmarks.jar org.tcnfs.jmh.workload.Workloads
 * --target tcnfs-txn=nfs://127.0.0.1:2049/?txn --target tcnfs=nfs://127.0.0.1:2049/ --target
 * ganesha=nfs://127.0.0.1:2050/export --target disk=disk:/mnt/tcnfs-xfs/bench/disk}. Writes {@code results.csv},
 * {@code results.md} and one PNG per workload into {@code --out}; exit status 0 when every run succeeded, 1 when
 * some failed (their rows say why), 2 for bad arguments.
 */
@Command(name = "workloads", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs file workloads against NFSv4.1 servers and the local disk; writes CSV, markdown, PNGs.")
public final class Workloads implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(Workloads.class);
    static final List<String> ALL = List.of("writefiles", "readfiles", "degree", "shared", "macro");

    @Option(names = "--target", required = true, paramLabel = "NAME=URL",
            description = "name=nfs://host:port/export[?txn] or name=disk:/dir; repeat; order is the table's")
    private List<String> targetSpecs = new ArrayList<>();
    @Option(names = "--workloads", split = ",", paramLabel = "W",
            description = "any of writefiles,readfiles,degree,shared,macro (default: all)")
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
    @Option(names = "--seed", description = "seed of trees, contents, shuffles (default: ${DEFAULT-VALUE})")
    private long seed = 42;
    @Option(names = "--no-progress", description = "no progress bars")
    private boolean noProgress;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Workloads()).execute(args));
    }

    Settings settings() {
        return new Settings(files, sizes.stream().map(Sizes::parse).toList(), clients, perCompound, degreeFiles,
                degrees, degreeSizes.stream().map(Sizes::parse).toList(), sharedClients, sharedFiles, sharedPercents,
                Sizes.parse(sharedSize), macroDirs, macroFiles, macroSymlinks, Sizes.parse(macroMeanSize), seed);
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
        } catch (IllegalArgumentException e) {
            System.err.println("workloads: " + e.getMessage());
            return 2;
        }
        List<String> names = targets.stream().map(Target::name).toList();
        Files.createDirectories(out);
        List<Result> results = Collections.synchronizedList(new ArrayList<>());
        String base = "wl-" + Instant.now().getEpochSecond();
        Suite suite = new Suite(new Runner(noProgress ? Runner.Progress.NONE : Runner.Progress.BAR), targets, settings, results::add, base);
        long start = System.nanoTime();
        suite.createBase();
        try {
            for (String w : workloads) {
                LOG.info("workload {}", w);
                switch (w) {
                    case "writefiles" -> suite.writefiles();
                    case "readfiles" -> suite.readfiles();
                    case "degree" -> suite.degree();
                    case "shared" -> suite.shared();
                    case "macro" -> suite.macro();
                    default -> throw new IllegalStateException(w);
                }
                write(results, names, targets, settings, (System.nanoTime() - start) / 1e9);
            }
        } finally {
            suite.removeBase();
        }
        write(results, names, targets, settings, (System.nanoTime() - start) / 1e9);
        System.out.println(Report.markdown(results, names, baseline, reference));
        System.out.println("results in " + out.toAbsolutePath());
        return results.stream().allMatch(Result::ok) ? 0 : 1;
    }

    private void write(List<Result> results, List<String> names, List<Target> targets, Settings settings,
            double seconds) throws IOException {
        List<Result> copy = List.copyOf(results);
        Files.writeString(out.resolve("results.csv"), Report.csv(copy), StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder();
        md.append("Workload results, ").append(Instant.now()).append(String.format(Locale.ROOT, ", %.0f s.%n%n", seconds));
        md.append("Targets: ").append(targets).append("\n\n");
        md.append("Settings: ").append(settings).append("\n\n");
        md.append("Throughput in items per second (files written or read, entries listed, paths removed); ratios ")
                .append("divide throughputs, so above 1 is faster.\n\n");
        md.append(Report.markdown(copy, names, baseline, reference));
        Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
        try {
            Plots.write(copy, names, out);
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.warn("plots not written: {}", e.toString());
        }
    }
}
