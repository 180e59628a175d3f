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
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tcnfs ls [-l] [-R] URL...}. */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = "List directories (names sorted; with -R, paths relative to the directory listed).")
final class LsCommand extends UrlsCommand {
    @Option(names = "-l", description = "long format: mode, links, owner, group, size, modification time")
    boolean longFormat;

    @Option(names = "-R", description = "everything beneath, one vectorized round per level")
    boolean recursive;

    @Override
    void run(VnfsClient nfs, List<NfsUrl> targets) throws Exception {
        List<String> paths = paths(targets);
        VResult<FileInfo> infos = nfs.vgetattrs(paths, Mode.PLAIN);
        check(infos, args, "ls");
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            if (infos.value(i).isDirectory()) {
                dirs.add(paths.get(i));
            } else {
                print(infos.value(i), targets.get(i).path());
            }
        }
        VResult<List<DirEntry>> listed = nfs.vlistdir(dirs, recursive ? Recursion.RECURSIVE : Recursion.FLAT,
                Mode.PLAIN);
        check(listed, dirs, "ls");
        for (int i = 0; i < dirs.size(); i++) {
            if (targets.size() > 1) {
                System.out.println(targets.get(0).withPath(dirs.get(i)) + ":");
            }
            String base = dirs.get(i);
            List<DirEntry> entries = new ArrayList<>(listed.value(i));
            entries.sort(Comparator.comparing(DirEntry::path));
            for (DirEntry e : entries) {
                String shown = base.isEmpty() ? e.path() : e.path().substring(base.length() + 1);
                print(e.info(), recursive ? shown : RemotePath.name(e.path()));
            }
        }
    }

    private void print(FileInfo info, String name) {
        System.out.println(longFormat ? Modes.longLine(info, name) : name);
    }
}
