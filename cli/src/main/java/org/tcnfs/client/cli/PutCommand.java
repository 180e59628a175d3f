package org.tcnfs.client.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs put LOCAL... URL}: local files to the server, all in one vectorized call. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Copy local files to the server (created or truncated). With several files, or a URL that "
                + "is a directory, they go into it under their names.")
final class PutCommand extends BaseCommand {
    @Option(names = "--txn", description = "all files in one transaction: all written or none")
    boolean txn;

    @Option(names = {"-m", "--mode"}, defaultValue = "644", description = "octal mode of created files (default: ${DEFAULT-VALUE})")
    String mode;

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
            List<VWrite> writes = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (String l : locals) {
                Path file = Path.of(l);
                if (!Files.isRegularFile(file)) {
                    throw new CliException(ExitCode.LOCAL_IO, l + (Files.exists(file)
                            ? ": not a regular file (use cp -R for trees)" : ": no such file or directory"));
                }
                String remote = intoDirectory ? RemotePath.join(target.path(), file.getFileName().toString())
                        : target.path();
                writes.add(VWrite.create(remote, read(file)).withMode(bits));
                labels.add(target.withPath(remote).toString());
            }
            progress().start("put", writes.size());
            check(nfs.vwrite(writes, mode(txn)), labels, "put");
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
