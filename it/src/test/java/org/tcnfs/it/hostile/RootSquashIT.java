package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETATTR;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.specdata4;

/**
 * Issue 14, item 8: the default export squashes root, as knfsd does, so a client's root can neither create
 * device nodes nor make files set-uid root; {@code no_root_squash} only when asked for ({@code data-options});
 * and a server reachable beyond loopback warns at start about {@code no_root_squash} exports and its HTTP
 * endpoints.
 */
class RootSquashIT {
    private static final boolean TESTS_RUN_AS_ROOT = "root".equals(System.getProperty("user.name"));

    /** A world-writable directory and a root-owned executable, made locally in the export. */
    private record Prepared(Path open, Path tool) {
    }

    private static Prepared prepare(ServerProcess server) throws IOException {
        Path open = server.exportDir().resolve("open");
        Files.createDirectory(open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path tool = server.exportDir().resolve("tool");
        Files.writeString(tool, "#!/bin/sh\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new Prepared(open, tool);
    }

    private static CompoundBuilder lookup(String... names) {
        CompoundBuilder b = new CompoundBuilder().putrootfh();
        for (String name : names) {
            b.lookup(name);
        }
        return b;
    }

    private static CompoundBuilder createCharDevice(String dir, String name) {
        createtype4 type = new createtype4(nfs_ftype4.NF4CHR);
        type.devdata = new specdata4(1, 3);
        return lookup(dir).create(new CREATE4args(type, name, Attrs.builder().mode(0666).build()));
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode") & 07777;
    }

    @Test
    void rootOfAClientIsSquashedOnTheDefaultExport() throws Exception {
        try (ServerProcess server = ServerProcess.startWithDefaultExportOptions()) {
            Prepared local = prepare(server);
            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "remote-root")) {
                NfsStatus device = session.execute(createCharDevice("open", "null-copy")).statusOf(OP_CREATE);
                assertThat(device).as("CREATE of a character device by a client's root").isEqualTo(NfsStatus.PERM);
                assertThat(local.open().resolve("null-copy")).doesNotExist();

                NfsStatus setuid = session.execute(lookup("tool").setattr(Attrs.builder().mode(04755).build()))
                        .statusOf(OP_SETATTR);
                assertThat(setuid).as("SETATTR mode 04755 of a root-owned file by a client's root")
                        .isEqualTo(NfsStatus.PERM);
                assertThat(mode(local.tool())).isEqualTo(0755);

                byte[] dir = session.execute(lookup("open").mkdir("made-by-remote-root").getfh()).orThrow()
                        .fileHandle();
                assertThat(dir).isNotEmpty();
                if (TESTS_RUN_AS_ROOT) {
                    assertThat(Files.getAttribute(local.open().resolve("made-by-remote-root"), "unix:uid"))
                            .as("owner of what a client's root creates").isEqualTo(65534);
                }
            }
            assertThat(server.outputOfLastStart()).doesNotContain("WARN");
        }
    }

    @Test
    void noRootSquashOnlyWhenAskedFor() throws Exception {
        try (ServerProcess server = ServerProcess.startWithDefaultExportOptions("--data-options",
                "rw,no_root_squash")) {
            Prepared local = prepare(server);
            try (NfsConnection connection = server.connect();
                    Nfs41Session session = Nfs41Session.create(connection, "trusted-root")) {
                NfsStatus setuid = session.execute(lookup("tool").setattr(Attrs.builder().mode(04755).build()))
                        .statusOf(OP_SETATTR);
                assertThat(setuid).isEqualTo(NfsStatus.OK);
                assertThat(mode(local.tool())).isEqualTo(04755);
                if (TESTS_RUN_AS_ROOT) {
                    assertThat(session.execute(createCharDevice("open", "null-copy")).statusOf(OP_CREATE))
                            .isEqualTo(NfsStatus.OK);
                }
            }
            assertThat(server.outputOfLastStart()).as("no warning on loopback").doesNotContain("WARN");
        }
    }

    /** Starts the server jar on {@code 0.0.0.0} with {@code args}, waits until it serves, stops it; its output. */
    private static String startBeyondLoopback(Path base, String... args) throws Exception {
        Path portFile = base.resolve("port");
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                ServerProcess.serverJar().toString(), "--bind", "0.0.0.0", "--port", "0", "--port-file",
                portFile.toString(), "--data", base.resolve("data").toString(), "--state",
                base.resolve("state").toString(), "--grace", "0"));
        command.addAll(List.of(args));
        Path log = base.resolve("server.log");
        Process p = new ProcessBuilder(command).directory(base.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && p.isAlive()) {
                try {
                    if (!Files.readString(portFile, StandardCharsets.US_ASCII).isBlank()) {
                        break;
                    }
                } catch (NoSuchFileException e) {
                    // not yet
                }
                Thread.sleep(50);
            }
            assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
        } finally {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Test
    void aServerBeyondLoopbackWarnsOfNoRootSquashAndOfItsHttpEndpoints() throws Exception {
        Path work = ServerProcess.defaultWorkDirectory();
        Files.createDirectories(work);
        Path unsafe = Files.createTempDirectory(work, "beyond-loopback-");
        String out = startBeyondLoopback(unsafe, "--data-options", "rw,no_root_squash", "--metrics-port", "0");

        List<String> warnings = out.lines().filter(l -> l.contains(" WARN ")).toList();
        assertThat(warnings).as(out).hasSize(2);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("export /").contains("no_root_squash")
                .contains("0.0.0.0:"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("HTTP endpoints").contains("0.0.0.0:"));

        Path safe = Files.createTempDirectory(work, "beyond-loopback-");
        String quiet = startBeyondLoopback(safe, "--metrics-port", "off");
        assertThat(quiet).as(quiet).doesNotContain(" WARN ").contains("serving");
    }
}
