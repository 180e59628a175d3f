package org.tcnfs.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs untar [--atomic] ARCHIVE URL}: a tar or tar.gz extracted into a remote directory. */
@Command(name = "untar", mixinStandardHelpOptions = true,
        description = "Extract a tar or tar.gz ('-' reads standard input) into a remote directory (created if "
                + "missing). Existing files are overwritten.")
final class UntarCommand extends BaseCommand {
    @Option(names = "--atomic", description = "the whole extraction is one transaction: all of it or nothing")
    boolean atomic;

    @Parameters(index = "0", paramLabel = "ARCHIVE")
    String archive;

    @Parameters(index = "1", paramLabel = "URL")
    String target;

    @Override
    void run() throws Exception {
        NfsUrl dst = url(target);
        if (!atomic) {
            extractStreaming(dst);
            return;
        }
        Path spooled = archive.equals("-") ? spool() : null;
        Path file = spooled != null ? spooled : Path.of(archive);
        try (ArchiveMembers members = openMembers(file)) {
            TarPlan plan;
            try {
                plan = TarPlan.index(file, dst.path(), members);
            } catch (IOException e) {
                throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + LocalErrors.cause(e));
            }
            try (VnfsClient nfs = connect(dst)) {
                List<TxnItem> all = new ArrayList<>();
                List<String> allLabels = new ArrayList<>();
                for (String d : nfs.missingDirectories(plan.directories())) {
                    all.add(new VMkdir(d));
                    allLabels.add(Labels.of(new VMkdir(d)));
                }
                for (TxnItem i : plan.items()) {
                    all.add(i);
                    allLabels.add(Labels.of(i));
                }
                progress().start("untar", all.size());
                VResult<Void> r;
                try {
                    r = nfs.vtxn(all);
                } catch (UncheckedIOException e) {
                    throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": "
                            + LocalErrors.cause(e.getCause()) + "; transaction aborted, nothing changed");
                }
                check(r, allLabels, "untar");
                if (plan.skipped() > 0) {
                    System.err.println("untar: skipped " + plan.skipped()
                            + " entries that are not files, directories or links");
                }
            }
        } finally {
            if (spooled != null) {
                Files.deleteIfExists(spooled);
            }
        }
    }

    /** The members of the local archive {@code file}, read as the transaction sends them. */
    private ArchiveMembers openMembers(Path file) throws CliException {
        try {
            return ArchiveMembers.open(file);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + LocalErrors.cause(e));
        }
    }

    /**
     * Standard input copied to a temporary file, so that an atomic extraction can read its headers first and its
     * members as they are sent (and again, should the transaction begin again) with bounded memory.
     */
    private static Path spool() throws CliException {
        Path tmp = null;
        try {
            tmp = Files.createTempFile("tcnfs-untar-", ".tar");
            Files.copy(System.in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // reported below
                }
            }
            throw new CliException(ExitCode.LOCAL_IO, "untar: standard input: cannot keep it in a temporary file: "
                    + LocalErrors.cause(e));
        }
    }

    /**
     * Plain extraction while the archive is read: directories and small files batched, files larger than one
     * WRITE streamed from the archive ({@link Transfers}); memory stays bounded whatever the archive holds.
     * Progress counts the archive's bytes.
     */
    private void extractStreaming(NfsUrl dst) throws Exception {
        Path file = archive.equals("-") ? null : Path.of(archive);
        long total = 0;
        if (file != null) {
            // A pre-pass over the local archive (no data kept) so that a damaged archive, an unsafe name or a
            // device node is refused before anything changes; standard input can only be checked as it streams.
            try {
                total = Files.size(file);
                TarPlan.check(file);
            } catch (IOException e) {
                throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + LocalErrors.cause(e));
            }
        }
        int skipped = 0;
        String current = null;
        try (VnfsClient nfs = connect(dst);
                InputStream raw = file == null ? System.in : new java.io.FileInputStream(file.toFile())) {
            progress().startBytes("untar", total);
            Progress bar = progress();
            InputStream counted = new java.io.FilterInputStream(raw) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    if (n > 0) {
                        bar.bytesDone(n);
                    }
                    return n;
                }
            };
            Transfers t = new Transfers(nfs, new Progress(false), "untar");
            Set<String> made = new HashSet<>();
            t.mkdir(dst.path());
            try (TarArchiveInputStream tar = open(counted)) {
                TarArchiveEntry e;
                while ((e = nextEntry(tar, current)) != null) {
                    current = e.getName();
                    String name = safeName(e.getName());
                    if (name.isEmpty()) {
                        continue;
                    }
                    String remote = RemotePath.join(dst.path(), name);
                    String parent = RemotePath.parent(remote);
                    if (made.add(parent)) {
                        t.mkdir(parent);
                    }
                    int mode = e.getMode() & 07777;
                    if (e.isDirectory()) {
                        if (made.add(remote)) {
                            t.mkdir(remote);
                        }
                    } else if (e.isSymbolicLink()) {
                        t.item(new VSymlink(remote, e.getLinkName()), "symlink " + remote);
                    } else if (e.isLink()) {
                        t.item(new VLink(RemotePath.join(dst.path(), safeName(e.getLinkName())), remote),
                                "link " + remote);
                    } else if (TarPlan.unreproducible(e)) {
                        refuse(e);
                    } else if (e.isFile()) {
                        t.upload(tar, e.getSize(), remote, mode == 0 ? VWrite.DEFAULT_MODE : mode, null,
                                dst.withPath(remote).toString());
                    } else {
                        skipped++;
                    }
                }
            } catch (Transfers.LocalIo ex) {
                IOException cause = ex.getCause() instanceof IOException io ? io : ex;
                throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": "
                        + TarPlan.dataFailure(cause, current).getMessage());
            }
            t.finish();
        } catch (java.io.FileNotFoundException ex) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + ex.getMessage());
        }
        if (skipped > 0) {
            System.err.println("untar: skipped " + skipped + " entries that are not files, directories or links");
        }
    }

    /** An entry's name as a relative path; an unsafe one is a local failure. */
    private String safeName(String name) throws CliException {
        try {
            return TarPlan.safeName(name);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + e.getMessage());
        }
    }

    /** The next entry; a damaged or cut archive is a local failure. */
    private TarArchiveEntry nextEntry(TarArchiveInputStream tar, String last) throws CliException {
        try {
            return TarPlan.nextEntry(tar, last);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + e.getMessage());
        }
    }

    /** The device node or FIFO {@code e} refused by name (met on standard input, after the pre-pass). */
    private void refuse(TarArchiveEntry e) throws CliException {
        try {
            TarPlan.refuse(e);
        } catch (IOException ex) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + ex.getMessage());
        }
    }

    /** The tar stream of {@code in} (gzip detected); input that is not a tar is a local failure. */
    private TarArchiveInputStream open(InputStream in) throws CliException {
        try {
            return TarPlan.open(in);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + e.getMessage());
        }
    }
}
