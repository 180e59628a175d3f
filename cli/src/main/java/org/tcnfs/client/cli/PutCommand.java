package org.tcnfs.client.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VWriteFile;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tcnfs put LOCAL... URL}: local files to the server. Plain: small files batched many per compound,
 * large ones streamed ({@link Transfers}); {@code --txn}: all in one transaction.
 */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Copy local files to the server (created or truncated). With several files, or a URL that "
                + "is a directory, they go into it under their names.")
final class PutCommand extends BaseCommand {
    @Option(names = "--txn", description = "all files in one transaction: all written or none")
    boolean txn;

    @Option(names = {"-m", "--mode"}, defaultValue = "644", description = "octal mode of created files (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = {"-p", "--preserve"}, description = "keep the local files' modes and modification times")
    boolean preserve;

    @Parameters(arity = "2..*", paramLabel = "LOCAL... URL", description = "local files, then nfs://host[:port]/path")
    List<String> args;

    @Override
    void run() throws Exception {
        NfsUrl target = url(args.get(args.size() - 1));
        List<String> locals = args.subList(0, args.size() - 1);
        int bits = Modes.parse(mode);
        try (VnfsClient nfs = connect(target)) {
            FileInfo t = statOrNull(nfs, target.path());
            boolean intoDirectory = t != null && t.isDirectory()
                    || NfsUrl.endsWithSlash(args.get(args.size() - 1)) || locals.size() > 1;
            if (intoDirectory && (t == null || !t.isDirectory())) {
                throw new CliException(ExitCode.NFS_ERROR, target + " is not a directory");
            }
            List<Path> files = new ArrayList<>();
            List<String> remotes = new ArrayList<>();
            long total = 0;
            for (String l : locals) {
                Path file = Path.of(l);
                if (!Files.isRegularFile(file)) {
                    throw new CliException(ExitCode.LOCAL_IO, l + (Files.exists(file)
                            ? ": not a regular file (use cp -R for trees)" : ": no such file or directory"));
                }
                files.add(file);
                remotes.add(intoDirectory ? RemotePath.join(target.path(), file.getFileName().toString())
                        : target.path());
                total += size(file);
            }
            if (txn) {
                List<VWriteFile> writes = new ArrayList<>();
                List<String> labels = new ArrayList<>();
                for (int i = 0; i < files.size(); i++) {
                    Path file = files.get(i);
                    writes.add(new VWriteFile(remotes.get(i), file, preserve ? localMode(file) : bits));
                    labels.add(target.withPath(remotes.get(i)).toString());
                }
                progress().start("put", writes.size());
                VResult<Void> r;
                try {
                    r = nfs.vwriteFiles(writes);
                } catch (UncheckedIOException e) {
                    throw new CliException(ExitCode.LOCAL_IO, "put: " + LocalErrors.cause(e.getCause())
                            + "; transaction aborted, nothing changed");
                }
                check(r, labels, "put");
                return;
            }
            progress().startBytes("put", total);
            Transfers transfers = new Transfers(nfs, progress(), "put");
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                transfers.upload(file, remotes.get(i), preserve ? localMode(file) : bits, preserve ? localTime(file) : null,
                        target.withPath(remotes.get(i)).toString());
            }
            transfers.finish();
        }
    }

    static long size(Path file) throws CliException {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, file + ": " + e.getMessage());
        }
    }

    /** The permission bits of a local file, 0644 where the file system has none. */
    static int localMode(Path p) {
        try {
            return ((Integer) Files.getAttribute(p, "unix:mode")) & 07777;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return VWrite.DEFAULT_MODE;
        }
    }

    /** The modification time of a local file (not following a link). */
    static Instant localTime(Path p) throws CliException {
        try {
            return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, p + ": " + e.getMessage());
        }
    }

    static byte[] read(Path file) throws CliException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, file + ": " + LocalErrors.cause(e));
        }
    }
}
