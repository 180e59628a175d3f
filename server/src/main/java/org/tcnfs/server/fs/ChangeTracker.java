package org.tcnfs.server.fs;

import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes the {@code change} attribute: the object's ctime in nanoseconds, raised past the previous value
 * whenever the server itself modifies the object, so that two modifications within one tick of a coarse
 * file-system clock (ext4 stamps times from a jiffy-granular clock) still give different values.
 *
 * <p>Only objects modified within the current tick need an entry: an entry is dropped as soon as the
 * object's ctime overtakes it. Entries are keyed by inode number (the same object is seen through its
 * handle and through directory listings, which carry no handle). Should the map ever exceed
 * {@value #MAX_ENTRIES} entries it is cleared, which can at worst repeat one earlier value for objects
 * modified twice within a tick and not looked at since. Values reset with a restart, which is safe because
 * the ctime of any object modified before it lies behind the clock.
 *
 * <p>Thread-safe.
 */
final class ChangeTracker {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeTracker.class);
    static final int MAX_ENTRIES = 1 << 20;

    private final ConcurrentHashMap<Long, Long> raised = new ConcurrentHashMap<>();

    /** The change value of inode {@code ino} whose ctime is {@code ctimeNanos}. */
    long change(long ino, long ctimeNanos) {
        Long value = raised.get(ino);
        if (value == null) {
            return ctimeNanos;
        }
        if (ctimeNanos >= value) {
            raised.remove(ino, value);
            return ctimeNanos;
        }
        return value;
    }

    /**
     * Records that the server modified inode {@code ino}, whose ctime before the modification was
     * {@code ctimeNanosBefore}: from now on its change value is above whatever it was before.
     */
    void modified(long ino, long ctimeNanosBefore) {
        raised.merge(ino, ctimeNanosBefore + 1, (old, candidate) -> Math.max(old + 1, candidate));
        if (raised.size() > MAX_ENTRIES) {
            LOG.warn("change tracker exceeded {} entries; clearing it", MAX_ENTRIES);
            raised.clear();
        }
    }

    /** Forgets inode {@code ino} (it no longer exists). */
    void forget(long ino) {
        raised.remove(ino);
    }
}
