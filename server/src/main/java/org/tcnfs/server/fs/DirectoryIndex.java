package org.tcnfs.server.fs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import org.tcnfs.nfs4.status.IoException;

/**
 * The names of one directory in cookie order, where each name's cookie is derived from the name itself:
 * bits 8-62 are a 55-bit hash of its UTF-8 bytes (FNV-1a with a 64-bit finalizer, never 0), bits 0-7 the
 * name's rank among names sharing that hash (sorted by name). So a cookie stays meaningful while the
 * directory changes: resuming after it lists exactly the names that sort after it, none skipped or
 * repeated, and names added or removed elsewhere do not move the others. Cookies are at least 256, never
 * the reserved 0-2, and stable across restarts.
 *
 * <p>Immutable; thread-safe.
 */
final class DirectoryIndex {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final int MAX_COLLISIONS = 256;

    private final long[] cookies;
    private final String[] names;

    private DirectoryIndex(long[] cookies, String[] names) {
        this.cookies = cookies;
        this.names = names;
    }

    /**
     * An index of {@code names}.
     *
     * @throws IoException if more than 256 names share one 55-bit hash (never in practice)
     */
    static DirectoryIndex of(Collection<String> names) throws IoException {
        int n = names.size();
        long[] bases = new long[n];
        Integer[] order = new Integer[n];
        String[] input = names.toArray(new String[0]);
        for (int i = 0; i < n; i++) {
            bases[i] = base(input[i]);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int byBase = Long.compare(bases[a], bases[b]);
            return byBase != 0 ? byBase : input[a].compareTo(input[b]);
        });
        long[] cookies = new long[n];
        String[] sorted = new String[n];
        int rank = 0;
        for (int i = 0; i < n; i++) {
            int index = order[i];
            rank = i > 0 && bases[order[i - 1]] == bases[index] ? rank + 1 : 0;
            if (rank >= MAX_COLLISIONS) {
                throw new IoException("too many directory entries share one hash");
            }
            cookies[i] = bases[index] | rank;
            sorted[i] = input[index];
        }
        return new DirectoryIndex(cookies, sorted);
    }

    /** The cookie base of a name: its 55-bit hash shifted left by 8, never 0. */
    static long base(String name) {
        long hash = FNV_OFFSET;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        hash ^= hash >>> 33;
        long bits = hash >>> 9;
        return (bits == 0 ? 1 : bits) << 8;
    }

    /** Number of names. */
    int size() {
        return names.length;
    }

    String name(int index) {
        return names[index];
    }

    long cookie(int index) {
        return cookies[index];
    }

    /** Index of the first name whose cookie is greater than {@code cookie} (0 for cookie 0). */
    int indexAfter(long cookie) {
        int low = 0;
        int high = cookies.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cookies[mid] <= cookie) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
