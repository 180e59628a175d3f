package org.tcnfs.client.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;

/**
 * What extracting a tar (or gzip-compressed tar) under a remote directory means as vectorized items: the
 * directories it needs (its directory entries and the parents of every entry) and, in archive order, the files
 * (created or truncated, with their modes), symbolic links and hard links. Names with {@code ..} or an absolute
 * form are refused; device files and FIFOs are skipped (counted).
 *
 * @param directories every directory to exist, relative to the export, parents first
 * @param items writes, symlinks and links, in archive order
 * @param skipped entries of other kinds
 * @param bytes the file data in total
 */
record TarPlan(List<String> directories, List<TxnItem> items, int skipped, long bytes) {
    TarPlan {
        directories = List.copyOf(directories);
        items = List.copyOf(items);
    }

    /**
     * Reads {@code archive} (gzip detected by its magic bytes) for extraction under {@code target}.
     *
     * @throws IOException when it is not a readable tar, or holds an unsafe name
     */
    static TarPlan read(InputStream archive, String target) throws IOException {
        BufferedInputStream in = new BufferedInputStream(archive);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        InputStream tarStream = b1 == 0x1f && b2 == 0x8b ? new GzipCompressorInputStream(in, true) : in;
        Set<String> dirs = new LinkedHashSet<>();
        List<TxnItem> items = new ArrayList<>();
        int skipped = 0;
        long bytes = 0;
        try (TarArchiveInputStream tar = new TarArchiveInputStream(tarStream)) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                String name = safeName(e.getName());
                if (name.isEmpty()) {
                    continue;
                }
                String remote = RemotePath.join(target, name);
                addParents(dirs, RemotePath.parent(remote));
                int mode = e.getMode() & 07777;
                if (e.isDirectory()) {
                    dirs.add(remote);
                } else if (e.isSymbolicLink()) {
                    items.add(new VSymlink(remote, e.getLinkName()));
                } else if (e.isLink()) {
                    items.add(new VLink(RemotePath.join(target, safeName(e.getLinkName())), remote));
                } else if (e.isFile()) {
                    byte[] data = tar.readAllBytes();
                    bytes += data.length;
                    items.add(VWrite.create(remote, data).withMode(mode == 0 ? VWrite.DEFAULT_MODE : mode));
                } else {
                    skipped++;
                }
            }
        }
        List<String> ordered = new ArrayList<>(dirs);
        ordered.sort((a, b) -> RemotePath.depth(a) != RemotePath.depth(b)
                ? Integer.compare(RemotePath.depth(a), RemotePath.depth(b)) : a.compareTo(b));
        return new TarPlan(ordered, items, skipped, bytes);
    }

    /** {@code dir} and every directory above it (the target's own parents included). */
    private static void addParents(Set<String> dirs, String dir) {
        String acc = "";
        for (String part : RemotePath.components(dir)) {
            acc = acc.isEmpty() ? part : acc + "/" + part;
            dirs.add(acc);
        }
    }

    /** The entry name as a relative path; refuses absolute names and {@code ..}. */
    static String safeName(String name) throws IOException {
        if (name.startsWith("/")) {
            throw new IOException("absolute name in archive: " + name);
        }
        try {
            return RemotePath.normalize(name);
        } catch (IllegalArgumentException e) {
            throw new IOException("unsafe name in archive: " + name, e);
        }
    }
}
