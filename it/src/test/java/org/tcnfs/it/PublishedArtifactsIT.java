package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The artifacts as their users get them: a program that embeds the server or uses the client library (the
 * Maven runtime class path of tcnfs-server, tcnfs-client and tcnfs-cli, written by the dependency plugin before
 * these tests) gets no logging backend; the fat jars carry theirs; the CLI's fat jar holds no server code and
 * runs; the libraries have sources and javadoc jars.
 */
class PublishedArtifactsIT {

    private static final List<String> LOGGING_BACKENDS = List.of(
            "ch/qos/logback/", "org/slf4j/nop/", "org/slf4j/simple/", "org/apache/logging/log4j/core/");

    private static Path repo() {
        return Paths.get(System.getProperty("tcnfs.repo.root", "..")).toAbsolutePath().normalize();
    }

    /** A module's build output: {@code <module>/target[suffix]/<name>}. */
    private static Path built(String module, String name) {
        return repo().resolve(module).resolve(System.getProperty("tcnfs.build.dir", "target")).resolve(name);
    }

    private static String version() {
        return System.getProperty("tcnfs.version", "0.1.0-SNAPSHOT");
    }

    /** The entry names of a jar, or the relative file names of a classes directory. */
    private static TreeSet<String> names(Path entry) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                files.filter(Files::isRegularFile)
                        .forEach(f -> out.add(entry.relativize(f).toString().replace(File.separatorChar, '/')));
            }
        } else {
            try (JarFile jar = new JarFile(entry.toFile())) {
                jar.stream().forEach(e -> out.add(e.getName()));
            }
        }
        return out;
    }

    private static List<Path> runtimeClasspath() throws IOException {
        Path file = Paths.get(System.getProperty("tcnfs.it.runtimeClasspath", "target/it-runtime-classpath.txt"));
        List<Path> entries = new ArrayList<>();
        for (String e : Files.readString(file, StandardCharsets.UTF_8).strip().split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(Paths.get(e));
            }
        }
        return entries;
    }

    @Test
    void embeddingTheServerOrTheClientBringsNoLoggingBackendOrConfiguration() throws IOException {
        List<Path> entries = runtimeClasspath();
        Map<String, String> backends = new TreeMap<>();
        List<String> configurations = new ArrayList<>();
        boolean slf4jApi = false;
        for (Path entry : entries) {
            for (String name : names(entry)) {
                LOGGING_BACKENDS.stream().filter(name::startsWith).findFirst()
                        .ifPresent(b -> backends.putIfAbsent(entry.getFileName().toString(), b));
                if (name.equals("logback.xml") || name.equals("logback-test.xml") || name.equals("log4j2.xml")) {
                    configurations.add(entry + "!/" + name);
                }
                slf4jApi |= name.equals("org/slf4j/LoggerFactory.class");
            }
        }

        assertThat(entries.stream().map(Path::toString))
                .as("the runtime class path holds the server and the client")
                .anyMatch(e -> e.contains("tcnfs-server")).anyMatch(e -> e.contains("tcnfs-client"));
        assertThat(backends).as("class path entries with a logging backend").isEmpty();
        assertThat(configurations).as("logging configurations on the class path").isEmpty();
        assertThat(slf4jApi).as("slf4j-api is there").isTrue();
    }

    @Test
    void serverFatJarCarriesLogbackAndItsConfiguration() throws IOException {
        TreeSet<String> fat = names(built("server", "tcnfs-server.jar"));
        TreeSet<String> plain = names(built("server", "tcnfs-server-" + version() + ".jar"));

        assertThat(fat).contains("ch/qos/logback/classic/Logger.class", "logback.xml",
                "org/tcnfs/server/Main.class");
        assertThat(plain).contains("org/tcnfs/server/Main.class").doesNotContain("logback.xml");
    }

    @Test
    void cliFatJarHoldsTheCommandLineAndNoServerCode() throws Exception {
        Path jar = built("cli", "tcnfs-cli.jar");
        TreeSet<String> names = names(jar);

        assertThat(names).contains("org/tcnfs/client/cli/TcnfsCli.class", "picocli/CommandLine.class",
                "org/tcnfs/client/vector/VnfsClient.class", "org/tcnfs/nfs4/xdr/COMPOUND4args.class");
        TreeSet<String> foreign = names.stream().filter(n -> n.endsWith(".class"))
                .map(n -> n.substring(0, n.lastIndexOf('/') + 1))
                .filter(p -> p.startsWith("org/tcnfs/") && !p.startsWith("org/tcnfs/client/")
                        && !p.startsWith("org/tcnfs/nfs4/xdr/") && !p.startsWith("org/tcnfs/nfs4/status/")
                        || p.startsWith("ch/qos/logback/"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(foreign).as("server or logback packages in the CLI's fat jar").isEmpty();

        Process version = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "--version").start();
        String out = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(version.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(version.exitValue()).as(err).isZero();
        assertThat(out).contains(version());
        assertThat(err).as("nothing on standard error (no SLF4J provider warning)").isEmpty();
    }

    @Test
    void librariesComeWithSourcesAndJavadocJars() throws IOException {
        Map<String, String> samples = Map.of(
                "nfs4-xdr", "org/tcnfs/nfs4/xdr/COMPOUND4args",
                "client", "org/tcnfs/client/vector/VnfsClient",
                "server", "org/tcnfs/server/TcnfsServer");
        for (Map.Entry<String, String> m : samples.entrySet()) {
            String artifact = "tcnfs-" + m.getKey() + "-" + version();
            assertThat(names(built(m.getKey(), artifact + "-sources.jar"))).as(m.getKey() + " sources")
                    .contains(m.getValue() + ".java");
            assertThat(names(built(m.getKey(), artifact + "-javadoc.jar"))).as(m.getKey() + " javadoc")
                    .contains("index.html", m.getValue() + ".html");
        }
    }
}
