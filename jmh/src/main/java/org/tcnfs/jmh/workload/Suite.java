package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.jmh.workload.FsSession.Entry;
import org.tcnfs.jmh.workload.FsSession.FileData;
import org.tcnfs.jmh.workload.FsSession.Kind;
import org.tcnfs.jmh.workload.FsSession.Link;
import org.tcnfs.jmh.workload.Runner.ClientWork;
import org.tcnfs.jmh.workload.Runner.Done;

/**
 * The workloads. Every parameter setting runs against every target before the next setting starts, so slow
 * drifts of a shared machine touch all targets alike. Each run works in a directory of its own under
 * {@code base}, made before and removed after the run (untimed, without transactions).
 */
final class Suite {
    private static final Logger LOG = LoggerFactory.getLogger(Suite.class);
    /** Items per call of untimed setup and cleanup, and of getattrs/remove in the macro workload. */
    static final int BULK = 64;
    /** Most data bytes per call of the macro workload's writes. */
    private static final long MACRO_CALL_BYTES = 2L * 1024 * 1024;

    private final Runner runner;
    private final List<Target> targets;
    private final Settings s;
    private final Consumer<Result> sink;
    private final String base;
    private final byte[] pool;
    /** The Prometheus endpoint of the server behind a target, by target name (only tcnfs has one). */
    private final Map<String, ServerMetrics> serverMetrics;
    private int runs;

    Suite(Runner runner, List<Target> targets, Settings settings, Consumer<Result> sink, String base) {
        this(runner, targets, settings, sink, base, Map.of());
    }

    Suite(Runner runner, List<Target> targets, Settings settings, Consumer<Result> sink, String base,
            Map<String, ServerMetrics> serverMetrics) {
        this.runner = runner;
        this.targets = List.copyOf(targets);
        this.s = settings;
        this.sink = sink;
        this.base = base;
        this.serverMetrics = Map.copyOf(serverMetrics);
        this.pool = new byte[4 * 1024 * 1024];
        new Random(settings.seed()).nextBytes(pool);
    }

    /** {@code size} bytes of deterministic content, different for different salts. */
    byte[] content(int size, long salt) {
        if (size > pool.length / 2) {
            byte[] b = new byte[size];
            new Random(s.seed() ^ salt).nextBytes(b);
            return b;
        }
        int off = (int) Math.floorMod(salt * 7919L, (long) (pool.length - size));
        return Arrays.copyOfRange(pool, off, off + size);
    }

    static <T> List<List<T>> batches(List<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) {
            out.add(items.subList(i, Math.min(items.size(), i + size)));
        }
        return out;
    }

    /** A new directory name for one run on {@code t} (each target has its own subtree of the base). */
    private String newRunDir(String workload, Target t) {
        return base + "/" + t.name() + "/r" + (++runs) + "-" + workload;
    }

    private void emit(Result r) {
        if (!r.ok()) {
            LOG.warn("{} {} on {} failed: {}", r.workload(), r.parameter(), r.target(), r.error());
        }
        sink.accept(r);
    }

    // ---- setup and cleanup (untimed, plain)

    private static void mkdirs(Target t, List<String> dirs) throws IOException {
        try (FsSession session = t.plain().open()) {
            for (List<String> b : batches(dirs, BULK)) {
                session.mkdirs(b);
            }
        }
    }

    /** Removes {@code dir} and everything beneath it; logs instead of failing the driver. */
    private static void removeTree(Target t, String dir) {
        try (FsSession session = t.plain().open()) {
            List<Entry> entries = session.listRecursive(dir);
            List<String> leaves = new ArrayList<>();
            List<String> dirs = new ArrayList<>();
            for (Entry e : entries) {
                (e.kind() == Kind.DIRECTORY ? dirs : leaves).add(e.path());
            }
            dirs.sort((a, b) -> Integer.compare(SourceTree.depth(b), SourceTree.depth(a)));
            dirs.add(dir);
            for (List<String> b : batches(leaves, BULK)) {
                session.remove(b);
            }
            for (List<String> b : batches(dirs, BULK)) {
                session.remove(b);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("cleanup of {} on {} failed: {}", dir, t.name(), e.toString());
        }
    }

    /** Creates the suite's base directory on every target. */
    void createBase() throws IOException {
        for (Target t : targets) {
            mkdirs(t, List.of(base + "/" + t.name()));
        }
    }

    /** Removes the suite's base directory from every target. */
    void removeBase() {
        for (Target t : targets) {
            removeTree(t, base + "/" + t.name());
        }
        for (Target t : targets) {
            try (FsSession session = t.plain().open()) {
                if (session.listRecursive(base).isEmpty()) {
                    session.remove(List.of(base));
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("{} on {} already gone: {}", base, t.name(), e.toString());
            }
        }
    }

    /**
     * Untimed warm-up before the first workload, so that no target's first measured run also pays for its
     * server's JIT compilation and first LMDB pages. Every call shape the measured workloads send runs in it,
     * each target in its own mode (transactions for a transactional target), {@code rounds} times:
     * <ul>
     *   <li>{@code files} files of 4 KiB written {@link Settings#perCompound} per call (writefiles, shared, macro),
     *       except every fourth one, written one per call (the degree workload's k=1 compounds); then read,
     *       {@code getattrs} and removed {@link #BULK} per call;
     *   <li>a small source tree (a tenth of {@code files} directories, {@code files} files, a twentieth of them
     *       symbolic links) put through the macro workload's untar, cp -R, ls -lR and rm -rf: deep LOOKUP chains,
     *       READDIR, READLINK, SYMLINK and REMOVE of files and directories.
     * </ul>
     * Failures are logged, not reported: the measured runs report them.
     */
    void warmUp(int files, int rounds) {
        if (files < 1) {
            return;
        }
        byte[] data = content(4096, 4096);
        SourceTree tree = SourceTree.generate(s.seed() + 1, Math.max(1, files / 10), files, Math.max(1, files / 20),
                s.macroMeanSize());
        LongConsumer untimed = n -> { };
        for (int round = 0; round < rounds; round++) {
            for (Target t : targets) {
                String dir = newRunDir("warmup", t);
                try {
                    mkdirs(t, List.of(dir, dir + "/flat"));
                    List<FileData> batched = new ArrayList<>();
                    List<FileData> single = new ArrayList<>();
                    for (int j = 0; j < files; j++) {
                        (j % 4 == 3 ? single : batched).add(new FileData(dir + "/flat/f" + j, data));
                    }
                    try (FsSession session = t.open()) {
                        for (List<FileData> b : batches(batched, s.perCompound())) {
                            session.write(b);
                        }
                        for (FileData f : single) {
                            session.write(List.of(f));
                        }
                        List<String> paths = session.listRecursive(dir + "/flat").stream().map(Entry::path).toList();
                        for (List<String> b : batches(paths, s.perCompound())) {
                            session.read(b);
                            session.getattrs(b);
                        }
                        for (List<String> b : batches(paths, BULK)) {
                            session.remove(b);
                        }
                        untar(session, tree, dir + "/tree", untimed);
                        copy(session, tree, dir + "/tree", dir + "/copy", untimed);
                        listLong(session, dir, untimed);
                        removeAll(session, tree, List.of(dir + "/tree", dir + "/copy"), untimed);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("warm-up on {} failed: {}", t.name(), e.toString());
                }
                removeTree(t, dir);
            }
        }
    }

    private ClientWork writer(List<FileData> files, int perCall) {
        return (session, step) -> {
            long bytes = 0;
            for (List<FileData> b : batches(files, perCall)) {
                session.write(b);
                for (FileData f : b) {
                    bytes += f.data().length;
                }
                step.accept(b.size());
            }
            return new Done(files.size(), bytes);
        };
    }

    /** The run's result, or a failed result when its untimed setup threw. */
    private static Result guarded(String workload, String parameter, Target t, Setup run) {
        try {
            return run.call();
        } catch (IOException | RuntimeException e) {
            return Result.failed(workload, parameter, t.name(), "setup: " + e);
        }
    }

    /** Setup, then a measured run. */
    private interface Setup {
        Result call() throws IOException;
    }

    // ---- writefiles

    /** Each of c clients writes its share of N files of size S, k files per call, into a directory of its own. */
    void writefiles() {
        for (int size : s.sizes()) {
            byte[] data = content(size, size);
            for (int c : s.clients()) {
                String param = "size=" + Sizes.format(size) + " clients=" + c + " k=" + s.perCompound();
                for (Target t : targets) {
                    String dir = newRunDir("writefiles", t);
                    emit(guarded("writefiles", param, t, () -> {
                        List<String> dirs = new ArrayList<>();
                        for (int i = 0; i < c; i++) {
                            dirs.add(dir + "/c" + i);
                        }
                        mkdirs(t, dirs);
                        return runner.run("writefiles", param, t, c, s.files(), i -> {
                            List<FileData> mine = new ArrayList<>();
                            for (int j = i; j < s.files(); j += c) {
                                mine.add(new FileData(dir + "/c" + i + "/f" + j, data));
                            }
                            return writer(mine, s.perCompound());
                        });
                    }));
                    removeTree(t, dir);
                }
            }
        }
    }

    // ---- readfiles

    /** N files of size S written once per target (untimed); c clients each read their share, k files per call. */
    void readfiles() {
        int spread = Collections.max(s.clients());
        for (int size : s.sizes()) {
            List<String> dirs = new ArrayList<>();
            List<String> ok = new ArrayList<>();
            for (Target t : targets) {
                String dir = newRunDir("readfiles", t);
                dirs.add(dir);
                try {
                    List<String> sub = new ArrayList<>();
                    for (int d = 0; d < spread; d++) {
                        sub.add(dir + "/d" + d);
                    }
                    mkdirs(t, sub);
                    List<FileData> files = new ArrayList<>();
                    for (int j = 0; j < s.files(); j++) {
                        files.add(new FileData(readPath(dir, spread, j), content(size, j)));
                    }
                    try (FsSession session = t.plain().open()) {
                        for (List<FileData> b : batches(files, s.perCompound())) {
                            session.write(b);
                        }
                    }
                    ok.add(t.name());
                } catch (IOException | RuntimeException e) {
                    LOG.warn("readfiles setup on {} failed: {}", t.name(), e.toString());
                }
            }
            for (int c : s.clients()) {
                String param = "size=" + Sizes.format(size) + " clients=" + c + " k=" + s.perCompound();
                for (int ti = 0; ti < targets.size(); ti++) {
                    Target t = targets.get(ti);
                    if (!ok.contains(t.name())) {
                        emit(Result.failed("readfiles", param, t.name(), "setup failed"));
                        continue;
                    }
                    String dir = dirs.get(ti);
                    emit(runner.run("readfiles", param, t, c, s.files(), i -> (session, step) -> {
                        List<String> mine = new ArrayList<>();
                        for (int j = i; j < s.files(); j += c) {
                            mine.add(readPath(dir, spread, j));
                        }
                        long bytes = 0;
                        for (List<String> b : batches(mine, s.perCompound())) {
                            bytes += session.read(b);
                            step.accept(b.size());
                        }
                        if (bytes != (long) mine.size() * size) {
                            throw new IOException("read " + bytes + " bytes, expected " + (long) mine.size() * size);
                        }
                        return new Done(mine.size(), bytes);
                    }));
                }
            }
            for (int ti = 0; ti < targets.size(); ti++) {
                removeTree(targets.get(ti), dirs.get(ti));
            }
        }
    }

    private static String readPath(String dir, int spread, int j) {
        return dir + "/d" + (j % spread) + "/f" + j;
    }

    // ---- compounding degree

    /** One client writes F files, k files per call, for each k and size. */
    void degree() {
        for (int size : s.degreeSizes()) {
            byte[] data = content(size, size);
            for (int k : s.degrees()) {
                String param = "size=" + Sizes.format(size) + " k=" + k;
                for (Target t : targets) {
                    String dir = newRunDir("degree", t);
                    emit(guarded("degree", param, t, () -> {
                        mkdirs(t, List.of(dir));
                        List<FileData> files = new ArrayList<>();
                        for (int j = 0; j < s.degreeFiles(); j++) {
                            files.add(new FileData(dir + "/f" + j, data));
                        }
                        return runner.run("degree", param, t, 1, files.size(), i -> writer(files, k));
                    }));
                    removeTree(t, dir);
                }
            }
        }
    }

    // ---- shared files

    /**
     * C clients each write n files, k per call; p percent of each client's files are the same files for all clients
     * (a shared pool), the rest its own, in a shuffled order of its own.
     */
    void shared() {
        int c = s.sharedClients();
        int n = s.sharedFilesPerClient();
        byte[] data = content(s.sharedSize(), 3);
        for (int percent : s.sharedPercents()) {
            int sharedCount = (int) Math.round(n * percent / 100.0);
            String param = "shared=" + percent + "% clients=" + c + " size=" + Sizes.format(s.sharedSize()) + " k="
                    + s.perCompound();
            for (Target t : targets) {
                String dir = newRunDir("shared", t);
                emit(guarded("shared", param, t, () -> {
                    List<String> dirs = new ArrayList<>(List.of(dir + "/shared"));
                    for (int i = 0; i < c; i++) {
                        dirs.add(dir + "/c" + i);
                    }
                    mkdirs(t, dirs);
                    return runner.run("shared", param, t, c, (long) c * n, i -> {
                        List<FileData> mine = new ArrayList<>();
                        for (int j = 0; j < sharedCount; j++) {
                            mine.add(new FileData(dir + "/shared/s" + j, data));
                        }
                        for (int j = sharedCount; j < n; j++) {
                            mine.add(new FileData(dir + "/c" + i + "/f" + j, data));
                        }
                        Collections.shuffle(mine, new Random(s.seed() + i));
                        return writer(mine, s.perCompound());
                    });
                }));
                removeTree(t, dir);
            }
        }
    }

    // ---- macro

    /** A generated source tree, one client: untar, cp -R, ls -lR, rm -rf, each timed on its own. */
    void macro() {
        SourceTree tree = SourceTree.generate(s.seed(), s.macroDirs(), s.macroFiles(), s.macroSymlinks(),
                s.macroMeanSize());
        String shape = tree.files().size() + " files";
        for (Target t : targets) {
            String dir = newRunDir("macro", t);
            String src = dir + "/tree";
            String dst = dir + "/copy";
            try {
                mkdirs(t, List.of(dir));
            } catch (IOException | RuntimeException e) {
                for (String phase : List.of("untar", "cp -R", "ls -lR", "rm -rf")) {
                    emit(Result.failed("macro", phase + " (" + shape + ")", t.name(), "setup: " + e));
                }
                continue;
            }
            long items = tree.dirs().size() + tree.files().size() + tree.symlinks().size();
            Result untar = runner.run("macro", "untar (" + shape + ")", t, 1, items,
                    i -> (session, step) -> untar(session, tree, src, step));
            emit(untar);
            boolean go = untar.ok();
            Result cp = go ? runner.run("macro", "cp -R (" + shape + ")", t, 1, items,
                    i -> (session, step) -> copy(session, tree, src, dst, step))
                    : Result.failed("macro", "cp -R (" + shape + ")", t.name(), "untar failed");
            emit(cp);
            go &= cp.ok();
            Result ls = go ? runner.run("macro", "ls -lR (" + shape + ")", t, 1, 2 * items,
                    i -> (session, step) -> listLong(session, dir, step))
                    : Result.failed("macro", "ls -lR (" + shape + ")", t.name(), "cp -R failed");
            emit(ls);
            Result rm = go ? runner.run("macro", "rm -rf (" + shape + ")", t, 1, 2 * items + 2,
                    i -> (session, step) -> removeAll(session, tree, List.of(src, dst), step))
                    : Result.failed("macro", "rm -rf (" + shape + ")", t.name(), "cp -R failed");
            emit(rm);
            removeTree(t, dir);
        }
    }

    private Done untar(FsSession session, SourceTree tree, String root, LongConsumer step) throws IOException {
        List<String> dirs = new ArrayList<>(List.of(root));
        tree.dirs().forEach(d -> dirs.add(root + "/" + d));
        for (List<String> b : batches(dirs, BULK)) {
            session.mkdirs(b);
            step.accept(b.size());
        }
        long bytes = 0;
        List<FileData> batch = new ArrayList<>();
        long batchBytes = 0;
        for (int i = 0; i < tree.files().size(); i++) {
            SourceTree.FileSpec f = tree.files().get(i);
            if (!batch.isEmpty() && (batch.size() >= s.perCompound() || batchBytes + f.size() > MACRO_CALL_BYTES)) {
                session.write(batch);
                step.accept(batch.size());
                batch = new ArrayList<>();
                batchBytes = 0;
            }
            batch.add(new FileData(root + "/" + f.path(), content(f.size(), i)));
            batchBytes += f.size();
            bytes += f.size();
        }
        if (!batch.isEmpty()) {
            session.write(batch);
            step.accept(batch.size());
        }
        List<Link> links = tree.symlinks().stream().map(l -> new Link(root + "/" + l.path(), l.target())).toList();
        for (List<Link> b : batches(links, s.perCompound())) {
            session.symlinks(b);
            step.accept(b.size());
        }
        return new Done(dirs.size() + tree.files().size() + links.size(), bytes);
    }

    private Done copy(FsSession session, SourceTree tree, String src, String dst, LongConsumer step)
            throws IOException {
        List<String> dirs = new ArrayList<>(List.of(dst));
        tree.dirs().forEach(d -> dirs.add(dst + "/" + d));
        for (List<String> b : batches(dirs, BULK)) {
            session.mkdirs(b);
            step.accept(b.size());
        }
        long bytes = 0;
        List<SourceTree.FileSpec> batch = new ArrayList<>();
        long batchBytes = 0;
        for (SourceTree.FileSpec f : tree.files()) {
            if (!batch.isEmpty() && (batch.size() >= s.perCompound() || batchBytes + f.size() > MACRO_CALL_BYTES)) {
                bytes += copyBatch(session, batch, src, dst);
                step.accept(batch.size());
                batch = new ArrayList<>();
                batchBytes = 0;
            }
            batch.add(f);
            batchBytes += f.size();
        }
        if (!batch.isEmpty()) {
            bytes += copyBatch(session, batch, src, dst);
            step.accept(batch.size());
        }
        for (List<Link> b : batches(tree.symlinks(), s.perCompound())) {
            List<String> targetsRead = session.readlinks(b.stream().map(l -> src + "/" + l.path()).toList());
            List<Link> made = new ArrayList<>();
            for (int i = 0; i < b.size(); i++) {
                made.add(new Link(dst + "/" + b.get(i).path(), targetsRead.get(i)));
            }
            session.symlinks(made);
            step.accept(b.size());
        }
        return new Done(dirs.size() + tree.files().size() + tree.symlinks().size(), bytes);
    }

    private static long copyBatch(FsSession session, List<SourceTree.FileSpec> batch, String src, String dst)
            throws IOException {
        List<byte[]> data = session.readAll(batch.stream().map(f -> src + "/" + f.path()).toList());
        List<FileData> out = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            if (data.get(i).length != batch.get(i).size()) {
                throw new IOException("cp -R read " + data.get(i).length + " bytes of " + batch.get(i).path()
                        + ", expected " + batch.get(i).size());
            }
            out.add(new FileData(dst + "/" + batch.get(i).path(), data.get(i)));
            bytes += data.get(i).length;
        }
        session.write(out);
        return bytes;
    }

    private static Done listLong(FsSession session, String dir, LongConsumer step) throws IOException {
        List<Entry> entries = session.listRecursive(dir);
        step.accept(entries.size());
        List<String> paths = entries.stream().map(Entry::path).toList();
        for (List<String> b : batches(paths, BULK)) {
            session.getattrs(b);
            step.accept(b.size());
        }
        return new Done(entries.size(), 0);
    }

    private static Done removeAll(FsSession session, SourceTree tree, List<String> roots, LongConsumer step)
            throws IOException {
        List<String> leaves = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (String root : roots) {
            tree.files().forEach(f -> leaves.add(root + "/" + f.path()));
            tree.symlinks().forEach(l -> leaves.add(root + "/" + l.path()));
        }
        for (String root : roots) {
            tree.dirsDeepestFirst().forEach(d -> dirs.add(root + "/" + d));
        }
        dirs.addAll(roots);
        dirs.sort((a, b) -> Integer.compare(SourceTree.depth(b), SourceTree.depth(a)));
        for (List<String> b : batches(leaves, BULK)) {
            session.remove(b);
            step.accept(b.size());
        }
        for (List<String> b : batches(dirs, BULK)) {
            session.remove(b);
            step.accept(b.size());
        }
        return new Done(leaves.size() + dirs.size(), 0);
    }

    // ---- largest transaction

    /** Bytes per WRITE that {@link #bigtxnOps} assumes: the servers' default maxwrite (tcnfs {@code max-io}). */
    static final int BIGTXN_MAX_WRITE = 1024 * 1024;

    /**
     * Operations of the COMPOUND the vectorized client builds for one call that creates {@code files} files of
     * {@code size} bytes each in one directory {@code depth} (at least 1) components below the export: SEQUENCE;
     * for the first file PUTFH of the export, a LOOKUP per component and SAVEFH; for each later one RESTOREFH;
     * and per file OPEN (create, truncate to 0), one WRITE per {@code maxWrite} bytes, CLOSE.
     */
    static int bigtxnOps(int files, int size, int depth, int maxWrite) {
        if (files < 1 || size < 1 || depth < 1 || maxWrite < 1) {
            throw new IllegalArgumentException(files + " files of " + size + " bytes at depth " + depth);
        }
        long writes = Math.max(1, ((long) size + maxWrite - 1) / maxWrite);
        return Math.toIntExact(1 + 1 + depth + 1 + (files - 1) + files * (2 + writes));
    }

    /** The parameter text of a bigtxn row. */
    static String bigtxnParameter(int files, int size, int ops, int clients) {
        return "files=" + files + "x" + Sizes.format(size) + " (" + Sizes.format((long) files * size) + ") ops="
                + ops + " clients=" + clients;
    }

    /**
     * The largest transaction: each of c clients (its own session and directory) writes F files of S bytes in
     * ONE call, which the vectorized client sends as one COMPOUND (a transaction on transactional targets; on
     * plain NFS targets the call is not split either, as far as the session's limits allow, see
     * {@link Target#oneCompoundPerCall()}). A plain call that took more than one COMPOUND (split) fails the run;
     * a transaction is never split, but is sent again whole when answered NFS4ERR_DELAY, which is logged. Before the
     * runs, targets whose server has a known metrics endpoint get one untimed call of the same shape, and the
     * server's own count of its operations and written bytes must match {@link #bigtxnOps}, else their rows fail.
     */
    void bigtxn() {
        int files = s.bigtxnFiles();
        int size = s.bigtxnFileSize();
        List<byte[]> data = new ArrayList<>(files);
        for (int j = 0; j < files; j++) {
            data.add(content(size, j));
        }
        // every client directory is base/target/rN-bigtxn/cI, the probe's base/target/rN-bigtxn-probe/c0
        int ops = bigtxnOps(files, size, SourceTree.depth(base + "/t/r0-bigtxn/c0"), BIGTXN_MAX_WRITE);
        Map<String, String> refused = new HashMap<>();
        for (Target t : targets) {
            ServerMetrics m = serverMetrics.get(t.name());
            if (m != null) {
                String why = probeBigtxn(t, m, data, ops);
                if (why != null) {
                    LOG.warn("bigtxn on {}: {}", t.name(), why);
                    refused.put(t.name(), why);
                }
            }
        }
        for (int c : s.bigtxnClients()) {
            String param = bigtxnParameter(files, size, ops, c);
            for (Target t : targets) {
                if (refused.containsKey(t.name())) {
                    emit(Result.failed("bigtxn", param, t.name(), refused.get(t.name())));
                    continue;
                }
                String dir = newRunDir("bigtxn", t);
                AtomicLong sent = new AtomicLong();
                Split split = t.plain() == t ? Split.FAILS : Split.RESENT_WHOLE;
                Result r = guarded("bigtxn", param, t, () -> {
                    List<String> dirs = new ArrayList<>();
                    for (int i = 0; i < c; i++) {
                        dirs.add(dir + "/c" + i);
                    }
                    mkdirs(t, dirs);
                    return runner.run("bigtxn", param, t.oneCompoundPerCall(), c, (long) c * files,
                            i -> oneCall(bigtxnFiles(dir + "/c" + i, data), split, sent));
                });
                if (r.ok() && sent.get() > c) {
                    LOG.warn("bigtxn {} on {}: {} COMPOUNDs for {} calls (transactions answered NFS4ERR_DELAY and sent "
                            + "again whole)", param, t.name(), sent.get(), c);
                }
                emit(r);
                removeTree(t, dir);
            }
        }
    }

    static List<FileData> bigtxnFiles(String dir, List<byte[]> data) {
        List<FileData> out = new ArrayList<>(data.size());
        for (int j = 0; j < data.size(); j++) {
            out.add(new FileData(dir + "/f" + j, data.get(j)));
        }
        return out;
    }

    /** What more than one COMPOUND for a call means. */
    enum Split {
        /** The call was split (plain mode): the run fails. */
        FAILS,
        /** The same compound was sent again (a transaction answered NFS4ERR_DELAY): counted, not a failure. */
        RESENT_WHOLE
    }

    /**
     * Writes all {@code files} in one call and adds the COMPOUNDs it took to {@code sent} (where the session
     * counts them); more than one fails the run when {@code split} says so.
     */
    static ClientWork oneCall(List<FileData> files, Split split, AtomicLong sent) {
        long bytes = files.stream().mapToLong(f -> f.data().length).sum();
        return (session, step) -> {
            OptionalLong before = session.compoundsSent();
            session.write(files);
            OptionalLong after = session.compoundsSent();
            if (before.isPresent() && after.isPresent()) {
                long n = after.getAsLong() - before.getAsLong();
                sent.addAndGet(n);
                if (n != 1 && split == Split.FAILS) {
                    throw new IOException("the call of " + files.size() + " files took " + n + " COMPOUNDs, not one");
                }
            }
            step.accept(files.size());
            return new Done(files.size(), bytes);
        };
    }

    /**
     * One untimed call of the bigtxn shape against {@code t}, with the server's meters read right before and
     * after it (nothing else runs then): null when the server ran one COMPOUND of {@code ops} operations that
     * wrote all the bytes, else why not.
     */
    private String probeBigtxn(Target t, ServerMetrics m, List<byte[]> data, int ops) {
        String dir = newRunDir("bigtxn-probe", t);
        long bytes = data.stream().mapToLong(b -> b.length).sum();
        try {
            mkdirs(t, List.of(dir + "/c0"));
            try (FsSession session = t.oneCompoundPerCall().open()) {
                String before = m.scrape();
                session.write(bigtxnFiles(dir + "/c0", data));
                String after = m.scrape();
                double compounds = delta(before, after, "tcnfs_compound_ops_count");
                double counted = delta(before, after, "tcnfs_compound_ops_sum");
                double written = delta(before, after, "tcnfs_io_bytes_total", "op", "WRITE");
                LOG.info("bigtxn probe on {}: the server ran {} COMPOUND(s) of {} operations in all, WRITE {} bytes "
                        + "(expected 1, {}, {})", t.name(), (long) compounds, (long) counted, (long) written, ops, bytes);
                if (compounds != 1 || counted != ops || written != bytes) {
                    return "probe: the server ran " + (long) compounds + " COMPOUND(s) of " + (long) counted
                            + " operations writing " + (long) written + " bytes, expected 1 of " + ops + " writing "
                            + bytes;
                }
                return null;
            }
        } catch (IOException | RuntimeException e) {
            return "probe: " + e;
        } finally {
            removeTree(t, dir);
        }
    }

    private static double delta(String before, String after, String metric, String... labels) {
        double a = ServerMetrics.sum(after, metric, labels);
        double b = ServerMetrics.sum(before, metric, labels);
        return (Double.isNaN(a) ? 0 : a) - (Double.isNaN(b) ? 0 : b);
    }
}
