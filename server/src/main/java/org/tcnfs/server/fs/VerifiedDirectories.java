package org.tcnfs.server.fs;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Directories the current compound has found to be reached from the export root without a symbolic link, so
 * that resolving a handle does not repeat that check ({@code openat2(RESOLVE_NO_SYMLINKS)}, a full path walk)
 * for every object of the same directory within one compound: a LOOKUP chain, GETATTRs of 64 entries, 64
 * REMOVEs. Every compound checks again (as it reads attributes again: {@code CompoundContext.getattr}), so a
 * change made beside the server is seen by the next compound exactly as without this cache.
 *
 * <p>Within a compound a path stops being free of symbolic links only when one of its directories is removed
 * or renamed away and a link takes its name. Through this server that is a REMOVE of a directory or a RENAME,
 * and both call {@link #forgetAll()} before and after: an answer found by a check that began before the
 * last {@code forgetAll} is dropped.
 *
 * <p>Each thread keeps the answers of the compound it runs ({@link org.tcnfs.nfs4.vfs.CompoundScope}), at most
 * {@code maxEntries} of them (emptied when full); outside a compound nothing is kept. Thread-safe.
 */
final class VerifiedDirectories {
    private final AtomicLong epoch = new AtomicLong();
    private final int maxEntries;
    private final ThreadLocal<Scope> scopes = ThreadLocal.withInitial(Scope::new);

    /** One thread's answers: for compound {@code compound}, at epoch {@code epoch}. */
    private static final class Scope {
        long compound;
        long epoch;
        final Set<Path> verified = new HashSet<>();
    }

    /** @param maxEntries most paths one compound keeps */
    VerifiedDirectories(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /**
     * Whether compound {@code compound} (0: none) found {@code dir} free of symbolic links, with no directory
     * removed or renamed since.
     */
    boolean isVerified(long compound, Path dir) {
        if (compound == 0) {
            return false;
        }
        Scope scope = scopes.get();
        return scope.compound == compound && scope.epoch == epoch.get() && scope.verified.contains(dir);
    }

    /**
     * Records that compound {@code compound} just found {@code dir} free of symbolic links, by a check that
     * began at epoch {@code epochBefore} ({@link #epoch()}).
     */
    void verified(long compound, Path dir, long epochBefore) {
        if (compound == 0 || epoch.get() != epochBefore) {
            return;
        }
        Scope scope = scopes.get();
        if (scope.compound != compound || scope.epoch != epochBefore || scope.verified.size() >= maxEntries) {
            scope.verified.clear();
            scope.compound = compound;
            scope.epoch = epochBefore;
        }
        scope.verified.add(dir);
    }

    /** The epoch to pass to {@link #verified} for a check that begins now. */
    long epoch() {
        return epoch.get();
    }

    /** Forgets every answer of every compound: a directory is being removed or renamed. */
    void forgetAll() {
        epoch.incrementAndGet();
    }
}
