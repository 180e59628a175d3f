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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.server.config.Setting;

/**
 * The files of {@code docker/} (README, "Running in Docker"): the compose file passes {@code docker compose
 * config} (the compose plugin when there is one, else Debian's docker-compose), the Dockerfile passes
 * hadolint, the image's health check script tells a serving server from a stopped one, and the image
 * exposes the ports the settings default to.
 *
 * <p>No Docker engine is needed. A missing validator skips its test with the reason, except under CI
 * ({@code CI=true}), where {@code scripts/install-test-deps.sh} has installed it and a missing one fails.
 */
class DockerFilesIT {
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    Path tmp;

    private static Path repo() {
        return Paths.get(System.getProperty("tcnfs.repo.root", "..")).toAbsolutePath().normalize();
    }

    private static Path compose() {
        return repo().resolve("docker/docker-compose.yml");
    }

    private record Result(int status, String output) {
    }

    private static Result run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile("docker-files-it-", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(repo().toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Whether {@code command} runs and exits 0 (a probe for a tool). */
    private static boolean works(String... command) {
        try {
            return run(List.of(command), Map.of()).status() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Skips the test for a missing tool, unless under CI, where it fails. */
    private static void requireTool(boolean present, String what) {
        String message = what + " is not installed (scripts/install-test-deps.sh installs it)";
        if ("true".equals(System.getenv("CI"))) {
            assertThat(present).as(message).isTrue();
        }
        assumeTrue(present, message);
    }

    /** {@code docker compose} (v2) where the plugin exists, else {@code docker-compose}; empty if neither. */
    private static List<String> composeCommand() {
        if (works("docker", "compose", "version")) {
            return List.of("docker", "compose");
        }
        if (works("docker-compose", "version")) {
            return List.of("docker-compose");
        }
        return List.of();
    }

    private static Result composeConfig(Path file) throws IOException, InterruptedException {
        List<String> command = composeCommand();
        requireTool(!command.isEmpty(), "docker compose (or docker-compose)");
        List<String> full = new ArrayList<>(command);
        full.addAll(List.of("-f", file.toString(), "config"));
        return run(full, Map.of());
    }

    @Test
    void composeFileIsValid() throws Exception {
        Result r = composeConfig(compose());

        assertThat(r.status()).as("docker compose config:\n%s", r.output()).isZero();
        assertThat(r.output()).contains("/srv/tcnfs/export", "/var/lib/tcnfs", "tcnfs-healthcheck");
        // NFS is published on the host's loopback only (issue 14: safe by default): the compose plugin prints
        // the long form, Debian's docker-compose 1.x the short one.
        assertThat(r.output()).as("NFS published on 127.0.0.1 only")
                .containsPattern("host_ip: 127\\.0\\.0\\.1\\s+target: 2049\\s+published: ['\"]?2049"
                        + "|- ['\"]?127\\.0\\.0\\.1:2049:2049");
    }

    @Test
    void composeValidationRefusesAMistypedKey() throws Exception {
        Path broken = tmp.resolve("docker-compose.yml");
        Files.writeString(broken, Files.readString(compose()).replace("    restart: unless-stopped",
                "    restart: unless-stopped\n    restrat: always"));

        Result r = composeConfig(broken);

        assertThat(r.status()).as("docker compose config of a file with 'restrat':\n%s", r.output()).isNotZero();
        assertThat(r.output()).contains("restrat");
    }

    @Test
    void dockerfilePassesHadolint() throws Exception {
        requireTool(works("hadolint", "--version"), "hadolint");

        Result r = run(List.of("hadolint", "docker/Dockerfile"), Map.of());

        assertThat(r.status()).as("hadolint docker/Dockerfile:\n%s", r.output()).isZero();
    }

    @Test
    void imageExposesTheDefaultPortsAndConfiguresThroughTheEnvironment() throws IOException {
        String dockerfile = Files.readString(repo().resolve("docker/Dockerfile"));

        assertThat(dockerfile)
                .contains("EXPOSE " + Setting.PORT.defaultValue() + "/tcp " + Setting.METRICS_PORT.defaultValue()
                        + "/tcp")
                .contains("TCNFS_METRICS_PORT=" + Setting.METRICS_PORT.defaultValue())
                .contains("TCNFS_BIND=0.0.0.0")
                .contains("HEALTHCHECK")
                .contains("FROM maven:3.9-eclipse-temurin-17 AS build")
                .contains("FROM eclipse-temurin:17-jre");
    }

    @Test
    void healthCheckScriptTellsAServingServerFromAStoppedOne() throws Exception {
        String script = repo().resolve("docker/healthcheck.sh").toString();
        try (ServerProcess server = ServerProcess.start()) {
            Map<String, String> env = Map.of("TCNFS_BIND", "0.0.0.0",
                    "TCNFS_METRICS_PORT", Integer.toString(server.metricsPort()));
            Map<String, String> metricsOff = Map.of("TCNFS_METRICS_PORT", "off",
                    "TCNFS_PORT", Integer.toString(server.port()));

            Result serving = run(List.of("bash", script), env);
            Result nfsUp = run(List.of("bash", script), metricsOff);
            server.stop();
            Result stopped = run(List.of("bash", script), env);
            Result nfsDown = run(List.of("bash", script), metricsOff);

            assertThat(serving.status()).as(serving.output()).isZero();
            assertThat(nfsUp.status()).as(nfsUp.output()).isZero();
            assertThat(stopped.status()).isEqualTo(1);
            assertThat(stopped.output()).contains("/health");
            assertThat(nfsDown.status()).isEqualTo(1);
        }
    }
}
