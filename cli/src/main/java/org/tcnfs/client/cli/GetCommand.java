package org.tcnfs.client.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tcnfs get URL... LOCAL}: remote files to local ones; small files read many per compound, large ones
 * streamed ({@link Transfers}). Local files get the remote permission bits less the umask, with {@code -p}
 * exactly those bits and the modification time.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Copy files from the server. LOCAL '-' writes one file to standard output; with several "
                + "URLs, LOCAL must be a directory.")
final class GetCommand extends BaseCommand {
    @Option(names = {"-p", "--preserve"}, description = "keep the remote files' modes and modification times")
    boolean preserve;

    @Parameters(arity = "2..*", paramLabel = "URL... LOCAL", description = "nfs://host[:port]/path..., then a local path")
    List<String> args;

    @Override
    void run() throws Exception {
        List<NfsUrl> sources = urls(args.subList(0, args.size() - 1));
        String localArg = args.get(args.size() - 1);
        Path local = Path.of(localArg);
        boolean intoDirectory = Files.isDirectory(local);
        if (sources.size() > 1 && !intoDirectory) {
            throw new CliException(ExitCode.LOCAL_IO, localArg + ": not a directory");
        }
        try (VnfsClient nfs = connect(sources.get(0))) {
            List<String> paths = sources.stream().map(NfsUrl::path).toList();
            List<String> labels = sources.stream().map(NfsUrl::toString).toList();
            VResult<FileInfo> infos = nfs.vgetattrs(paths, Mode.PLAIN);
            check(infos, labels, "get");
            long total = 0;
            for (int i = 0; i < paths.size(); i++) {
                if (infos.value(i).type() != FileInfo.FileType.REGULAR) {
                    throw new CliException(ExitCode.NFS_ERROR, "get: " + labels.get(i) + ": not a regular file");
                }
                total += infos.value(i).size();
            }
            progress().startBytes("get", total);
            Transfers t = new Transfers(nfs, progress(), "get");
            for (int i = 0; i < paths.size(); i++) {
                if (localArg.equals("-")) {
                    t.download(paths.get(i), System.out, labels.get(i));
                    continue;
                }
                Path dest = intoDirectory ? local.resolve(RemotePath.name(paths.get(i))) : local;
                t.download(paths.get(i), infos.value(i), dest, preserve, labels.get(i));
            }
            t.finish();
        }
    }
}
