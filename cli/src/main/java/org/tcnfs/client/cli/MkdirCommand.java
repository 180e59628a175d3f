package org.tcnfs.client.cli;

import java.util.List;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tcnfs mkdir [-p] URL...}. */
@Command(name = "mkdir", mixinStandardHelpOptions = true, description = "Create directories.")
final class MkdirCommand extends UrlsCommand {
    @Option(names = "-p", description = "create missing parents; existing directories are fine")
    boolean parents;

    @Option(names = "--txn", description = "all in one transaction")
    boolean txn;

    @Override
    void run(VnfsClient nfs, List<NfsUrl> targets) throws Exception {
        progress().start("mkdir", targets.size());
        check(nfs.vmkdir(paths(targets), mode(txn), parents ? Parents.CREATE : Parents.REQUIRE), args, "mkdir");
    }
}
