package org.tcnfs.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a client can observe of a directory tree, read straight from the disk: for every path below the
 * root (relative, '/'-separated), its type, permission bits, owner and group, link count, and for a file
 * its size and SHA-256, for a symbolic link its target. Directory sizes and times are left out (they differ
 * between file systems and change on undo without being visible state). The server's hidden {@code .tcnfs}
 * directory (at the root) is ignored, so a snapshot of the export root compares like one of a subdirectory.
 *
 * <p>Two snapshots compare with {@link #equals}; {@link #diff} says how they differ, line by line, for
 * assertion messages. Immutable; safe to share between threads.
 */
final class ExportSnapshot {
    /** The server's private directory at the export root, never shown to clients. */
    static final String HIDDEN = ".tcnfs";

    /**
     * One object as seen under one name.
     *
     * @param type {@code dir}, {@code file}, {@code symlink} or {@code other}
     * @param mode permission bits, as {@code rwxr-xr-x}
     * @param size a file's size, -1 otherwise
     * @param sha256 a file's contents (hex), a symlink's target, empty for a directory
     */
    record Entry(String type, String mode, int uid, int gid, int links, long size, String sha256) {
        Entry {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(sha256, "sha256");
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(type).append(' ').append(mode).append(' ').append(uid).append(':')
                    .append(gid).append(" links=").append(links);
            if (size >= 0) {
                b.append(" size=").append(size);
            }
            if (!sha256.isEmpty()) {
                b.append(type.equals("symlink") ? " -> " : " sha256=")
                        .append(type.equals("symlink") ? sha256 : sha256.substring(0, Math.min(16, sha256.length())));
            }
            return b.toString();
        }
    }

    private final Map<String, Entry> entries;

    private ExportSnapshot(Map<String, Entry> entries) {
        this.entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }

    /** Everything below {@code root} (not {@code root} itself), except {@link #HIDDEN} at the root. */
    static ExportSnapshot of(Path root) throws IOException {
        Map<String, Entry> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                Path rel = root.relativize(p);
                if (rel.getName(0).toString().equals(HIDDEN)) {
                    continue;
                }
                entries.put(rel.toString().replace('\\', '/'), entry(p));
            }
        }
        return new ExportSnapshot(entries);
    }

    private static Entry entry(Path p) throws IOException {
        Map<String, Object> a = Files.readAttributes(p, "unix:mode,uid,gid,nlink,size", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) a.get("mode");
        String perms = PosixFilePermissions.toString(
                PosixFilePermissions.fromString(rwx(mode & 0777)));
        int uid = (Integer) a.get("uid");
        int gid = (Integer) a.get("gid");
        int links = (Integer) a.get("nlink");
        if (Files.isSymbolicLink(p)) {
            return new Entry("symlink", perms, uid, gid, links, -1, Files.readSymbolicLink(p).toString());
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return new Entry("dir", perms, uid, gid, links, -1, "");
        }
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return new Entry("file", perms, uid, gid, links, (Long) a.get("size"), sha256(p));
        }
        return new Entry("other", perms, uid, gid, links, -1, "");
    }

    private static String rwx(int bits) {
        char[] c = "rwxrwxrwx".toCharArray();
        for (int i = 0; i < 9; i++) {
            if ((bits & (1 << (8 - i))) == 0) {
                c[i] = '-';
            }
        }
        return new String(c);
    }

    private static String sha256(Path p) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS),
                MessageDigest.getInstance("SHA-256"))) {
            byte[] buf = new byte[64 * 1024];
            while (in.read(buf) >= 0) {
                // digest as we go
            }
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every entry by relative path. */
    Map<String, Entry> entries() {
        return entries;
    }

    /** Relative paths, sorted. */
    TreeSet<String> paths() {
        return new TreeSet<>(entries.keySet());
    }

    /**
     * How {@code actual} differs from this (expected) snapshot: one line per path, {@code - path} for a path
     * missing from {@code actual}, {@code + path} for one too many, {@code ~ path} for one that changed, or
     * the empty string when they are equal.
     */
    String diff(ExportSnapshot actual) {
        StringBuilder b = new StringBuilder();
        TreeSet<String> all = new TreeSet<>(entries.keySet());
        all.addAll(actual.entries.keySet());
        for (String path : all) {
            Entry want = entries.get(path);
            Entry got = actual.entries.get(path);
            if (got == null) {
                b.append("  - ").append(path).append(" (").append(want).append(") is missing\n");
            } else if (want == null) {
                b.append("  + ").append(path).append(" (").append(got).append(") should not exist\n");
            } else if (!want.equals(got)) {
                b.append("  ~ ").append(path).append(": expected ").append(want).append(", got ").append(got)
                        .append('\n');
            }
        }
        return b.toString();
    }

    /**
     * Fails with {@link #diff} when {@code actual} differs from this snapshot.
     *
     * @param what the situation, for the message (the seed, the compound, the failure injected)
     */
    void assertMatches(ExportSnapshot actual, String what) {
        String d = diff(actual);
        if (!d.isEmpty()) {
            throw new AssertionError("tree differs from the expected snapshot after " + what + ":\n" + d);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExportSnapshot s && s.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("ExportSnapshot[\n");
        entries.forEach((k, v) -> b.append("  ").append(k).append(": ").append(v).append('\n'));
        return b.append(']').toString();
    }
}
