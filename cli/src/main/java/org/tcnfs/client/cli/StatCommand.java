package org.tcnfs.client.cli;

import java.util.List;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;

/** {@code tcnfs stat URL...}: attributes, one {@code key: value} per line. */
@Command(name = "stat", mixinStandardHelpOptions = true, description = "Show attributes of files.")
final class StatCommand extends UrlsCommand {
    @Override
    void run(VnfsClient nfs, List<NfsUrl> targets) throws Exception {
        VResult<FileInfo> r = nfs.vgetattrs(paths(targets), Mode.PLAIN);
        check(r, args, "stat");
        for (int i = 0; i < targets.size(); i++) {
            FileInfo f = r.value(i);
            System.out.println("file: " + targets.get(i));
            System.out.println("type: " + f.type().name().toLowerCase(java.util.Locale.ROOT));
            System.out.println("size: " + f.size());
            System.out.printf("mode: %04o (%s)%n", f.mode(), Modes.render(f));
            System.out.println("links: " + f.links());
            System.out.println("owner: " + f.owner());
            System.out.println("group: " + f.group());
            System.out.println("modified: " + f.modifyTime());
            System.out.println("fileid: " + f.fileId());
        }
    }
}
