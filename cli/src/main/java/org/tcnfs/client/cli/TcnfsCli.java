package org.tcnfs.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import org.tcnfs.client.rpc.NoReplyException;
import org.tcnfs.client.vector.CompoundTooLargeException;
import org.tcnfs.client.vector.LateReplyException;
import org.tcnfs.client.vector.TransactionsUnsupportedException;
import org.tcnfs.nfs4.status.NfsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tcnfs} command: file work on an NFSv4.1 server through the vectorized client, plain or as
 * transactions. Remote files are {@code nfs://host[:port]/path}.
 *
 * <pre>
 * tcnfs put a.txt b.txt nfs://127.0.0.1:2049/dir/
 * tcnfs ls -l -R nfs://127.0.0.1:2049/dir
 * tcnfs untar --atomic src.tar.gz nfs://127.0.0.1:2049/src
 * tcnfs apply adduser.manifest nfs://127.0.0.1:2049/etc
 * </pre>
 *
 * <p>Exit statuses: see {@link ExitCode}.
 */
@Command(name = "tcnfs", mixinStandardHelpOptions = true, versionProvider = TcnfsCli.Version.class,
        description = "Vectorized NFSv4.1 client for tcnfs (and any NFSv4.1 server). Exit status: 0 ok, 1 NFS error,"
                + " 2 usage, 3 connection, 4 server without transactions, 5 transaction too large, 6 local file error,"
                + " 7 no answer within --max-wait (the message says what is known of the outcome).",
        subcommands = {PutCommand.class, GetCommand.class, LsCommand.class, StatCommand.class, MkdirCommand.class,
            RmCommand.class, MvCommand.class, CpCommand.class, UntarCommand.class, ApplyCommand.class})
public final class TcnfsCli implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit status (for tests). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new TcnfsCli());
        cl.setExecutionExceptionHandler((e, line, parsed) -> report(line.getErr(), e));
        cl.setParameterExceptionHandler((e, args1) -> {
            e.getCommandLine().getErr().println("tcnfs: " + e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getErr());
            return ExitCode.USAGE.code();
        });
        return cl.execute(args);
    }

    /** Without a subcommand: the usage on standard error, and the usage exit status. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }

    /** One line on standard error for {@code e}; the exit status for its kind. */
    static int report(PrintWriter err, Exception e) {
        ExitCode code;
        String message = e.getMessage();
        if (e instanceof CliException c) {
            code = c.exitCode();
        } else if (e instanceof TransactionsUnsupportedException) {
            code = ExitCode.NO_TRANSACTIONS;
        } else if (e instanceof LateReplyException) {
            code = ExitCode.NO_ANSWER;
        } else if (e instanceof CompoundTooLargeException) {
            code = ExitCode.TOO_LARGE;
        } else if (e instanceof NfsException) {
            code = ExitCode.NFS_ERROR;
        } else if (e instanceof NoReplyException) {
            code = ExitCode.NO_ANSWER;
            message = message + "; what it did is unknown";
        } else if (e instanceof UnknownHostException) {
            code = ExitCode.CONNECTION;
        } else if (e instanceof ConnectException) {
            code = ExitCode.CONNECTION;
            message = "cannot connect: " + message;
        } else if (e instanceof IOException) {
            code = ExitCode.CONNECTION;
        } else if (e instanceof IllegalArgumentException) {
            code = ExitCode.USAGE;
        } else {
            code = ExitCode.CONNECTION;
            message = e.toString();
        }
        err.println("tcnfs: " + (message == null ? e.getClass().getSimpleName() : message));
        err.flush();
        return code.code();
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = TcnfsCli.class.getPackage().getImplementationVersion();
            return new String[] {"tcnfs client " + (v == null ? "(development)" : v)};
        }
    }
}
