package org.tcnfs.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's examples run as written against the real server (issue 17): every {@code tcnfs} line of its
 * {@code sh} blocks, in order, through {@code scripts/tcnfs} and the real fat jar (the server's address gets
 * the test server's port), with the {@code adduser.manifest} block as the manifest of {@code apply}; the server
 * and curl lines; and the Linux mount line where the kernel has an NFS client. The {@code java} blocks run in
 * {@link ReadmeJavaExamplesIT}.
 */
class ReadmeExamplesIT extends SharedServerTest {

    @TempDir
    Path tmp;

    private static String readme() throws IOException {
        return Files.readString(Paths.get(System.getProperty("tcnfs.repo.root", "..")).resolve("README.md"), UTF_8);
    }

    /** A fenced block of the README: its language ("" for none) and its text. */
    record Block(String language, String text) {
    }

    static List<Block> blocks(String readme) {
        List<Block> blocks = new ArrayList<>();
        String language = null;
        StringBuilder text = new StringBuilder();
        for (String line : readme.lines().toList()) {
            if (line.startsWith("```")) {
                if (language == null) {
                    language = line.substring(3).strip();
                    text.setLength(0);
                } else {
                    blocks.add(new Block(language, text.toString()));
                    language = null;
                }
            } else if (language != null) {
                text.append(line).append('\n');
            }
        }
        return blocks;
    }

    /** Every line of the README's {@code sh} blocks that runs the {@code tcnfs} command, in order. */
    static List<String> cliExamples(String readme) {
        List<String> lines = new ArrayList<>();
        for (Block b : blocks(readme)) {
            if (b.language().equals("sh")) {
                b.text().lines().filter(l -> l.startsWith("tcnfs ")).forEach(lines::add);
            }
        }
        return lines;
    }

    /** The README's manifest block (the one starting {@code # adduser.manifest}). */
    static String manifest(String readme) {
        return blocks(readme).stream().filter(b -> b.text().startsWith("# adduser.manifest")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md has no adduser.manifest block")).text();
    }

    private byte[] smallTarGz() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            for (String name : List.of("linux/Makefile", "linux/kernel/fork.c", "linux/mm/slab.c")) {
                byte[] data = ("/* " + name + " */\n").getBytes(UTF_8);
                TarArchiveEntry e = new TarArchiveEntry(name);
                e.setSize(data.length);
                e.setMode(0644);
                t.putArchiveEntry(e);
                t.write(data);
                t.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void everyTcnfsCommandOfTheReadmeRunsAsWritten() throws Exception {
        String readme = readme();
        List<String> examples = cliExamples(readme);
        assertThat(examples).as("the README's tcnfs lines").hasSizeGreaterThanOrEqualTo(10)
                .anyMatch(l -> l.startsWith("tcnfs apply adduser.manifest"));
        Path export = server.exportDir();
        // given: what the examples' remote side expects to find
        Files.createDirectories(export.resolve("etc"));
        Files.createDirectories(export.resolve("home"));
        Files.writeString(export.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Files.writeString(export.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(export.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        // ... and their local side
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(work.resolve("a.c"), "int a;\n");
        Files.writeString(work.resolve("b.c"), "int b;\n");
        byte[] disk = TestData.randomBytes(3 * 1024 * 1024 + 17, 28); // larger than one WRITE: it streams
        Files.write(work.resolve("disk.img"), disk);
        Files.setPosixFilePermissions(work.resolve("disk.img"), PosixFilePermissions.fromString("rw-r-----"));
        FileTime diskTime = FileTime.from(Instant.parse("2024-02-03T04:05:06Z"));
        Files.setLastModifiedTime(work.resolve("disk.img"), diskTime);
        Files.createDirectories(work.resolve("project/src"));
        Files.writeString(work.resolve("project/README"), "a project\n");
        Files.writeString(work.resolve("project/src/main.c"), "int main(void) { return 0; }\n");
        Files.write(work.resolve("linux.tar.gz"), smallTarGz());
        Files.writeString(work.resolve("adduser.manifest"), manifest(readme));
        Files.writeString(work.resolve("passwd.add"), "alice:x:1001:1001::/home/alice:/bin/sh\n");
        Files.writeString(work.resolve("group.add"), "alice:x:1001:\n");
        Files.writeString(work.resolve("shadow.add"), "alice:!:19000:0:99999:7:::\n");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path script = Paths.get(System.getProperty("tcnfs.repo.root", "..")).resolve("scripts/tcnfs")
                .toAbsolutePath().normalize();
        Files.createSymbolicLink(bin.resolve("tcnfs"), script);

        for (String example : examples) {
            String line = example.replace("nfs://127.0.0.1/", "nfs://127.0.0.1:" + server.port() + "/");
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", line).directory(work.toFile()).redirectErrorStream(true);
            pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            pb.environment().put("TCNFS_CLIENT_JAR", CliRunner.clientJar().toString());
            pb.environment().put("JAVA", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(example).isTrue();
            assertThat(p.exitValue()).as("README example `%s`:\n%s", example, output).isZero();
        }

        assertThat(Files.readString(export.resolve("src/lib/a.c"))).isEqualTo("int a;\n");
        assertThat(Files.readString(export.resolve("src/b.c"))).isEqualTo("int b;\n");
        assertThat(Files.readAllBytes(export.resolve("src/disk.img"))).isEqualTo(disk);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(export.resolve("src/disk.img"))))
                .isEqualTo("rw-r-----");
        assertThat(Files.getLastModifiedTime(export.resolve("src/disk.img"))).isEqualTo(diskTime);
        assertThat(Files.readString(export.resolve("backup/src/main.c"))).contains("int main");
        assertThat(export.resolve("linux")).doesNotExist();
        assertThat(Files.readString(export.resolve("etc/passwd"))).endsWith("alice:x:1001:1001::/home/alice:/bin/sh\n");
        assertThat(Files.readString(export.resolve("etc/group"))).endsWith("alice:x:1001:\n");
        assertThat(Files.readString(export.resolve("etc/shadow"))).endsWith("alice:!:19000:0:99999:7:::\n");
        assertThat(Files.readString(export.resolve("home/alice/.profile"))).isEqualTo("export PS1='$ '\n");
    }

    /**
     * README, "Running the server", "Exports" and "Metrics, health and status": each {@code java -jar} line
     * starts the server (directories moved under a temporary one, port 0 instead of 2049, the exports block as
     * the exports file; the harness adds port files and --grace 0) or prints the help, and each {@code curl}
     * line answers while it serves; SIGTERM stops it cleanly.
     */
    @Test
    void theServerCommandsOfTheReadmeServeAndStop() throws Exception {
        String readme = readme();
        List<String> serverLines = new ArrayList<>();
        List<String> curlLines = new ArrayList<>();
        for (Block b : blocks(readme)) {
            if (b.language().equals("sh")) {
                b.text().lines().filter(l -> l.startsWith("java -jar server/target/tcnfs-server.jar"))
                        .forEach(serverLines::add);
                b.text().lines().filter(l -> l.startsWith("curl http://127.0.0.1:9049/")).forEach(curlLines::add);
            }
        }
        assertThat(serverLines).hasSize(3);
        assertThat(curlLines).hasSizeGreaterThanOrEqualTo(3);
        String exportsBlock = blocks(readme).stream().filter(b -> b.text().startsWith("# path")).findFirst()
                .orElseThrow().text();
        Path root = tmp.toAbsolutePath();
        Files.createDirectories(root.resolve("srv/projects"));
        Files.createDirectories(root.resolve("srv/public"));
        Files.createDirectories(root.resolve("etc/tcnfs"));
        Files.writeString(root.resolve("etc/tcnfs/exports"), exportsBlock.replace("/srv/", root + "/srv/"));

        int n = 0;
        for (String example : serverLines) {
            n++;
            String line = example.replaceFirst("^java ", Paths.get(System.getProperty("java.home"), "bin", "java") + " ")
                    .replace("server/target/tcnfs-server.jar", ServerProcess.serverJar().toString())
                    .replace("/srv/", root + "/srv/").replace("/var/lib/tcnfs", root + "/state-" + n)
                    .replace("/etc/tcnfs/exports", root + "/etc/tcnfs/exports").replace("--port 2049", "--port 0");
            if (line.endsWith("--help")) {
                Process help = new ProcessBuilder("bash", "-c", line).redirectErrorStream(true).start();
                String output = new String(help.getInputStream().readAllBytes(), UTF_8);
                assertThat(help.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(help.exitValue()).as(output).isZero();
                assertThat(output).contains("--port", "--exports", "--data");
                continue;
            }
            Path portFile = root.resolve("port-" + n);
            Path metricsFile = root.resolve("metrics-port-" + n);
            String harness = " --port-file " + portFile + " --metrics-port 0 --metrics-port-file " + metricsFile
                    + " --grace 0";
            Process p = new ProcessBuilder("bash", "-c", "exec " + line + harness).directory(root.toFile())
                    .redirectErrorStream(true).redirectOutput(root.resolve("server-" + n + ".log").toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!(Files.isRegularFile(portFile) && !Files.readString(portFile).isBlank())) {
                    assertThat(p.isAlive()).as("README `%s`:\n%s", example,
                            Files.readString(root.resolve("server-" + n + ".log"))).isTrue();
                    assertThat(System.nanoTime()).as("serving within 60 s").isLessThan(deadline);
                    Thread.sleep(100);
                }
                String metricsPort = Files.readString(metricsFile).strip();
                for (String curl : curlLines) {
                    Process c = new ProcessBuilder("bash", "-c", "curl -sf" + curl.substring("curl".length())
                            .replace(":9049/", ":" + metricsPort + "/")).redirectErrorStream(true).start();
                    String answer = new String(c.getInputStream().readAllBytes(), UTF_8);
                    assertThat(c.waitFor(30, TimeUnit.SECONDS)).isTrue();
                    assertThat(c.exitValue()).as("README `%s`: %s", curl, answer).isZero();
                    assertThat(answer).isNotBlank();
                }
            } finally {
                p.destroy();
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(p.exitValue()).as("a clean stop after SIGTERM").isIn(0, 143);
        }
    }

    /** Whether this process holds CAP_SYS_ADMIN (bit 21 of CapEff), which mount needs. */
    private static boolean mayMount() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("CapEff:"))
                .map(l -> Long.parseUnsignedLong(l.substring("CapEff:".length()).strip(), 16))
                .anyMatch(caps -> (caps & (1L << 21)) != 0);
    }

    /** README, first screen, "Mount it from Linux", where this machine's kernel has an NFSv4 client. */
    @Test
    void theMountLineMountsTheServer() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/sbin/mount.nfs4"))
                && Files.readString(Path.of("/proc/filesystems")).contains("nfs4") && mayMount(),
                "needs root with CAP_SYS_ADMIN, mount.nfs4 and an NFSv4 client in the kernel");
        String line = readme().lines().filter(l -> l.startsWith("mount -t nfs4 ")).findFirst().orElseThrow();
        Path mnt = Files.createDirectories(tmp.resolve("mnt"));
        Files.writeString(server.exportDir().resolve("mounted"), "seen through the kernel\n");
        String command = line.replace("port=2049", "port=" + server.port()).replace(" /mnt", " " + mnt);
        Process mount = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes(), UTF_8);
        assertThat(mount.waitFor(60, TimeUnit.SECONDS)).isTrue();
        try {
            assertThat(mount.exitValue()).as(output).isZero();
            assertThat(Files.readString(mnt.resolve("mounted"))).isEqualTo("seen through the kernel\n");
        } finally {
            new ProcessBuilder("umount", mnt.toString()).start().waitFor(60, TimeUnit.SECONDS);
        }
    }
}
