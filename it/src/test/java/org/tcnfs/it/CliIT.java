package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.CliRunner.ok;
import static org.tcnfs.it.CliRunner.tcnfs;
import static org.tcnfs.it.TestData.randomBytes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.it.CliRunner.Run;

/**
 * The {@code tcnfs} command line (issue 5) end to end against the real server: put, get, ls, stat, mkdir, rm,
 * mv, cp in all three directions, untar (plain and --atomic, including an atomic extraction that fails and
 * leaves nothing), apply (the passwd/group/shadow manifest), the exit statuses, and the fat jar through
 * scripts/tcnfs.
 */
class CliIT extends PerTestDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void putGetLsStatMkdirMvRmEndToEnd() throws IOException {
        Path a = Files.write(tmp.resolve("a.txt"), "alpha\n".getBytes(StandardCharsets.UTF_8));
        Path b = Files.write(tmp.resolve("b.bin"), randomBytes(300_000, 1));

        ok("mkdir", "-p", url + "/x/y", url + "/z");
        ok("put", a.toString(), b.toString(), url + "/x/");
        ok("put", "--txn", "-m", "600", a.toString(), url + "/z/renamed.txt");
        assertThat(Files.readString(remote.resolve("x/a.txt"))).isEqualTo("alpha\n");
        assertThat(Files.readAllBytes(remote.resolve("x/b.bin"))).isEqualTo(randomBytes(300_000, 1));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("z/renamed.txt"))))
                .isEqualTo("rw-------");

        assertThat(ok("ls", url + "/x").out()).isEqualTo("a.txt\nb.bin\ny\n");
        assertThat(ok("ls", "-R", url).out().lines().toList()).contains("x", "x/a.txt", "x/y", "z/renamed.txt");
        assertThat(ok("ls", "-l", url + "/x").out()).containsPattern("-rw-r--r-- +1 .* 300000 .* b.bin");
        assertThat(ok("stat", url + "/x/b.bin").out()).contains("type: regular", "size: 300000");

        Path got = tmp.resolve("got");
        Files.createDirectories(got);
        ok("get", url + "/x/a.txt", url + "/x/b.bin", got.toString());
        assertThat(Files.readAllBytes(got.resolve("b.bin"))).isEqualTo(randomBytes(300_000, 1));
        assertThat(ok("get", url + "/x/a.txt", "-").out()).isEqualTo("alpha\n");

        ok("mv", url + "/x/a.txt", url + "/z/");
        assertThat(remote.resolve("z/a.txt")).exists();
        ok("mv", "--txn", url + "/z/a.txt", url + "/z/a2.txt");
        assertThat(remote.resolve("z/a2.txt")).exists();

        Run rmDir = tcnfs("rm", url + "/x");
        assertThat(rmDir.status()).isEqualTo(1);
        assertThat(rmDir.err()).contains("is a directory");
        ok("rm", "-r", url + "/x");
        ok("rm", "--txn", url + "/z/a2.txt", url + "/z/renamed.txt");
        assertThat(remote.resolve("x")).doesNotExist();
        try (var s = Files.list(remote.resolve("z"))) {
            assertThat(s.count()).isZero();
        }
        Run missing = tcnfs("rm", url + "/nothing");
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.err()).contains("NFS4ERR_NOENT");
        ok("rm", "-f", url + "/nothing");
    }

    @Test
    void cpCopiesTreesInEveryDirection() throws IOException {
        Path src = tmp.resolve("tree");
        Files.createDirectories(src.resolve("d1/d2"));
        Files.write(src.resolve("top"), randomBytes(10, 1));
        Files.write(src.resolve("d1/mid"), randomBytes(2000, 2));
        Files.write(src.resolve("d1/d2/deep"), randomBytes(70_000, 3));
        Files.createSymbolicLink(src.resolve("d1/link"), Paths.get("mid"));

        ok("cp", "-R", src.toString(), url + "/");
        assertThat(VectorClientIT.snapshot(remote.resolve("tree"))).isEqualTo(VectorClientIT.snapshot(src));
        ok("cp", "-R", "--txn", src.toString(), url + "/tree-txn");
        assertThat(VectorClientIT.snapshot(remote.resolve("tree-txn"))).isEqualTo(VectorClientIT.snapshot(src));

        Path back = tmp.resolve("back");
        ok("cp", "-R", url + "/tree", back.toString());
        assertThat(VectorClientIT.snapshot(back)).isEqualTo(VectorClientIT.snapshot(src));

        ok("cp", "-R", url + "/tree", url + "/copy");
        Map<String, String> copy = VectorClientIT.snapshot(remote.resolve("copy"));
        assertThat(copy).containsKeys("top", "d1/mid", "d1/d2/deep");
        assertThat(copy.get("d1/d2/deep")).isEqualTo(VectorClientIT.snapshot(src).get("d1/d2/deep"));
        ok("cp", url + "/tree/top", url + "/top-copy");
        assertThat(Files.readAllBytes(remote.resolve("top-copy"))).isEqualTo(randomBytes(10, 1));
        Path one = tmp.resolve("one");
        ok("cp", url + "/tree/d1/mid", one.toString());
        assertThat(Files.readAllBytes(one)).isEqualTo(randomBytes(2000, 2));
    }

    private Path tarGz(String name, List<String> dirs, Map<String, byte[]> files) throws IOException {
        Path archive = tmp.resolve(name);
        try (OutputStream out = Files.newOutputStream(archive);
                GzipCompressorOutputStream gz = new GzipCompressorOutputStream(out);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (String d : dirs) {
                TarArchiveEntry e = new TarArchiveEntry(d + "/");
                e.setMode(0755);
                tar.putArchiveEntry(e);
                tar.closeArchiveEntry();
            }
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                TarArchiveEntry e = new TarArchiveEntry(f.getKey());
                e.setSize(f.getValue().length);
                e.setMode(0640);
                tar.putArchiveEntry(e);
                tar.write(f.getValue());
                tar.closeArchiveEntry();
            }
            TarArchiveEntry link = new TarArchiveEntry("src/latest", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("main.c");
            tar.putArchiveEntry(link);
            tar.closeArchiveEntry();
        }
        return archive;
    }

    @Test
    void untarAtomicExtractsAllOrNothing() throws IOException {
        Map<String, byte[]> files = new java.util.TreeMap<>();
        for (int i = 0; i < 200; i++) {
            files.put("src/pkg" + (i % 7) + "/file" + i + ".c", randomBytes(100 + i * 10, i));
        }
        files.put("src/main.c", "int main() { return 0; }\n".getBytes(StandardCharsets.UTF_8));
        files.put("README", "read me\n".getBytes(StandardCharsets.UTF_8));
        Path archive = tarGz("src.tar.gz", List.of("src", "src/empty"), files);

        ok("untar", "--atomic", archive.toString(), url + "/atomic");
        ok("untar", archive.toString(), url + "/plain");
        for (String root : List.of("atomic", "plain")) {
            Path r = remote.resolve(root);
            assertThat(Files.readAllBytes(r.resolve("src/pkg3/file10.c"))).isEqualTo(files.get("src/pkg3/file10.c"));
            assertThat(r.resolve("src/empty")).isDirectory();
            assertThat(Files.readSymbolicLink(r.resolve("src/latest")).toString()).isEqualTo("main.c");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(r.resolve("README"))))
                    .isEqualTo("rw-r-----");
            try (var s = Files.walk(r)) {
                assertThat(s.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)).count())
                        .isEqualTo(files.size());
            }
        }

        // the same archive where one file's name is taken by a directory: the extraction fails at that file
        Path conflicted = remote.resolve("conflict");
        Files.createDirectories(conflicted.resolve("src/pkg5/file5.c"));
        Map<String, String> before = VectorClientIT.snapshot(conflicted);
        Run failed = tcnfs("untar", "--atomic", archive.toString(), url + "/conflict");

        assertThat(failed.status()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err()).contains("transaction rolled back, nothing changed");
        assertThat(VectorClientIT.snapshot(conflicted)).as("nothing extracted").isEqualTo(before);
    }

    @Test
    void applyAddsAUserToPasswdGroupAndShadowAtomically() throws IOException {
        Files.createDirectories(remote.resolve("etc"));
        Files.writeString(remote.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Files.writeString(remote.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(remote.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        Files.writeString(tmp.resolve("passwd.add"), "alice:x:1001:1001:Alice:/home/alice:/bin/sh\n");
        Files.writeString(tmp.resolve("group.add"), "alice:x:1001:\n");
        Files.writeString(tmp.resolve("shadow.add"), "alice:!:19000:0:99999:7:::\n");
        Path manifest = Files.writeString(tmp.resolve("adduser.manifest"), String.join("\n",
                "# add the user alice: all three files or none",
                "append etc/passwd passwd.add",
                "append etc/group group.add",
                "append etc/shadow shadow.add",
                "mkdir home 755",
                "mkdir home/alice 700",
                "text home/alice/.profile export%20PS1='$ '",
                ""));
        Path broken = Files.writeString(tmp.resolve("broken.manifest"), String.join("\n",
                "append etc/passwd passwd.add",
                "append etc/group group.add",
                "rename etc/gshadow etc/gshadow-",
                "append etc/shadow shadow.add",
                ""));
        Map<String, String> before = VectorClientIT.snapshot(remote);

        Run failed = tcnfs("apply", broken.toString(), url);
        assertThat(failed.status()).isEqualTo(1);
        assertThat(failed.err()).contains("NFS4ERR_NOENT", "nothing changed");
        assertThat(VectorClientIT.snapshot(remote)).isEqualTo(before);

        ok("apply", manifest.toString(), url);
        assertThat(Files.readString(remote.resolve("etc/passwd"))).endsWith("alice:x:1001:1001:Alice:/home/alice:/bin/sh\n");
        assertThat(Files.readString(remote.resolve("etc/group"))).isEqualTo("root:x:0:\nalice:x:1001:\n");
        assertThat(Files.readString(remote.resolve("etc/shadow"))).endsWith("alice:!:19000:0:99999:7:::\n");
        assertThat(Files.readString(remote.resolve("home/alice/.profile"))).isEqualTo("export PS1='$ '\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("home/alice"))))
                .isEqualTo("rwx------");

        Run bad = tcnfs("apply", Files.writeString(tmp.resolve("bad.manifest"), "frobnicate x\n").toString(), url);
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("line 1", "unknown change");
    }

    @Test
    void exitStatusesTellScriptsWhatWentWrong() throws IOException {
        assertThat(tcnfs("ls", "http://nope").status()).isEqualTo(2);
        assertThat(tcnfs("frobnicate").status()).isEqualTo(2);
        Run refused = tcnfs("ls", "nfs://127.0.0.1:1/");
        assertThat(refused.status()).isEqualTo(3);
        assertThat(refused.err()).startsWith("tcnfs: cannot connect");
        assertThat(tcnfs("put", tmp.resolve("no-such-file").toString(), url + "/f").status()).isEqualTo(6);

        Path exported = Files.createTempDirectory(server.exportDir().getParent(), "plain-cli-");
        Path exports = exported.resolveSibling(exported.getFileName() + ".exports");
        Files.writeString(exports, exported + " 127.0.0.1(rw,no_root_squash,txn=never)\n", StandardCharsets.UTF_8);
        Path file = Files.writeString(tmp.resolve("f"), "f");
        try (ServerProcess plain = ServerProcess.start("--exports", exports.toString())) {
            String plainUrl = "nfs://127.0.0.1:" + plain.port() + exported;
            ok("put", file.toString(), plainUrl + "/plain");
            Run txn = tcnfs("put", "--txn", file.toString(), plainUrl + "/txn");

            assertThat(txn.status()).as(txn.err()).isEqualTo(4);
            assertThat(txn.err()).contains("does not support transactional compounds");
            assertThat(exported.resolve("txn")).doesNotExist();
            assertThat(exported.resolve("plain")).exists();
        }
    }

    @Test
    void fatJarRunsThroughTheLauncherScript() throws Exception {
        Path clientJar = Paths.get(System.getProperty("tcnfs.cli.jar", "../cli/target/tcnfs-cli.jar"))
                .toAbsolutePath().normalize();
        Path script = Paths.get(System.getProperty("tcnfs.repo.root", "..")).resolve("scripts/tcnfs").normalize();
        Path file = Files.writeString(tmp.resolve("hello"), "hello\n");

        ProcessBuilder pb = new ProcessBuilder(script.toString(), "put", "--no-progress", file.toString(), url + "/hello")
                .redirectErrorStream(true);
        pb.environment().put("TCNFS_CLIENT_JAR", clientJar.toString());
        pb.environment().put("JAVA", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        Process put = pb.start();
        String output = new String(put.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(put.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(put.exitValue()).as(output).isZero();
        assertThat(Files.readString(remote.resolve("hello"))).isEqualTo("hello\n");
        ProcessBuilder ls = new ProcessBuilder(script.toString(), "ls", "-l", url).redirectErrorStream(true);
        ls.environment().putAll(pb.environment());
        Process listing = ls.start();
        String listed = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(listing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(listed).contains("hello").doesNotContain("SLF4J");
    }
}
