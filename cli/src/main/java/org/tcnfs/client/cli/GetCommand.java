package org.tcnfs.client.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tcnfs get URL... LOCAL}: remote files to local ones, read in one vectorized call. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Copy files from the server. LOCAL '-' writes one file to standard output; with several "
                + "URLs, LOCAL must be a directory.")
final class GetCommand extends BaseCommand {
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
            List<VRead> reads = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (NfsUrl u : sources) {
                reads.add(VRead.whole(u.path()));
                labels.add(u.toString());
            }
            progress().start("get", reads.size());
            VResult<byte[]> r = nfs.vread(reads, Mode.PLAIN);
            check(r, labels, "get");
            for (int i = 0; i < sources.size(); i++) {
                if (localArg.equals("-")) {
                    System.out.write(r.value(i));
                    System.out.flush();
                    continue;
                }
                Path dest = intoDirectory ? local.resolve(RemotePath.name(sources.get(i).path())) : local;
                write(dest, r.value(i));
            }
        }
    }

    static void write(Path dest, byte[] data) throws CliException {
        try {
            Files.write(dest, data);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, dest + ": " + LocalErrors.cause(e));
        }
    }
}
