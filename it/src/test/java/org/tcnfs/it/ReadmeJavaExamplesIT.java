package org.tcnfs.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code java} blocks run as written (issue 17): each is wrapped in a class with a fixed set of
 * imports and a {@code main} that runs the block, compiled in-process against the test's class path and run
 * against this class's real server (port 2049 becomes the server's port; the embedding example gets temporary
 * directories and a free metrics port). A block that does not compile or throws fails its test.
 */
class ReadmeJavaExamplesIT extends SharedServerTest {

    /** The imports every block gets; a block's own {@code import} lines are added in front of its class. */
    private static final String IMPORTS = """
            import java.nio.file.*;
            import java.time.*;
            import java.util.*;
            import static java.nio.charset.StandardCharsets.UTF_8;
            import org.tcnfs.client.vector.*;
            import org.tcnfs.server.*;
            """;

    @TempDir
    Path tmp;

    private static String readme() throws IOException {
        return Files.readString(Paths.get(System.getProperty("tcnfs.repo.root", "..")).resolve("README.md"), UTF_8);
    }

    /** The README's {@code java} blocks, in order. */
    static List<String> javaBlocks(String readme) {
        return ReadmeExamplesIT.blocks(readme).stream().filter(b -> b.language().equals("java"))
                .map(ReadmeExamplesIT.Block::text).toList();
    }

    /** The one {@code java} block of the README containing {@code marker}. */
    private static String javaBlock(String marker) throws IOException {
        List<String> matching = javaBlocks(readme()).stream().filter(b -> b.contains(marker)).toList();
        assertThat(matching).as("README java blocks containing %s", marker).hasSize(1);
        return matching.get(0);
    }

    /** What a run of a block printed. */
    private record Printed(String out, String err) {
    }

    /**
     * Compiles {@code block} wrapped in a class named {@code name} into a fresh directory and runs its
     * {@code main}, returning what it printed; a compile error or an exception of the block fails the test.
     */
    private Printed compileAndRun(String name, String block) throws Exception {
        List<String> imports = block.lines().filter(l -> l.startsWith("import ")).toList();
        String body = block.lines().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n"));
        String source = String.join("\n", imports) + "\n" + IMPORTS + "\npublic class " + name + " {\n"
                + "    public static void main(String[] args) throws Exception {\n" + body + "\n    }\n}\n";
        Path src = Files.createDirectories(tmp.resolve(name + "-src"));
        Path classes = Files.createDirectories(tmp.resolve(name + "-classes"));
        Path file = src.resolve(name + ".java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK compiler").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, UTF_8)) {
            boolean compiled = javac.getTask(null, files, diagnostics,
                    List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(),
                            "-proc:none", "-Xlint:none"),
                    null, files.getJavaFileObjects(file)).call();
            assertThat(compiled).as("README java block compiles:\n%s\n%s", source, diagnostics.getDiagnostics())
                    .isTrue();
        }

        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            System.setOut(new PrintStream(outBytes, true, UTF_8));
            System.setErr(new PrintStream(errBytes, true, UTF_8));
            Class<?> example = loader.loadClass(name);
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                try {
                    example.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
                } catch (InvocationTargetException e) {
                    throw new AssertionError("README java block threw:\n" + block, e.getCause());
                }
            });
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        Printed printed = new Printed(outBytes.toString(UTF_8), errBytes.toString(UTF_8));
        out.print(printed.out());
        err.print(printed.err());
        return printed;
    }

    private String withServerPort(String block) {
        assertThat(block).contains(".port(2049)");
        return block.replace(".port(2049)", ".port(" + server.port() + ")");
    }

    @Test
    void theReadmeHasExactlyTheJavaBlocksTheseTestsRun() throws IOException {
        List<String> blocks = javaBlocks(readme());
        assertThat(blocks).hasSize(3);
        assertThat(blocks).allMatch(b -> b.contains("\"src/a.c\"") || b.contains("TcnfsServer.builder()")
                || b.contains("etc/passwd"), "is the first screen's, the embedding or the paper's example");
    }

    /** README, first screen, "Send a transaction". */
    @Test
    void theFirstScreensJavaTransactionWritesBothFiles() throws Exception {
        Files.createDirectories(server.exportDir().resolve("src"));

        Printed printed = compileAndRun("FirstScreenExample", withServerPort(javaBlock("\"src/a.c\"")));

        assertThat(printed.out()).isEqualTo("both written\n");
        assertThat(Files.readString(server.exportDir().resolve("src/a.c"))).isEqualTo("int a;\n");
        assertThat(Files.readString(server.exportDir().resolve("src/b.c"))).isEqualTo("int b;\n");
    }

    /** README, "Embedding in a Java program": the builder block on temporary directories. */
    @Test
    void theEmbeddingExampleStartsPrintsAndStopsAServer() throws Exception {
        String block = javaBlock("TcnfsServer.builder()");
        assertThat(block).contains("Path.of(\"/srv/export\")", "Path.of(\"/var/lib/tcnfs\")", ".metricsPort(9049)");
        Path export = Files.createDirectories(tmp.resolve("export"));
        Path state = Files.createDirectories(tmp.resolve("state"));
        String runnable = block.replace("Path.of(\"/srv/export\")", "Path.of(\"" + export + "\")")
                .replace("Path.of(\"/var/lib/tcnfs\")", "Path.of(\"" + state + "\")")
                .replace(".metricsPort(9049)", ".metricsPort(0)");

        Printed printed = compileAndRun("EmbeddingExample", runnable);

        assertThat(printed.out()).as("the status JSON, then the scrape")
                .contains("\"nfs_port\":", "\"directory\":\"" + export + "\"", "# TYPE tcnfs_");
        assertThat(state).isNotEmptyDirectory();
    }

    /** README, the paper's example: a user added to passwd, group and shadow, then 1000 small files. */
    @Test
    void thePapersExampleAddsTheUserAndWritesTheFiles() throws Exception {
        Path export = server.exportDir();
        Files.createDirectories(export.resolve("etc"));
        Files.createDirectories(export.resolve("home"));
        Files.writeString(export.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Files.writeString(export.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(export.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");

        Printed printed = compileAndRun("PapersExample", withServerPort(javaBlock("etc/passwd")));

        assertThat(printed.err()).as("no failed item reported").doesNotContainPattern("item \\d+: ");
        assertThat(Files.readString(export.resolve("etc/passwd")))
                .isEqualTo("root:x:0:0:root:/root:/bin/sh\nalice:x:1001:1001::/home/alice:/bin/sh\n");
        assertThat(Files.readString(export.resolve("etc/group"))).isEqualTo("root:x:0:\nalice:x:1001:\n");
        assertThat(Files.readString(export.resolve("etc/shadow")))
                .isEqualTo("root:*:19000:0:99999:7:::\nalice:!:19000:0:99999:7:::\n");
        assertThat(export.resolve("home/alice")).isDirectory();
        List<Path> missing = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Path f = export.resolve("data/f" + i);
            if (!Files.isRegularFile(f) || Files.size(f) != 4096) {
                missing.add(f);
            }
        }
        assertThat(missing).as("data/f0..f999, 4096 bytes each").isEmpty();
    }
}
