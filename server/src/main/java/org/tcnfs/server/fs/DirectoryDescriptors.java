package org.tcnfs.server.fs;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.tcnfs.nfs4.vfs.CompoundScope;

/**
 * {@code O_PATH} descriptors of the directories the current compound resolved and checked to be reached from the export
 * root without a symbolic link, by their path, so that the compound's LOOKUPs and resolutions look names up relative to
 * one of them ({@code statx(dirfd, name)}) instead of walking an absolute path in the kernel (three walks of every
 * name per LOOKUP compound before). A descriptor stays on the directory it was opened on: a symbolic link put in
 * place of a directory on its way afterwards is never followed through it.
 *
 * <p><b>Invalidation.</b> A path stops naming the directory its descriptor holds when a directory on the way is
 * removed or renamed. Through this server that moves the epoch ({@link VerifiedDirectories#forgetAll()}, before and
 * after every REMOVE of a directory and every RENAME), and a thread that finds the epoch moved closes all it holds
 * before answering. Out of band, such a change is seen by the next compound, which opens every descriptor again (as
 * the symbolic-link checks were made again per compound before); within one compound it has the window the class
 * javadoc of {@link LocalFileSystem} describes.
 *
 * <p><b>Bounds.</b> Each thread keeps the descriptors of the compound it runs, at most {@code maxEntries} (all closed
 * when full), and closes them all when the compound ends ({@link CompoundScope#atEnd}), when another compound or
 * epoch begins (outside a compound nothing is kept). A descriptor {@link #closest} returns
 * stays open until this thread's next call here. Thread-safe.
 */
final class DirectoryDescriptors {
    private final int maxEntries;
    private final LongSupplier epoch;
    private final IntConsumer close;
    private final ThreadLocal<Scope> scopes = ThreadLocal.withInitial(Scope::new);

    /** One thread's descriptors: for compound {@code compound}, at epoch {@code epoch}. */
    private final class Scope {
        long compound;
        long epoch;
        final Map<Path, Integer> open = new HashMap<>();

        void closeAll() {
            open.values().forEach(fd -> close.accept(fd));
            open.clear();
        }
    }

    /**
     * @param maxEntries most descriptors one compound keeps
     * @param epoch the epoch of directory removals and renames; a descriptor opened before it moved is closed
     * @param close closes a descriptor
     */
    DirectoryDescriptors(int maxEntries, LongSupplier epoch, IntConsumer close) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.epoch = epoch;
        this.close = close;
    }

    /** A descriptor {@code fd} of the directory {@code dir}. */
    record Held(Path dir, int fd) {
    }

    /**
     * The descriptor compound {@code compound} (0: none) keeps of {@code dir} or else of the closest directory above it
     * below {@code top} (excluded), or {@code null}.
     */
    Held closest(long compound, Path dir, Path top) {
        if (compound == 0) {
            return null;
        }
        Scope scope = current(compound, epoch.getAsLong());
        if (scope.open.isEmpty()) {
            return null;
        }
        for (Path at = dir; at != null && !at.equals(top); at = at.getParent()) {
            Integer fd = scope.open.get(at);
            if (fd != null) {
                return new Held(at, fd);
            }
        }
        return null;
    }

    /**
     * Keeps {@code fd}, a descriptor of {@code dir} opened by compound {@code compound} after epoch {@code epochBefore}
     * was read, for the rest of the compound. Returns false when it is not kept (outside a compound, the epoch moved
     * meanwhile): then the caller closes it.
     */
    boolean keep(long compound, Path dir, int fd, long epochBefore) {
        if (compound == 0 || epoch.getAsLong() != epochBefore) {
            return false;
        }
        Scope scope = current(compound, epochBefore);
        if (scope.open.size() >= maxEntries) {
            scope.closeAll();
        }
        Integer old = scope.open.put(dir, fd);
        if (old != null) {
            close.accept(old);
        }
        return true;
    }

    /** This thread's scope, emptied first unless it is of {@code compound} at {@code now}. */
    private Scope current(long compound, long now) {
        Scope scope = scopes.get();
        if (scope.compound != compound || scope.epoch != now) {
            scope.closeAll();
            if (scope.compound != compound) {
                CompoundScope.atEnd(scope::closeAll);
            }
            scope.compound = compound;
            scope.epoch = now;
        }
        return scope;
    }
}
