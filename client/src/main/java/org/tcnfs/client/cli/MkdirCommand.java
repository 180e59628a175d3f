package org.tcnfs.client.cli;

import java.util.List;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs mkdir [-p] URL...}. */
@Command(name = "mkdir", mixinStandardHelpOptions = true, description = "Create directories.")
final class MkdirCommand extends BaseCommand {
    @Option(names = "-p", description = "create missing parents; existing directories are fine")
    boolean parents;

    @Option(names = "--txn", description = "all in one transaction")
    boolean txn;

    @Parameters(arity = "1..*", paramLabel = "URL")
    List<String> args;

    @Override
    void run() throws Exception {
        List<NfsUrl> targets = urls(args);
        try (VnfsClient nfs = connect(targets.get(0))) {
            progress().start("mkdir", targets.size());
            check(nfs.vmkdir(targets.stream().map(NfsUrl::path).toList(), mode(txn),
                    parents ? Parents.CREATE : Parents.REQUIRE), args, "mkdir");
        }
    }
}
