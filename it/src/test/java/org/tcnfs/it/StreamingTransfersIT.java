package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.tcnfs.it.CliRunner.ok;
import static org.tcnfs.it.TestData.randomBytes;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.stream.RemoteFileReader;
import org.tcnfs.client.stream.RemoteFileWriter;
import org.tcnfs.client.stream.RemoteFiles;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.it.CliRunner.Run;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Issue 15, item 1: transfers of any size with bounded memory, through the real server and the real CLI. The
 * streaming API ({@link RemoteFiles}) moves files in many READ/WRITE compounds; put, get, cp (every direction)
 * and plain untar handle files over the one-compound limit, the CLI in a child JVM with a 48 MiB heap moves a
 * 512 MiB file, and {@code -p} keeps modes and modification times.
 */
class StreamingTransfersIT extends PerTestDirectoryTest {
    private static final int MIB = 1024 * 1024;
    private VnfsClient nfs;

    @TempDir
    Path tmp;

    @BeforeEach
    void connect() throws IOException {
        nfs = VnfsClient.builder().host("127.0.0.1").port(server.port()).timeout(Duration.ofSeconds(60)).connect();
    }

    @AfterEach
    void disconnect() throws IOException {
        nfs.close();
    }

    /** The CLI in a child JVM with {@code -Xmx<heap>}: exit status and output (standard error included). */
    private Run child(String heap, String... args) throws Exception {
        return CliRunner.child(heap, tmp, 120, args);
    }

    /**
     * A file of {@code mib} MiB that is mostly holes: 64 KiB of seeded random bytes at the start of every
     * MiB, so a wrong offset or a lost chunk changes its digest.
     */
    private static Path sparseFile(Path file, int mib, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[64 * 1024];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < mib; i++) {
                random.nextBytes(block);
                ch.write(ByteBuffer.wrap(block), (long) i * MIB);
            }
            ch.truncate((long) mib * MIB);
            ch.write(ByteBuffer.wrap(new byte[] {42}), (long) mib * MIB - 1);
        }
        return file;
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[MIB];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    @Test
    void cliWithA48MiBHeapPutsAndGetsA512MiBFile() throws Exception {
        Path big = sparseFile(tmp.resolve("big.bin"), 512, 1);
        String digest = sha256(big);

        Run put = child("48m", "put", big.toString(), url + "/big.bin");
        assertThat(put.status()).as(put.out()).isZero();
        assertThat(Files.size(remote.resolve("big.bin"))).isEqualTo(512L * MIB);
        assertThat(sha256(remote.resolve("big.bin"))).isEqualTo(digest);

        Path back = tmp.resolve("back.bin");
        Run get = child("48m", "get", url + "/big.bin", back.toString());
        assertThat(get.status()).as(get.out()).isZero();
        assertThat(sha256(back)).isEqualTo(digest);
        assertThat(put.out() + get.out()).as("no progress bar on a pipe").isEmpty();
    }

    @Test
    void forcedProgressShowsBytesWithRate() throws Exception {
        Path file = Files.write(tmp.resolve("f.bin"), randomBytes(6 * MIB, 2));

        Run put = child("64m", "put", "--progress", file.toString(), url + "/f.bin");

        assertThat(put.status()).as(put.out()).isZero();
        assertThat(put.out()).contains("put", "100%", "6/6MiB", "MiB/s");
    }

    @Test
    void cpOfATreeWithFilesOverOneMiBCopiesEveryFile() throws Exception {
        Path src = tmp.resolve("tree");
        Files.createDirectories(src.resolve("a/b"));
        for (int i = 0; i < 300; i++) {
            Files.write(src.resolve("a/small" + i), randomBytes(100 + i, i));
        }
        Files.write(src.resolve("a/b/three-mib"), randomBytes(3 * MIB + 7, 3));
        Files.write(src.resolve("five-mib"), randomBytes(5 * MIB, 4));
        Files.write(src.resolve("a/exactly-one-write"), randomBytes(MIB, 5));
        Files.createSymbolicLink(src.resolve("a/link"), Paths.get("b/three-mib"));

        ok("cp", "-R", src.toString(), url + "/");

        assertThat(VectorClientIT.snapshot(remote.resolve("tree"))).isEqualTo(VectorClientIT.snapshot(src));

        Path back = tmp.resolve("back");
        ok("cp", "-R", url + "/tree", back.toString());
        assertThat(VectorClientIT.snapshot(back)).isEqualTo(VectorClientIT.snapshot(src));

        ok("cp", "-R", url + "/tree", url + "/copy");
        assertThat(Files.readAllBytes(remote.resolve("copy/a/b/three-mib"))).isEqualTo(randomBytes(3 * MIB + 7, 3));
        assertThat(Files.readAllBytes(remote.resolve("copy/a/small299"))).isEqualTo(randomBytes(399, 299));
        assertThat(Files.readAllBytes(remote.resolve("copy/five-mib"))).isEqualTo(randomBytes(5 * MIB, 4));
    }

    @Test
    void plainUntarExtractsFilesOverOneMiB() throws Exception {
        Path archive = tmp.resolve("big.tar.gz");
        try (OutputStream out = Files.newOutputStream(archive);
                GzipCompressorOutputStream gz = new GzipCompressorOutputStream(out);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (int i = 0; i < 50; i++) {
                add(tar, "src/small" + i + ".c", randomBytes(200 + i, i), 0644);
            }
            add(tar, "src/data/blob.bin", randomBytes(4 * MIB + 1, 7), 0600);
            add(tar, "tool", randomBytes(2 * MIB, 8), 0755);
            add(tar, "src/after.c", randomBytes(10, 9), 0644);
        }

        ok("untar", archive.toString(), url + "/x");

        assertThat(Files.readAllBytes(remote.resolve("x/src/data/blob.bin"))).isEqualTo(randomBytes(4 * MIB + 1, 7));
        assertThat(Files.readAllBytes(remote.resolve("x/tool"))).isEqualTo(randomBytes(2 * MIB, 8));
        assertThat(Files.readAllBytes(remote.resolve("x/src/small49.c"))).isEqualTo(randomBytes(249, 49));
        assertThat(Files.readAllBytes(remote.resolve("x/src/after.c"))).isEqualTo(randomBytes(10, 9));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("x/tool"))))
                .isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("x/src/data/blob.bin"))))
                .isEqualTo("rw-------");
    }

    private static void add(TarArchiveOutputStream tar, String name, byte[] data, int mode) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        e.setSize(data.length);
        e.setMode(mode);
        tar.putArchiveEntry(e);
        tar.write(data);
        tar.closeArchiveEntry();
    }

    @Test
    void preserveKeepsModesAndModificationTimesBothWays() throws Exception {
        Instant old = Instant.parse("2001-02-03T04:05:06Z");
        Path small = Files.write(tmp.resolve("small.sh"), randomBytes(1000, 1));
        Path large = Files.write(tmp.resolve("large.bin"), randomBytes(3 * MIB, 2));
        for (Path p : List.of(small, large)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-x---"));
            Files.setLastModifiedTime(p, FileTime.from(old));
        }

        ok("put", "-p", small.toString(), large.toString(), url + "/");

        for (String name : List.of("small.sh", "large.bin")) {
            Path r = remote.resolve(name);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(r))).as(name).isEqualTo("rwxr-x---");
            assertThat(Files.getLastModifiedTime(r).toInstant()).as(name).isEqualTo(old);
        }

        Instant older = Instant.parse("1999-12-31T23:59:58Z");
        for (String name : List.of("small.sh", "large.bin")) {
            Files.setPosixFilePermissions(remote.resolve(name), PosixFilePermissions.fromString("rw-r-x--x"));
            Files.setLastModifiedTime(remote.resolve(name), FileTime.from(older));
        }
        Path got = Files.createDirectories(tmp.resolve("got"));
        ok("get", "-p", url + "/small.sh", url + "/large.bin", got.toString());
        Instant dirTime = Instant.parse("2003-04-05T06:07:08Z");
        Files.setPosixFilePermissions(remote, PosixFilePermissions.fromString("rwxr-x--x"));
        Files.setLastModifiedTime(remote, FileTime.from(dirTime));
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        ok("cp", "-R", "-p", url, tree.toString());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tree.resolve(path))))
                .isEqualTo("rwxr-x--x");
        assertThat(Files.getLastModifiedTime(tree.resolve(path)).toInstant()).isEqualTo(dirTime);

        ok("cp", "-R", "-p", tree.resolve(path).toString(), url + "/up");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("up"))))
                .isEqualTo("rwxr-x--x");
        assertThat(Files.getLastModifiedTime(remote.resolve("up")).toInstant()).isEqualTo(dirTime);
        assertThat(Files.getLastModifiedTime(remote.resolve("up/large.bin")).toInstant()).isEqualTo(older);
        ok("cp", "-R", "-p", url + "/up", url + "/up2");
        assertThat(Files.getLastModifiedTime(remote.resolve("up2")).toInstant()).isEqualTo(dirTime);
        assertThat(Files.getLastModifiedTime(remote.resolve("up2/small.sh")).toInstant()).isEqualTo(older);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("up2/small.sh"))))
                .isEqualTo("rw-r-x--x");

        for (Path dir : List.of(got, tree.resolve(path))) {
            for (String name : List.of("small.sh", "large.bin")) {
                Path l = dir.resolve(name);
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(l))).as(l.toString())
                        .isEqualTo("rw-r-x--x");
                assertThat(Files.getLastModifiedTime(l).toInstant()).as(l.toString()).isEqualTo(older);
            }
        }
        assertThat(Files.readAllBytes(got.resolve("large.bin"))).isEqualTo(randomBytes(3 * MIB, 2));
    }

    @Test
    void cpFromTheServerKeepsExecuteBitsWithoutPreserve() throws Exception {
        Files.createDirectories(remote.resolve("bin"));
        Files.write(remote.resolve("bin/tool"), randomBytes(100, 1));
        Files.write(remote.resolve("bin/big-tool"), randomBytes(2 * MIB, 2));
        Files.write(remote.resolve("bin/data"), randomBytes(100, 3));
        Files.setPosixFilePermissions(remote.resolve("bin/tool"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(remote.resolve("bin/big-tool"), PosixFilePermissions.fromString("rwxr-x---"));
        Files.setPosixFilePermissions(remote.resolve("bin/data"), PosixFilePermissions.fromString("rw-r--r--"));

        Path back = tmp.resolve("back");
        ok("cp", "-R", url + "/bin", back.toString());
        ok("cp", "-R", url + "/bin", url + "/bin2");

        for (Path dir : List.of(back, remote.resolve("bin2"))) {
            assertThat(Files.isExecutable(dir.resolve("tool"))).as(dir + "/tool").isTrue();
            assertThat(Files.isExecutable(dir.resolve("big-tool"))).as(dir + "/big-tool").isTrue();
            assertThat(Files.isExecutable(dir.resolve("data"))).as(dir + "/data").isFalse();
        }
        assertThat(Files.readAllBytes(back.resolve("big-tool"))).isEqualTo(randomBytes(2 * MIB, 2));
    }

    @Test
    void remoteFilesStreamInChunksWithSeveralCompoundsInFlight() throws Exception {
        RemoteFiles files = RemoteFiles.of(nfs).inFlight(4);
        byte[] data = randomBytes(9 * files.writeSize() + 12345, 11);
        AtomicLong written = new AtomicLong();
        Instant time = Instant.parse("2010-01-01T00:00:00Z");
        long before = compounds();

        try (RemoteFileWriter out = files.create(path + "/f.bin", 0640, written::addAndGet)) {
            out.setModifyTime(time);
            out.transferFrom(new ByteArrayInputStream(data));
        }

        assertThat(written.get()).isEqualTo(data.length);
        assertThat(Files.readAllBytes(remote.resolve("f.bin"))).isEqualTo(data);
        assertThat(Files.getLastModifiedTime(remote.resolve("f.bin")).toInstant()).isEqualTo(time);
        assertThat(compounds() - before).as("OPEN, ten WRITEs, COMMIT+CLOSE").isGreaterThanOrEqualTo(12);

        AtomicLong read = new AtomicLong();
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (RemoteFileReader in = files.openRead(path + "/f.bin", read::addAndGet)) {
            assertThat(in.size()).isEqualTo(data.length);
            assertThat(in.mode()).isEqualTo(0640);
            assertThat(in.modifyTime()).isEqualTo(time);
            in.transferTo(back);
        }
        assertThat(back.toByteArray()).isEqualTo(data);
        assertThat(read.get()).isEqualTo(data.length);

        try (RemoteFileReader in = files.openRead(path + "/f.bin", null)) {
            byte[] first = new byte[100];
            assertThat(in.readNBytes(first, 0, 100)).isEqualTo(100);
            assertThat(first).isEqualTo(java.util.Arrays.copyOf(data, 100));
        }
        try (RemoteFileWriter empty = files.create(path + "/empty", 0644, null)) {
            assertThat(empty.position()).isZero();
        }
        try (RemoteFileReader in = files.openRead(path + "/empty", null)) {
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> files.openRead(path + "/missing", null))
                .isInstanceOfSatisfying(NfsException.class, e -> assertThat(e.status()).isEqualTo(NfsStatus.NOENT));
        assertThatThrownBy(() -> files.create(path + "/no-dir/f", 0644, null))
                .isInstanceOfSatisfying(NfsException.class, e -> assertThat(e.status()).isEqualTo(NfsStatus.NOENT));
    }

    @Test
    void writerWhoseServerStopsAnsweringFailsInsteadOfHanging() throws Exception {
        try (ServerProcess own = ServerProcess.startIn(workDirectory(), List.of())) {
            VnfsClient client = VnfsClient.builder().host("127.0.0.1").port(own.port())
                    .timeout(Duration.ofSeconds(3)).connect();
            RemoteFiles files = RemoteFiles.of(client);
            byte[] chunk = randomBytes(files.writeSize(), 1);
            RemoteFileWriter out = files.create("f", 0644, null);
            out.write(chunk);
            signal(own, "STOP"); // WRITEs now wait for replies until the client's timeout
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                    Throwable writing = catchThrowable(() -> {
                        for (int i = 0; i < 64; i++) {
                            out.write(chunk);
                        }
                    });
                    Throwable closing = catchThrowable(out::close);
                    assertThat(writing).as("the WRITEs timed out").isInstanceOf(IOException.class);
                    assertThat(closing).as("close reports the lost WRITEs").isInstanceOf(IOException.class);
                });
            } finally {
                signal(own, "CONT");
            }
            client.close();
        }
    }

    private static void signal(ServerProcess process, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor())
                .isZero();
    }

    /** COMPOUNDs the server answered NFS4_OK so far, from its metrics endpoint. */
    private long compounds() throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.metricsPort()
                        + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        for (String line : r.body().split("\n")) {
            if (line.startsWith("tcnfs_compounds_total{status=\"NFS4_OK\"}")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
