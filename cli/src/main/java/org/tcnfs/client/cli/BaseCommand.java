package org.tcnfs.client.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.ItemResult;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Outcome;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.nfs4.status.NfsStatus;
import picocli.CommandLine.Option;

/** Options every subcommand shares (identity, timeout, progress) and the helpers they use. */
abstract class BaseCommand implements Callable<Integer> {
    @Option(names = "--uid", description = "AUTH_SYS uid (default: yours)")
    Integer uid;

    @Option(names = "--gid", description = "AUTH_SYS gid (default: yours)")
    Integer gid;

    @Option(names = "--timeout", defaultValue = "60", description = "seconds to wait for the server (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--max-wait", description = "seconds a late reply is waited for in all while the server shows it"
            + " is still working on it, e.g. a large commit or rollback (default: " + VnfsClient.MAX_WAIT_TIMEOUTS
            + " times --timeout)")
    Integer maxWaitSeconds;

    @Option(names = "--progress", negatable = true,
            description = "show progress bars on standard error (default: when it is a terminal)")
    Boolean progress;

    private Progress bar;

    /** The progress bar of this command (created on first use). */
    Progress progress() {
        if (bar == null) {
            bar = new Progress(progress != null ? progress : System.console() != null);
        }
        return bar;
    }

    @Override
    public final Integer call() throws Exception {
        try {
            run();
            return ExitCode.OK.code();
        } finally {
            if (bar != null) {
                bar.close();
            }
        }
    }

    /** The command's work; failures as exceptions. */
    abstract void run() throws Exception;

    /** A client for the server of {@code url}, working from the server's root. */
    VnfsClient connect(NfsUrl url) throws IOException, CliException {
        long[] ids = localIds();
        try {
            Duration timeout = Duration.ofSeconds(Math.max(1, timeoutSeconds));
            VnfsClient.Builder b = VnfsClient.builder().host(url.host()).port(url.port())
                    .uid(uid != null ? uid : (int) ids[0]).gid(gid != null ? gid : (int) ids[1])
                    .timeout(timeout).listener(progress());
            if (maxWaitSeconds != null) {
                b.maxWait(Duration.ofSeconds(Math.max(timeout.toSeconds(), maxWaitSeconds)));
            }
            return b.connect();
        } catch (java.net.ConnectException e) {
            String why = e.getMessage() == null ? "refused" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
            throw new CliException(ExitCode.CONNECTION, "cannot connect to " + url.host() + ":" + url.port() + ": " + why);
        }
    }

    /** The local uid and gid, or root's where they cannot be found. */
    private static long[] localIds() {
        try {
            com.sun.security.auth.module.UnixSystem unix = new com.sun.security.auth.module.UnixSystem();
            return new long[] {unix.getUid(), unix.getGid()};
        } catch (LinkageError | SecurityException e) {
            return new long[] {0, 0};
        }
    }

    /** Parses URLs, which must all be on one server. */
    static List<NfsUrl> urls(List<String> texts) throws CliException {
        List<NfsUrl> out = new java.util.ArrayList<>();
        for (String t : texts) {
            out.add(url(t));
        }
        for (NfsUrl u : out) {
            if (!u.sameServer(out.get(0))) {
                throw new CliException(ExitCode.USAGE, "all URLs must name one server: " + out.get(0) + " and " + u);
            }
        }
        return out;
    }

    static NfsUrl url(String text) throws CliException {
        try {
            return NfsUrl.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
    }

    /** The attributes of {@code path}, or null when it does not exist. */
    static FileInfo statOrNull(VnfsClient nfs, String path) throws IOException, CliException {
        VResult<FileInfo> r = nfs.vgetattrs(List.of(path), Mode.PLAIN);
        if (r.isOk()) {
            return r.value(0);
        }
        if (r.item(0).status() == NfsStatus.NOENT) {
            return null;
        }
        throw new CliException(ExitCode.NFS_ERROR, "/" + path + ": " + Labels.of(r.item(0).status()));
    }

    /**
     * Nothing when every item is done, else a failure naming the first failed item by {@code labels}.
     *
     * @throws CliException NFS_ERROR with "verb label: status", saying when a transaction changed nothing
     */
    static void check(VResult<?> r, List<String> labels, String verb) throws CliException {
        if (r.isOk()) {
            return;
        }
        int i = r.firstFailure();
        if (i < 0) {
            throw new CliException(ExitCode.NFS_ERROR, verb + ": not committed");
        }
        ItemResult<?> failed = r.item(i);
        String label = i < labels.size() ? labels.get(i) : "item " + i;
        StringBuilder msg = new StringBuilder(verb).append(' ').append(label).append(": ")
                .append(Labels.of(failed.status()));
        if (r.mode() == Mode.TRANSACTION) {
            msg.append("; transaction rolled back, nothing changed");
        } else {
            long done = r.items().stream().filter(x -> x.outcome() == Outcome.DONE).count();
            msg.append("; ").append(done).append(" of ").append(r.items().size()).append(" done before it");
        }
        throw new CliException(ExitCode.NFS_ERROR, msg.toString());
    }

    /** The mode a {@code --txn} flag asks for. */
    static Mode mode(boolean transaction) {
        return transaction ? Mode.TRANSACTION : Mode.PLAIN;
    }
}
