package org.tcnfs.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs untar [--atomic] ARCHIVE URL}: a tar or tar.gz extracted into a remote directory. */
@Command(name = "untar", mixinStandardHelpOptions = true,
        description = "Extract a tar or tar.gz ('-' reads standard input) into a remote directory (created if "
                + "missing). Existing files are overwritten.")
final class UntarCommand extends BaseCommand {
    @Option(names = "--atomic", description = "the whole extraction is one transaction: all of it or nothing")
    boolean atomic;

    @Parameters(index = "0", paramLabel = "ARCHIVE")
    String archive;

    @Parameters(index = "1", paramLabel = "URL")
    String target;

    @Override
    void run() throws Exception {
        NfsUrl dst = url(target);
        TarPlan plan;
        try (InputStream in = archive.equals("-") ? System.in : Files.newInputStream(Path.of(archive))) {
            plan = TarPlan.read(in, dst.path());
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "untar: " + archive + ": " + LocalErrors.cause(e));
        }
        try (VnfsClient nfs = connect(dst)) {
            List<String> labels = new ArrayList<>();
            for (TxnItem i : plan.items()) {
                labels.add(Labels.of(i));
            }
            if (atomic) {
                List<TxnItem> all = new ArrayList<>();
                List<String> allLabels = new ArrayList<>();
                for (String d : nfs.missingDirectories(plan.directories())) {
                    all.add(new VMkdir(d));
                    allLabels.add(Labels.of(new VMkdir(d)));
                }
                all.addAll(plan.items());
                allLabels.addAll(labels);
                progress().start("untar", all.size());
                check(nfs.vtxn(all), allLabels, "untar");
            } else {
                progress().start("untar", plan.directories().size() + plan.items().size());
                check(nfs.vmkdir(plan.directories(), Mode.PLAIN, Parents.CREATE), plan.directories(), "untar (mkdir)");
                check(nfs.vapply(plan.items(), Mode.PLAIN), labels, "untar");
            }
            if (plan.skipped() > 0) {
                System.err.println("untar: skipped " + plan.skipped() + " entries that are not files, directories or links");
            }
        }
    }
}
