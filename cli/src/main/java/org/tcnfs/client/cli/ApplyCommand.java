package org.tcnfs.client.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VnfsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tcnfs apply MANIFEST URL}: a manifest of changes (see {@link Manifest}) as one transaction. */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Apply a manifest of changes under URL as one transaction: all of them or none.",
            "Lines: write REMOTE LOCAL | append REMOTE LOCAL | text REMOTE WORDS... | mkdir REMOTE [MODE] |",
            "rename FROM TO | remove REMOTE | symlink REMOTE TARGET | link EXISTING NEW | chmod MODE REMOTE |",
            "truncate REMOTE SIZE. A word starting with '#' starts a comment; %%20 escapes a blank, %%23 a '#'."})
final class ApplyCommand extends BaseCommand {
    @Option(names = "--plain", description = "send as plain compounds (stop at the first failure, keep what ran)")
    boolean plain;

    @Parameters(index = "0", paramLabel = "MANIFEST", description = "the manifest file ('-' for standard input)")
    String manifest;

    @Parameters(index = "1", paramLabel = "URL", description = "the remote directory paths are relative to")
    String target;

    @Override
    void run() throws Exception {
        NfsUrl base = url(target);
        List<String> lines;
        Path localBase;
        try {
            if (manifest.equals("-")) {
                lines = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                localBase = Path.of("");
            } else {
                Path m = Path.of(manifest);
                lines = Files.readAllLines(m, StandardCharsets.UTF_8);
                localBase = m.toAbsolutePath().getParent();
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "apply: " + manifest + ": " + LocalErrors.cause(e));
        }
        Manifest parsed = Manifest.parse(lines, base.path(), localBase);
        try (VnfsClient nfs = connect(base)) {
            List<String> labels = new ArrayList<>();
            for (TxnItem i : parsed.items()) {
                labels.add(Labels.of(i));
            }
            progress().start("apply", parsed.items().size());
            try {
                check(plain ? nfs.vapply(parsed.items(), mode(false)) : nfs.vtxn(parsed.items()), labels, "apply");
            } catch (java.io.UncheckedIOException e) {
                throw new CliException(ExitCode.LOCAL_IO, "apply: " + LocalErrors.describe(e.getCause())
                        + (plain ? "" : "; transaction aborted, nothing changed"));
            }
        }
    }
}
