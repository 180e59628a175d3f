package org.tcnfs.client.cli;

import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs mv SRC... DST}: renames on one server. */
@Command(name = "mv", mixinStandardHelpOptions = true,
        description = "Rename files or directories on one server; into DST when it is a directory.")
final class MvCommand extends BaseCommand {
    @Option(names = "--txn", description = "all renames in one transaction")
    boolean txn;

    @Parameters(arity = "2..*", paramLabel = "SRC... DST", description = "nfs:// URLs")
    List<String> args;

    @Override
    void run() throws Exception {
        List<NfsUrl> all = urls(args);
        NfsUrl dst = all.get(all.size() - 1);
        List<NfsUrl> sources = all.subList(0, all.size() - 1);
        try (VnfsClient nfs = connect(dst)) {
            FileInfo d = statOrNull(nfs, dst.path());
            boolean into = d != null && d.isDirectory();
            if (sources.size() > 1 && !into) {
                throw new CliException(ExitCode.NFS_ERROR, dst + " is not a directory");
            }
            List<VRename> renames = new ArrayList<>();
            for (NfsUrl s : sources) {
                renames.add(new VRename(s.path(), into ? RemotePath.join(dst.path(), RemotePath.name(s.path())) : dst.path()));
            }
            progress().start("mv", renames.size());
            check(nfs.vrename(renames, mode(txn)), args, "mv");
        }
    }
}
