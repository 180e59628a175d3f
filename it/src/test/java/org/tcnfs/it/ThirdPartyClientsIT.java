package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The third-party NFSv4.1 clients (nfs4fs and nfs-rs, Python) against the real server, and nfs-rs once more
 * over NFSv4.0: each fact runs tests of {@code it/src/test/python} with pytest and fails with pytest's and
 * the server's output.
 *
 * <p>Skipped (with the reason) only when python3, pytest or the client packages are missing; install
 * them with {@code scripts/install-test-deps.sh}. nfs4fs and nfs-rs expose no byte-range locks, so locks
 * are tested from Java ({@link Nfs41ProtocolIT}).
 */
class ThirdPartyClientsIT extends SharedServerTest {
    private static final long PYTEST_TIMEOUT_MINUTES = 15;

    /** The pytest option that makes the nfs-rs tests speak NFSv4.0 (RFC 7530) instead of 4.1. */
    private static final String[] NFS_RS_OVER_NFS40 = {"--nfs-rs-version", "4.0"};

    private static String python() {
        String configured = System.getenv("TCNFS_PYTHON");
        return configured == null || configured.isBlank() ? "python3" : configured;
    }

    private static Path testsDir() {
        return Paths.get(System.getProperty("tcnfs.python.tests", "src/test/python")).toAbsolutePath();
    }

    /** Skips the calling test unless python3 can import pytest and {@code module}. */
    private static void assumePythonHas(String module) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(python(), "-c", "import pytest, " + module).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no " + python() + " to run the third-party client tests: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor() == 0, python() + " cannot import pytest and " + module
                + " (run scripts/install-test-deps.sh): " + out.strip());
    }

    /**
     * Runs pytest on {@code file} (tests whose names match {@code selection}, a -k expression), with
     * {@code options} added to the command line (such as {@link #NFS_RS_OVER_NFS40}).
     */
    private void pytest(String module, String file, String selection, String... options)
            throws IOException, InterruptedException {
        assumePythonHas(module);
        List<String> command = new ArrayList<>(List.of(python(), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "-rfE", "--nfs-host", server.host(), "--nfs-port", Integer.toString(server.port()),
                "--nfs-export", "/", file));
        command.addAll(List.of(options));
        if (!selection.isEmpty()) {
            command.add("-k");
            command.add(selection);
        }
        ProcessBuilder pb = new ProcessBuilder(command).directory(testsDir().toFile()).redirectErrorStream(true);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Path out = Files.createTempFile("pytest-", ".log");
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        boolean finished = p.waitFor(PYTEST_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!finished) {
            p.destroyForcibly();
            p.waitFor();
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        String failure = String.join(" ", command) + "\n--- pytest output ---\n" + tail(output, 20000)
                + "\n--- server output ---\n" + tail(server.output(), 20000);
        assertThat(finished).withFailMessage("pytest ran longer than %d minutes\n%s", PYTEST_TIMEOUT_MINUTES, failure)
                .isTrue();
        assertThat(p.exitValue()).withFailMessage("pytest failed (exit %d)\n%s", p.exitValue(), failure).isZero();
    }

    private static String tail(String s, int max) {
        return s.length() <= max ? s : "...\n" + s.substring(s.length() - max);
    }

    // ---- nfs4fs (vectorized client, fsspec API)

    @Test
    void fileWrittenByNfs4fsReadsBackWithSameChecksum() throws Exception {
        pytest("nfs4fs", "test_nfs4fs.py", "sha256 or overwritten");
    }

    @Test
    void directoryOf10000EntriesListsCompletelyThroughNfs4fs() throws Exception {
        pytest("nfs4fs", "test_nfs4fs.py", "10000 or nested");
    }

    @Test
    void renameLinkSymlinkAndRemoveWorkThroughNfs4fs() throws Exception {
        pytest("nfs4fs", "test_nfs4fs.py", "rename or hard_link or symlink or remove or missing");
    }

    @Test
    void chmodAndTruncateWorkThroughNfs4fs() throws Exception {
        pytest("nfs4fs", "test_nfs4fs.py", "chmod or truncate");
    }

    @Test
    void twoNfs4fsClientsSeeEachOthersFiles() throws Exception {
        pytest("nfs4fs", "test_nfs4fs.py", "two_clients");
    }

    // ---- nfs-rs (Rust client, Python binding)

    @Test
    void fileWrittenByNfsRsReadsBackWithSameChecksum() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "sha256 or positional or gap");
    }

    @Test
    void directoryOf10000EntriesListsCompletelyThroughNfsRs() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "10000 or pages or mkdir");
    }

    @Test
    void renameLinkSymlinkAndRemoveWorkThroughNfsRs() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "rename or link or symlink or remove or missing");
    }

    @Test
    void setattrWorksThroughNfsRs() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "chmod or mtime or access");
    }

    @Test
    void twoNfsRsClientsSeeEachOthersWrites() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "two_clients");
    }

    // ---- nfs-rs over NFSv4.0: SETCLIENTID, OPEN_CONFIRM, open-owner seqids, and writes of any size (libnfs,
    // the other NFSv4.0 client, cannot write 4 KiB or more; see LibnfsClientIT)

    @Test
    void fileWrittenByNfsRsOverNfs40ReadsBackWithSameChecksum() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "sha256 or positional or gap", NFS_RS_OVER_NFS40);
    }

    @Test
    void renameLinkSymlinkRemoveAndMkdirWorkThroughNfsRsOverNfs40() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "rename or link or symlink or remove or missing or mkdir or pages",
                NFS_RS_OVER_NFS40);
    }

    @Test
    void setattrWorksThroughNfsRsOverNfs40() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "chmod or mtime or access", NFS_RS_OVER_NFS40);
    }

    @Test
    void twoNfsRsClientsOverNfs40SeeEachOthersWrites() throws Exception {
        pytest("nfs_rs", "test_nfs_rs.py", "two_clients", NFS_RS_OVER_NFS40);
    }

    // ---- both

    @Test
    void filesWrittenByOneThirdPartyClientReadBackThroughTheOther() throws Exception {
        pytest("nfs4fs, nfs_rs", "test_interop.py", "");
    }
}
