package org.tcnfs.client.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.tcnfs.client.vector.DirEntry;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Recursion;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.nfs4.status.NfsStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tcnfs rm [-r] [-f] URL...}: with -r, trees are listed and removed deepest first. */
@Command(name = "rm", mixinStandardHelpOptions = true, description = "Remove files (and with -r, directory trees).")
final class RmCommand extends UrlsCommand {
    @Option(names = {"-r", "-R"}, description = "remove directories and everything beneath them")
    boolean recursive;

    @Option(names = "-f", description = "ignore missing files")
    boolean force;

    @Option(names = "--txn", description = "everything in one transaction: all removed or none")
    boolean txn;

    @Override
    void run(VnfsClient nfs, List<NfsUrl> targets) throws Exception {
        List<String> paths = paths(targets);
        VResult<FileInfo> infos = nfs.vgetattrs(paths, Mode.PLAIN);
        List<String> files = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            FileInfo info = infos.item(i).isDone() ? infos.value(i) : BaseCommand.statOrNull(nfs, paths.get(i));
            if (info == null) {
                if (!force) {
                    throw new CliException(ExitCode.NFS_ERROR, "rm " + targets.get(i) + ": " + NfsStatus.NOENT);
                }
            } else if (paths.get(i).isEmpty()) {
                throw new CliException(ExitCode.USAGE, "rm: refusing to remove the root");
            } else if (info.isDirectory()) {
                if (!recursive) {
                    throw new CliException(ExitCode.NFS_ERROR, "rm " + targets.get(i) + ": is a directory (use -r)");
                }
                dirs.add(paths.get(i));
            } else {
                files.add(paths.get(i));
            }
        }
        List<String> victims = new ArrayList<>(files);
        if (!dirs.isEmpty()) {
            VResult<List<DirEntry>> listed = nfs.vlistdir(dirs, Recursion.RECURSIVE, Mode.PLAIN);
            check(listed, dirs, "rm (listing)");
            List<String> beneath = new ArrayList<>(dirs);
            for (int i = 0; i < dirs.size(); i++) {
                listed.value(i).forEach(e -> beneath.add(e.path()));
            }
            beneath.sort(Comparator.comparingInt(RemotePath::depth).reversed().thenComparing(Comparator.naturalOrder()));
            victims.addAll(beneath);
        }
        progress().start("rm", victims.size());
        check(nfs.vremove(victims, mode(txn)), victims.stream().map(v -> targets.get(0).withPath(v).toString())
                .toList(), "rm");
    }
}
