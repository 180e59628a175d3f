package org.tcnfs.client.cli;

import java.util.List;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Parameters;

/**
 * A subcommand that works on one or more {@code nfs://} URLs of one server: it parses them, connects to that
 * server once and hands both to {@link #run(VnfsClient, List)}, closing the client afterwards.
 */
abstract class UrlsCommand extends BaseCommand {
    /** The URLs as given, which also label the items in failure messages. */
    @Parameters(arity = "1..*", paramLabel = "URL")
    List<String> args;

    @Override
    final void run() throws Exception {
        List<NfsUrl> targets = urls(args);
        try (VnfsClient nfs = connect(targets.get(0))) {
            run(nfs, targets);
        }
    }

    /** The command's work on {@code targets} (parsed {@link #args}, in order) through {@code nfs}. */
    abstract void run(VnfsClient nfs, List<NfsUrl> targets) throws Exception;

    /** The paths of {@code targets}, relative to the server's root. */
    static List<String> paths(List<NfsUrl> targets) {
        return targets.stream().map(NfsUrl::path).toList();
    }
}
