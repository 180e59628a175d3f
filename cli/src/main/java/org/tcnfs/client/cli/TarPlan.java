package org.tcnfs.client.cli;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarFile;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.tcnfs.client.vector.LocalData;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VWriteFrom;

/**
 * What extracting a tar (or gzip-compressed tar) under a remote directory means as vectorized items: the
 * directories it needs (its directory entries and the parents of every entry) and, in archive order, the files
 * (created or truncated, with their modes), symbolic links and hard links. Names with {@code ..} or an absolute
 * form are refused, and so are device files and FIFOs (by name: the client cannot create them, and an empty
 * file in their place would be a lie); entries of other kinds are skipped (counted).
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
     * Plans the extraction of the local archive {@code archive} under {@code target} from its headers, without
     * keeping (or, uncompressed, even reading) its data: each file becomes a {@link VWriteFrom} of its bytes in
     * {@code members}, read as they are sent. An uncompressed archive is read header by header, seeking past the
     * data ({@link TarFile}); a member whose data would end past the end of the file is a truncated archive. A
     * gzip-compressed one is decompressed once through, its data skipped. Sparse members are refused (their
     * bytes in the archive are not the file's).
     *
     * @throws IOException with a message for people: "not a tar archive", "truncated archive", an unsafe
     *     name, or an entry that cannot be reproduced (a device or FIFO) by name
     */
    static TarPlan index(Path archive, String target, LocalData members) throws IOException {
        return scan(archive, target, members, true);
    }

    /**
     * Checks the local archive {@code archive} before a plain extraction, as {@link #index} reads it (headers only
     * when it is not compressed): a damaged or cut archive, an unsafe name or a device node changes nothing.
     *
     * @throws IOException with the messages of {@link #index}
     */
    static void check(Path archive) throws IOException {
        scan(archive, "", (position, length) -> {
            throw new IOException("not for reading");
        }, false);
    }

    private static TarPlan scan(Path archive, String target, LocalData members, boolean atomic) throws IOException {
        long size = Files.size(archive);
        boolean gzip;
        try (InputStream in = Files.newInputStream(archive)) {
            BufferedInputStream b = new BufferedInputStream(in, TAR_BLOCK);
            b.mark(2);
            gzip = b.read() == 0x1f && b.read() == 0x8b;
            if (!gzip) {
                b.reset();
                checkFirstHeader(b);
            }
        }
        Set<String> dirs = new LinkedHashSet<>();
        List<TxnItem> items = new ArrayList<>();
        int[] skipped = {0};
        long[] bytes = {0};
        List<TarArchiveEntry> entries = null;
        if (!gzip) {
            try (TarFile tar = new TarFile(archive)) {
                entries = tar.getEntries();
            } catch (IOException e) {
                // cut or damaged: the front-to-back reading below says where, as for a compressed archive
                entries = null;
            }
        }
        if (entries != null) {
            for (TarArchiveEntry e : entries) {
                if (e.isFile() && !e.isLink() && !e.isSparse() && e.getDataOffset() + e.getSize() > size) {
                    throw new IOException("truncated archive (in " + e.getName() + ")");
                }
                plan(e, e.getDataOffset(), target, members, atomic, dirs, items, skipped, bytes);
            }
        } else {
            String last = null;
            long end = 0;
            try (TarArchiveInputStream tar = open(Files.newInputStream(archive))) {
                TarArchiveEntry e;
                while ((e = nextEntry(tar, last)) != null) {
                    last = e.getName();
                    long at = tar.getBytesRead();
                    if (e.isFile() && !e.isLink()) {
                        end = Math.max(end, at + e.getSize());
                    }
                    plan(e, at, target, members, atomic, dirs, items, skipped, bytes);
                    if (e.isFile() && !e.isLink()) {
                        skipData(tar, e.getName(), e.getSize()); // a cut here is "truncated archive (in NAME)"
                    }
                }
                if (tar.getBytesRead() < end) {
                    throw new IOException("truncated archive (in " + last + ")");
                }
            } catch (EOFException e) {
                throw new IOException("truncated archive" + (last == null ? "" : " (in " + last + ")"), e);
            }
        }
        List<String> ordered = new ArrayList<>(dirs);
        ordered.sort((a, b) -> RemotePath.depth(a) != RemotePath.depth(b)
                ? Integer.compare(RemotePath.depth(a), RemotePath.depth(b)) : a.compareTo(b));
        return new TarPlan(ordered, items, skipped[0], bytes[0]);
    }

    /** Adds what entry {@code e} (its data at {@code at} of the tar stream) means to the plan being built. */
    private static void plan(TarArchiveEntry e, long at, String target, LocalData members, boolean atomic,
            Set<String> dirs, List<TxnItem> items, int[] skipped, long[] bytes) throws IOException {
        String name = safeName(e.getName());
        if (name.isEmpty()) {
            return;
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
        } else if (unreproducible(e)) {
            refuse(e);
        } else if (e.isFile()) {
            if (atomic && e.isSparse()) {
                throw new IOException("sparse file " + e.getName() + " in archive: not supported by --atomic");
            }
            bytes[0] += e.getSize();
            items.add(new VWriteFrom(remote, members, at, e.getSize(), mode == 0 ? VWrite.DEFAULT_MODE : mode));
        } else {
            skipped[0]++;
        }
    }

    /**
     * The tar stream of {@code archive}, gunzipped when it starts with gzip's magic bytes.
     *
     * @throws IOException "not a tar archive" or "truncated archive" when its first block is not a tar header
     */
    static TarArchiveInputStream open(InputStream archive) throws IOException {
        BufferedInputStream in = new BufferedInputStream(archive);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        BufferedInputStream tarStream = new BufferedInputStream(
                b1 == 0x1f && b2 == 0x8b ? new GzipCompressorInputStream(in, true) : in, TAR_BLOCK);
        checkFirstHeader(tarStream);
        return new TarArchiveInputStream(tarStream);
    }

    /** Whether {@code e} is an entry untar cannot create: a device node or a FIFO. */
    static boolean unreproducible(TarArchiveEntry e) {
        return e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO();
    }

    /** Refuses the {@link #unreproducible} entry {@code e} by name. */
    static void refuse(TarArchiveEntry e) throws IOException {
        throw new IOException(e.getName() + " is a " + (e.isFIFO() ? "FIFO"
                : e.isBlockDevice() ? "block device" : "character device")
                + ", which untar cannot create (only files, directories and links)");
    }

    /** "truncated archive (in NAME)" for a failure reading the data of entry {@code name}, else {@code e}. */
    static IOException dataFailure(IOException e, String name) {
        if (e instanceof EOFException || String.valueOf(e.getMessage()).startsWith("Truncated")) {
            return new IOException("truncated archive (in " + name + ")", e);
        }
        return e;
    }

    /** Reads past the {@code size} bytes of data of the current entry {@code name}. */
    private static void skipData(TarArchiveInputStream tar, String name, long size) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = size;
        try {
            while (left > 0) {
                int n = tar.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new EOFException();
                }
                left -= n;
            }
        } catch (IOException e) {
            throw dataFailure(e, name);
        }
    }

    /** Bytes of a tar header block. */
    private static final int TAR_BLOCK = 512;

    /**
     * Refuses input whose first block is neither a tar header (its checksum verifies) nor the zero block of an
     * empty archive; commons-compress reads a short text file as an empty archive.
     */
    private static void checkFirstHeader(BufferedInputStream in) throws IOException {
        in.mark(TAR_BLOCK);
        byte[] header;
        try {
            header = in.readNBytes(TAR_BLOCK);
        } catch (EOFException e) {
            throw new IOException("truncated archive", e);
        }
        in.reset();
        boolean zero = true;
        for (byte b : header) {
            zero &= b == 0;
        }
        if (header.length < TAR_BLOCK || !(zero || checksumVerifies(header))) {
            throw new IOException("not a tar archive");
        }
    }

    private static boolean checksumVerifies(byte[] header) {
        try {
            return TarUtils.verifyCheckSum(header);
        } catch (IllegalArgumentException e) {
            return false; // the checksum field is not octal
        }
    }

    /** The next entry; a damaged or cut header as a message for people. */
    static TarArchiveEntry nextEntry(TarArchiveInputStream tar, String last) throws IOException {
        try {
            return tar.getNextEntry();
        } catch (EOFException e) {
            throw new IOException("truncated archive", e);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            if (m.startsWith("Truncated")) {
                throw new IOException("truncated archive", e);
            }
            throw new IOException("damaged archive " + (last == null ? "at its start" : "after " + last), e);
        }
    }

    /** The data of the current entry {@code name}; a cut one as "truncated archive". */
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
