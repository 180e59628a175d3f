package org.tcnfs.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportTable;
import org.tcnfs.nfs4.export.ExportsParser;
import org.tcnfs.nfs4.export.PseudoFs;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.server.txn.TransactionWiring;
import org.tcnfs.txn.handles.HandleTable;

/**
 * The exports a server serves now, which a reload of its exports file replaces as a whole: each compound
 * gets its view from the table current when it starts ({@link #forCaller}), so a reload never changes the
 * exports under a compound that runs.
 *
 * <p>A reload ({@link #reload}) reads the file again and either takes all of it or nothing: a file that does
 * not parse, an export directory that cannot be opened or a backup area that cannot be created leave the
 * served exports as they were, with one WARN line naming the file, the line and the cause. Otherwise one
 * INFO line says what was added, removed and changed. A removed export's file system stays open (and is
 * reused if the export comes back) while compounds that began before the reload may still use it: each
 * compound {@linkplain #enter() enters} the generation of the table current when it arrives, and the file
 * systems a reload removed are closed (their cached descriptors and kept-open files with them) once that
 * generation and every earlier one has no compound left. No handle of a removed export reaches a new compound
 * (they are NFS4ERR_STALE); an export that comes back after its file system was closed is opened again.
 *
 * <p>Thread-safe: reloads run one at a time; {@link #forCaller} and {@link #enter()} never wait.
 */
final class ServedExports implements FileSystemProvider {
    private static final Logger LOG = LoggerFactory.getLogger(ServedExports.class);

    private final Optional<Path> file;
    private final HandleTable handles;
    private final List<LocalFileSystem> fileSystems;
    /** Every file system opened for an exports-file line, by its local path (= export id and path). */
    private final Map<String, LocalFileSystem> opened = new HashMap<>();
    private volatile ExportTable table;
    /** The generation compounds enter now; a reload starts the next. */
    private volatile Generation current = new Generation(null);
    private final java.util.concurrent.atomic.AtomicInteger retiredWaiting =
            new java.util.concurrent.atomic.AtomicInteger();
    private TransactionWiring transactions;

    /**
     * @param file the exports file, empty for the single export of the data directory (nothing to reload)
     * @param exports the exports served at the start
     * @param handles the handle table, to open the file systems of added exports
     * @param fileSystems the server's file systems (which it closes when it stops); added ones are appended
     */
    ServedExports(Optional<Path> file, List<Export> exports, HandleTable handles, List<LocalFileSystem> fileSystems) {
        this.file = Objects.requireNonNull(file, "file");
        this.handles = Objects.requireNonNull(handles, "handles");
        this.fileSystems = Objects.requireNonNull(fileSystems, "fileSystems");
        for (Export export : exports) {
            if (export.fs() instanceof LocalFileSystem fs) {
                opened.put(export.path(), fs);
            }
        }
        this.table = new ExportTable(exports);
    }

    /** Gives reloads the transaction layer, to tell it of added and changed exports. */
    synchronized void transactions(TransactionWiring wiring) {
        this.transactions = Objects.requireNonNull(wiring, "wiring");
    }

    @Override
    public PseudoFs forCaller(Credential credential, InetAddress client) {
        return table.forCaller(credential, client);
    }

    /**
     * Counts a compound in the current generation until it ends, so that the file systems a later reload
     * removes stay open for it.
     */
    @Override
    public Use enter() {
        while (true) {
            Generation g = current;
            g.users.incrementAndGet();
            if (!g.retired) {
                return g::leave;
            }
            // a reload retired it meanwhile (and may have closed what it removed): count in the next one
            g.leave();
        }
    }

    /** How many file systems of removed exports wait for compounds that began before their reload. */
    int retiredWaiting() {
        return retiredWaiting.get();
    }

    /** The exports served now. */
    List<Export> exports() {
        return table.exports();
    }

    /** Reads the exports file again and serves what it says, or nothing new if any of it is wrong. */
    synchronized ExportsReload reload() {
        if (file.isEmpty()) {
            String why = "no exports file is configured (the exports setting): nothing to reload";
            LOG.warn("exports not reloaded: {}", why);
            return ExportsReload.rejected(why);
        }
        Path path = file.get();
        List<Export> before = table.exports();
        ExportsReload reload;
        try {
            reload = apply(path, before);
        } catch (Rejected e) {
            LOG.warn("exports not reloaded: {}; still serving the {} export(s) of before", e.getMessage(),
                    before.size());
            return ExportsReload.rejected(e.getMessage());
        }
        if (reload.added().isEmpty() && reload.removed().isEmpty() && reload.changed().isEmpty()) {
            LOG.info("exports reloaded from {}: no change, {} export(s)", path, before.size());
        } else {
            LOG.info("exports reloaded from {}: added {}, removed {}, changed {}; serving {} export(s)", path,
                    reload.added(), reload.removed(), reload.changed(), table.exports().size());
        }
        return reload;
    }

    private ExportsReload apply(Path path, List<Export> before) throws Rejected {
        List<ExportsParser.Entry> entries;
        try {
            entries = ExportsParser.parse(path);
        } catch (IllegalArgumentException e) {
            throw new Rejected(e.getMessage());
        } catch (IOException e) {
            throw new Rejected(path + ": cannot be read: " + cause(e));
        }
        Map<String, Export> old = new LinkedHashMap<>();
        before.forEach(e -> old.put(e.path(), e));
        List<LocalFileSystem> added = new ArrayList<>();
        List<Export> exports = new ArrayList<>();
        ExportTable next;
        try {
            for (ExportsParser.Entry entry : entries) {
                entry.notes().forEach(n -> LOG.info("exports line {}: {}", entry.line(), n));
                LocalFileSystem fs = opened.get(entry.localPath());
                if (fs == null) {
                    try {
                        fs = LocalFileSystem.open(entry.localPath(), Path.of(entry.localPath()), handles);
                    } catch (IOException e) {
                        throw new Rejected(path + ": line " + entry.line() + ": " + entry.localPath() + ": "
                                + cause(e));
                    }
                    added.add(fs);
                }
                exports.add(new Export(entry.localPath(), fs, entry.rules()));
            }
            try {
                next = new ExportTable(exports);
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new Rejected(path + ": " + e.getMessage());
            }
            tellTransactions(path, entries, exports, old);
        } catch (Rejected e) {
            added.forEach(LocalFileSystem::close);
            throw e;
        }
        added.forEach(fs -> {
            opened.put(fs.exportId(), fs);
            fileSystems.add(fs);
        });
        table = next;
        List<LocalFileSystem> removed = new ArrayList<>();
        java.util.Set<String> kept = new java.util.HashSet<>();
        exports.forEach(e -> kept.add(e.path()));
        for (Export was : before) {
            if (!kept.contains(was.path()) && was.fs() instanceof LocalFileSystem fs
                    && opened.remove(was.path(), fs)) {
                removed.add(fs);
            }
        }
        retire(removed);
        List<String> addedPaths = new ArrayList<>();
        List<String> changedPaths = new ArrayList<>();
        for (Export export : exports) {
            Export was = old.remove(export.path());
            if (was == null) {
                addedPaths.add(export.path());
            } else if (!was.rules().equals(export.rules())) {
                changedPaths.add(export.path());
            }
        }
        return new ExportsReload(addedPaths, List.copyOf(old.keySet()), changedPaths, Optional.empty());
    }

    /**
     * Tells the transaction layer of every added or changed export before any compound can see it; if a
     * backup area cannot be created, puts back what it had told it.
     */
    private void tellTransactions(Path path, List<ExportsParser.Entry> entries, List<Export> exports,
            Map<String, Export> old) throws Rejected {
        if (transactions == null) {
            return;
        }
        List<Export> told = new ArrayList<>();
        for (int i = 0; i < exports.size(); i++) {
            Export export = exports.get(i);
            Export was = old.get(export.path());
            if (was != null && was.rules().equals(export.rules())) {
                continue;
            }
            try {
                transactions.putExport(export, (LocalFileSystem) export.fs());
                told.add(export);
            } catch (IOException e) {
                for (Export undo : told) {
                    Export previous = old.get(undo.path());
                    if (previous != null) {
                        try {
                            transactions.putExport(previous, (LocalFileSystem) previous.fs());
                        } catch (IOException again) {
                            LOG.error("export {}: its transaction settings of before could not be restored: {}",
                                    previous.path(), cause(again));
                        }
                    }
                }
                throw new Rejected(path + ": line " + entries.get(i).line() + ": " + export.path()
                        + ": its backup area " + LocalFileSystem.RESERVED_NAME + " cannot be created: " + cause(e));
            }
        }
    }

    /**
     * Starts the next generation; {@code removed} close once the one retired now and every earlier one has no
     * compound left.
     */
    private void retire(List<LocalFileSystem> removed) {
        Generation old = current;
        old.closeWhenDrained(removed);
        retiredWaiting.addAndGet(removed.size());
        current = new Generation(old);
        old.retire();
    }

    /**
     * The compounds that entered while one table was current. A generation drains when it is retired, none of
     * its compounds is left and its predecessor has drained (the predecessor holds one count of it until then),
     * so draining goes in order; then the file systems its reload removed are closed.
     */
    private final class Generation {
        /** Its compounds, plus one while its predecessor has not drained. */
        final java.util.concurrent.atomic.AtomicInteger users;
        volatile boolean retired;
        private final java.util.concurrent.atomic.AtomicBoolean drained =
                new java.util.concurrent.atomic.AtomicBoolean();
        private List<LocalFileSystem> toClose = List.of();
        private volatile Generation next;

        Generation(Generation previous) {
            users = new java.util.concurrent.atomic.AtomicInteger(previous == null ? 0 : 1);
            if (previous != null) {
                previous.next = this;
            }
        }

        void closeWhenDrained(List<LocalFileSystem> fileSystems) {
            toClose = List.copyOf(fileSystems);
        }

        void retire() {
            retired = true;
            if (users.get() == 0) {
                drain();
            }
        }

        void leave() {
            if (users.decrementAndGet() == 0 && retired) {
                drain();
            }
        }

        private void drain() {
            if (!drained.compareAndSet(false, true)) {
                return;
            }
            for (LocalFileSystem fs : toClose) {
                try {
                    fs.close();
                } catch (RuntimeException e) {
                    LOG.warn("closing the file system of removed export {} failed: {}", fs.exportId(), e.toString());
                }
                fileSystems.remove(fs);
                retiredWaiting.decrementAndGet();
                LOG.info("export {} removed by a reload: its file system is closed (no compound uses it any more)",
                        fs.exportId());
            }
            Generation successor = next;
            if (successor != null) {
                successor.leave();
            }
        }
    }

    /** An I/O failure in plain words. */
    private static String cause(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /** Why a reload takes nothing of the new file. */
    private static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;

        Rejected(String message) {
            super(message, null, false, false);
        }
    }
}
