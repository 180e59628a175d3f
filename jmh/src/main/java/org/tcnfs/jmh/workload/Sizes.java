package org.tcnfs.jmh.workload;

import java.util.Locale;

/** Byte sizes as people write them: 512, 4K, 128KiB, 16M. */
final class Sizes {
    private Sizes() {
    }

    /**
     * Parses a size.
     *
     * @throws IllegalArgumentException for anything but digits with an optional K, KiB, M or MiB suffix
     */
    static int parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        int factor = 1;
        if (t.endsWith("KIB") || t.endsWith("K")) {
            factor = 1024;
            t = t.substring(0, t.length() - (t.endsWith("KIB") ? 3 : 1));
        } else if (t.endsWith("MIB") || t.endsWith("M")) {
            factor = 1024 * 1024;
            t = t.substring(0, t.length() - (t.endsWith("MIB") ? 3 : 1));
        }
        try {
            long v = Long.parseLong(t) * factor;
            if (v <= 0 || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("size '" + text + "' out of range");
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text + "' (use 512, 4K, 128KiB or 16M)", e);
        }
    }

    /** The shortest exact form: 4K for 4096, 1M for 1048576, else plain bytes. */
    static String format(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + "M";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + "K";
        }
        return Long.toString(bytes);
    }
}
