package org.tcnfs.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.recovery.RecoveryReport;
import org.tcnfs.server.config.ConfigLoader;
import org.tcnfs.server.config.InvalidConfigException;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.config.Setting;
import org.tcnfs.server.txn.StartupRecovery;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import sun.misc.Signal;

/**
 * {@code java -jar tcnfs-server.jar [--key value ...]}: serves until SIGTERM or SIGINT; SIGHUP reloads the
 * exports file ({@link TcnfsServer#reloadExports()}).
 *
 * <p>Exit codes: 0 after a clean stop, 2 for bad command-line or configuration values, 1 when the server
 * cannot start (the log says why; one line when another server holds the state directory).
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    private static final String CONFIG = "--config";
    private static final String CHECK = "--check";
    /** Exit status of {@code --check} when a server holds the state directory. */
    static final int IN_USE = 4;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        CommandLine cli = new CommandLine(spec());
        ParseResult parsed;
        try {
            parsed = cli.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            cli.getErr().println(e.getMessage());
            cli.usage(cli.getErr());
            return 2;
        }
        if (CommandLine.printHelpIfRequested(parsed)) {
            return 0;
        }
        ServerConfig config;
        try {
            config = configOf(parsed);
        } catch (InvalidConfigException e) {
            cli.getErr().println("tcnfs-server: " + e.getMessage());
            return 2;
        }
        if (parsed.hasMatchedOption(CHECK)) {
            return check(config, cli.getOut(), cli.getErr());
        }
        return serve(config);
    }

    /**
     * Prints pending recovery records and orphan backups; 0 if there are none, 3 if there are, 4 if a server
     * holds the state directory, 1 on error.
     */
    private static int check(ServerConfig config, PrintWriter out, PrintWriter err) {
        try {
            RecoveryReport report = TcnfsServer.check(config);
            StartupRecovery.describe(report).forEach(out::println);
            out.flush();
            return report.pending().isEmpty() && report.orphanBackups().isEmpty() ? 0 : 3;
        } catch (StateLock.InUseException e) {
            err.println("tcnfs-server --check: " + e.getMessage() + "; --check does not read a running server's state");
            err.flush();
            return IN_USE;
        } catch (IOException | RuntimeException e) {
            LOG.error("check failed: {}", e.getMessage(), e);
            return 1;
        }
    }

    private static int serve(ServerConfig config) {
        AtomicReference<TcnfsServer> serving = new AtomicReference<>();
        // before the start: a SIGHUP must never take the JVM's default action (it stops the server)
        handleHangup(serving);
        TcnfsServer server;
        try {
            server = TcnfsServer.start(config);
            serving.set(server);
        } catch (StateLock.InUseException e) {
            LOG.error("tcnfs could not start: {}; stop that server first, or give this one another state directory",
                    e.getMessage());
            return 1;
        } catch (Exception e) {
            LOG.error("tcnfs could not start: {}", StartupFailure.describe(e, config));
            LOG.debug("tcnfs could not start", e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "tcnfs-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /**
     * SIGHUP reloads the exports file of the server in {@code serving} (ignored, with a log line, while it
     * starts). {@code sun.misc.Signal} (module jdk.unsupported) is the JDK's supported way to do this; where
     * the signal cannot be handled the server runs without it and says so.
     */
    private static void handleHangup(AtomicReference<TcnfsServer> serving) {
        try {
            Signal.handle(new Signal("HUP"), signal -> {
                TcnfsServer server = serving.get();
                if (server == null) {
                    LOG.warn("SIGHUP while starting: exports not reloaded; send it again once the server serves");
                    return;
                }
                LOG.info("SIGHUP: reloading the exports file");
                try {
                    server.reloadExports();
                } catch (IllegalStateException e) {
                    LOG.warn("SIGHUP: exports not reloaded: {}", e.getMessage());
                } catch (RuntimeException e) {
                    LOG.error("SIGHUP: reloading the exports failed: {}", e.toString(), e);
                }
            });
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            LOG.warn("SIGHUP cannot be handled here ({}); it will stop the server instead of reloading the exports",
                    e.getMessage());
        }
    }

    private static ServerConfig configOf(ParseResult parsed) {
        ConfigLoader loader = new ConfigLoader();
        if (parsed.hasMatchedOption(CONFIG)) {
            loader.file(Path.of(parsed.<String>matchedOptionValue(CONFIG, "")));
        }
        loader.environment(System.getenv());
        for (Setting s : Setting.values()) {
            if (parsed.hasMatchedOption("--" + s.key())) {
                loader.flag(s, parsed.matchedOptionValue("--" + s.key(), ""));
            }
        }
        return loader.load();
    }

    /** The command line, built from {@link Setting} so every setting has its flag and help text. */
    static CommandSpec spec() {
        CommandSpec spec = CommandSpec.create()
                .name("tcnfs-server")
                .mixinStandardHelpOptions(true)
                .version("tcnfs " + TcnfsServer.version());
        spec.usageMessage().description("NFSv4.1 server that can run COMPOUNDs as ACID transactions.",
                "Every setting can also come from a --config file (key=value) or an environment variable "
                        + "TCNFS_<KEY>; flags win over the environment, which wins over the file.");
        spec.addOption(OptionSpec.builder(CHECK).arity("0")
                .description("Report pending recovery records and orphan transaction backups, change nothing, and "
                        + "exit: 0 if there are none, 3 if there are, 4 if a server holds the state directory.").build());
        spec.addOption(OptionSpec.builder(CONFIG).paramLabel("FILE").type(String.class)
                .description("Configuration file with key=value lines.").build());
        for (Setting s : Setting.values()) {
            spec.addOption(OptionSpec.builder("--" + s.key()).paramLabel("VALUE").type(String.class)
                    .description(s.doc() + " Default: '" + s.defaultValue() + "'. Env: " + s.environmentVariable())
                    .build());
        }
        return spec;
    }

    /** Prints the settings table (used to keep the README in step). */
    static void printSettings(PrintWriter out) {
        for (Setting s : Setting.values()) {
            out.printf("| `%s` | `%s` | `%s` | %s |%n", s.key(), s.environmentVariable(), s.defaultValue(), s.doc());
        }
    }
}
