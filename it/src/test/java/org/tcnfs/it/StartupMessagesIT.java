package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why the real server process could not start, as one ERROR line an operator can act on: the port or path and
 * the cause in plain words, no stack trace, no Java exception name, exit status 1 (issue 17).
 */
class StartupMessagesIT {
    @TempDir
    Path tmp;

    /** Exit status and everything the process printed. */
    private record Run(int status, String output) {
        /** The ERROR lines, without their time stamp and logger. */
        List<String> errors() {
            return output.lines().filter(l -> l.contains(" ERROR "))
                    .map(l -> l.substring(l.indexOf(" - ") + 3)).toList();
        }
    }

    private Run server(List<String> prefix, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                ServerProcess.serverJar().toString(), "--bind", "127.0.0.1", "--metrics-port", "off", "--grace", "0"));
        command.addAll(Arrays.asList(args));
        Path log = Files.createTempFile(tmp, "server-", ".log");
        Process p = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the server did not stop by itself:\n" + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** Whether a user other than the owner may read {@code path} and pass through every directory above it. */
    private static boolean othersMayReach(Path path) throws IOException {
        Path p = path.toAbsolutePath();
        if (!Files.getPosixFilePermissions(p).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)) {
            return false;
        }
        for (Path dir = Files.isDirectory(p) ? p : p.getParent(); dir != null; dir = dir.getParent()) {
            if (!Files.getPosixFilePermissions(dir).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }

    private static void assertOneLine(Run r, String expected) {
        assertThat(r.status()).as(r.output()).isEqualTo(1);
        assertThat(r.errors()).as(r.output()).containsExactly(expected);
        assertThat(r.output()).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void aBusyPortIsNamed() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = busy.getLocalPort();

            Run r = server(List.of(), "--port", Integer.toString(port), "--data", tmp.resolve("d").toString(),
                    "--state", tmp.resolve("s").toString());

            assertOneLine(r, "tcnfs could not start: port " + port + " on 127.0.0.1 is in use (another server "
                    + "listens there; stop it or choose another port with --port)");
        }
    }

    @Test
    void aMissingExportPathIsOnePlainLine() throws Exception {
        Path missing = tmp.resolve("missing");
        Path exports = Files.writeString(tmp.resolve("exports"), missing + " 127.0.0.1(rw)\n");

        Run r = server(List.of(), "--port", "0", "--exports", exports.toString(), "--state", tmp.resolve("s").toString());

        assertOneLine(r, "tcnfs could not start: " + missing + ": no such file or directory");
    }

    @Test
    void aBadExportsFileNamesTheFileAndTheLineOnce() throws Exception {
        Files.createDirectories(tmp.resolve("d"));
        Path exports = Files.writeString(tmp.resolve("exports"),
                tmp.resolve("d") + " 127.0.0.1(rw)\n\n" + tmp.resolve("e") + " *(rw,frob)\n");

        Run r = server(List.of(), "--port", "0", "--exports", exports.toString(), "--state", tmp.resolve("s").toString());

        assertOneLine(r, "tcnfs could not start: " + exports + ": line 3: unknown export option 'frob' of *");
    }

    @Test
    void aStateDirectoryTheServerMayNotWriteSaysPermissionDenied() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "needs root and setpriv to run the server as another user");
        assumeTrue(othersMayReach(ServerProcess.serverJar()) && othersMayReach(tmp.getParent()),
                "the server jar and the temporary directory must be readable by other users");
        Path state = Files.createDirectories(tmp.resolve("root-only"));
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));

        Run r = server(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
                "--port", "0", "--data", data.toString(), "--state", state.toString());

        assertThat(r.status()).as(r.output()).isEqualTo(1);
        assertThat(r.errors()).as(r.output()).hasSize(1);
        assertThat(r.errors().get(0)).startsWith("tcnfs could not start: " + state).endsWith(": permission denied");
        assertThat(r.output()).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
    }
}
