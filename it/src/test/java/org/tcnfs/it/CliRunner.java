package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tcnfs.client.cli.TcnfsCli;

/**
 * Runs the {@code tcnfs} command line for the integration tests: in this JVM ({@link #tcnfs(String...)},
 * {@link #ok(String...)}) or as the real fat jar in a child process ({@link #jar(Path, String...)}).
 */
final class CliRunner {
    private CliRunner() {
    }

    /** Exit status, standard output and standard error of one run of the command line. */
    record Run(int status, String out, String err) {
    }

    /**
     * Runs the command line in this JVM with {@code --no-progress} after the command name, capturing its output;
     * synchronized because it swaps {@link System#out} and {@link System#err}.
     */
    static synchronized Run tcnfs(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            List<String> all = new ArrayList<>(List.of(args));
            all.add(1, "--no-progress");
            int status = TcnfsCli.run(all.toArray(new String[0]));
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** {@link #tcnfs(String...)} that must exit with status 0. */
    static Run ok(String... args) {
        Run r = tcnfs(args);
        assertThat(r.status()).as("tcnfs %s: %s", String.join(" ", args), r.err()).isZero();
        return r;
    }

    /** The command line's fat jar (the build passes its place as {@code tcnfs.cli.jar}). */
    static Path clientJar() {
        return Paths.get(System.getProperty("tcnfs.cli.jar", "../cli/target/tcnfs-cli.jar")).toAbsolutePath();
    }

    /**
     * Starts {@code java -Xmx<heap> -XX:+UseSerialGC -jar tcnfs-cli.jar ARGS}: standard output and error go to
     * {@code output}, standard input comes from {@code stdin} (from /dev/null if it is null).
     */
    static Process start(String heap, Path stdin, Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + heap, "-XX:+UseSerialGC", "-jar", clientJar().toString()));
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(stdin == null ? new java.io.File("/dev/null") : stdin.toFile()).start();
    }

    /**
     * Waits for a process {@link #start} started; kills it and fails, with its output, when it runs longer than
     * {@code seconds}.
     *
     * @return its exit status
     */
    static int await(Process p, Path output, int seconds) throws IOException, InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("tcnfs did not finish in " + seconds + " s: " + Files.readString(output,
                    StandardCharsets.ISO_8859_1));
        }
        return p.exitValue();
    }

    /**
     * Runs the fat jar with a {@code heap} heap ({@link #start}), output to a new file in {@code dir}, and waits
     * for it (at most {@code seconds}): its exit status and its output (standard error included) as {@link Run#out}.
     */
    static Run child(String heap, Path dir, int seconds, String... args) throws IOException, InterruptedException {
        Path output = Files.createTempFile(dir, "cli-", ".txt");
        int status = await(start(heap, null, output, args), output, seconds);
        return new Run(status, Files.readString(output, StandardCharsets.ISO_8859_1), "");
    }

    /** Runs {@code java -jar tcnfs-cli.jar ARGS} in {@code dir} and waits for it. */
    static Run jar(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar", clientJar().toString()));
        command.addAll(Arrays.asList(args));
        Path out = Files.createTempFile(dir, "cli-", ".out");
        Path err = Files.createTempFile(dir, "cli-", ".err");
        Process p = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tcnfs " + String.join(" ", args) + " did not end within 120 s");
        }
        Run r = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }
}
