package org.tcnfs.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client library stands alone: what a program that depends on {@code tcnfs-client} gets at run time (the
 * class path Maven resolves for the compile and runtime scopes, written by the dependency plugin at build time)
 * holds no server code, no command-line libraries and no logging backend, and every class the library's own
 * classes refer to is on it.
 */
class ClientRuntimeClasspathTest {

    /** The only tcnfs packages the library may bring: its own, and the shared XDR types and status codes. */
    private static final List<String> ALLOWED_TCNFS = List.of(
            "org/tcnfs/client/", "org/tcnfs/nfs4/xdr/", "org/tcnfs/nfs4/status/");

    /** Not tcnfs, but never in the library: the CLI's libraries and logging backends. */
    private static final List<String> FORBIDDEN_OTHERS = List.of(
            "picocli/", "org/apache/commons/compress/", "me/tongfei/progressbar/", "org/jline/",
            "ch/qos/logback/", "org/slf4j/nop/", "org/slf4j/simple/");

    private static List<Path> entries;
    private static URLClassLoader loader;

    @BeforeAll
    static void readClasspath() throws IOException {
        Path file = Paths.get(System.getProperty("tcnfs.client.runtimeClasspath", "target/runtime-classpath.txt"));
        Path classes = Paths.get(System.getProperty("tcnfs.client.classes", "target/classes"));
        entries = new ArrayList<>();
        entries.add(classes);
        String cp = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (!cp.isEmpty()) {
            for (String e : cp.split(java.io.File.pathSeparator)) {
                entries.add(Paths.get(e));
            }
        }
        List<URL> urls = new ArrayList<>();
        for (Path e : entries) {
            urls.add(e.toUri().toURL());
        }
        // Parent: the JDK's platform loader, so nothing of this test's own (test-scoped) class path leaks in.
        loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    @Test
    void runtimeClasspathHoldsNoServerCliOrLoggingBackendClasses() throws IOException {
        Map<String, String> offending = new TreeMap<>();
        for (Path entry : entries) {
            for (String name : classFiles(entry).keySet()) {
                boolean tcnfs = name.startsWith("org/tcnfs/");
                boolean allowed = ALLOWED_TCNFS.stream().anyMatch(name::startsWith)
                        && !name.startsWith("org/tcnfs/client/cli/");
                if ((tcnfs && !allowed) || FORBIDDEN_OTHERS.stream().anyMatch(name::startsWith)) {
                    offending.putIfAbsent(source(entry), name.substring(0, name.lastIndexOf('/') + 1));
                }
            }
        }
        assertThat(offending).as("client library's runtime class path entries -> a forbidden package they hold")
                .isEmpty();
    }

    @Test
    void serverAndCliClassesAreNotLoadableFromTheLibraryClasspath() {
        for (String name : List.of("org.tcnfs.nfs4.rpc.NfsServer", "org.tcnfs.nfs4.vfs.VirtualFileSystem",
                "org.tcnfs.nfs4.compound.CompoundContext", "org.tcnfs.server.Main", "org.tcnfs.client.cli.TcnfsCli",
                "picocli.CommandLine", "org.apache.commons.compress.archivers.tar.TarArchiveEntry",
                "me.tongfei.progressbar.ProgressBar", "ch.qos.logback.classic.Logger")) {
            assertThat(loadable(name)).as(name).isFalse();
        }
        assertThat(loadable("org.tcnfs.client.vector.VnfsClient")).isTrue();
        assertThat(loadable("org.tcnfs.nfs4.xdr.COMPOUND4args")).isTrue();
        assertThat(loadable("org.slf4j.LoggerFactory")).isTrue();
    }

    @Test
    void everyClassTheLibraryRefersToIsOnItsRuntimeClasspath() throws IOException {
        // The constant pools of the tcnfs classes on the class path name every class their code uses; each must
        // load without the test's class path (a method body that calls into server code would fail here).
        Map<String, String> missing = new TreeMap<>();
        int checked = 0;
        for (Path entry : entries) {
            for (Map.Entry<String, byte[]> c : classFiles(entry).entrySet()) {
                if (!c.getKey().startsWith("org/tcnfs/")) {
                    continue;
                }
                checked++;
                for (String ref : referencedClasses(c.getValue())) {
                    if (!loadable(ref.replace('/', '.'))) {
                        missing.putIfAbsent(ref, c.getKey());
                    }
                }
            }
        }
        assertThat(checked).as("tcnfs classes checked").isGreaterThan(100);
        assertThat(missing).as("class referred to -> by").isEmpty();
    }

    /** A class path entry as a person finds it: a jar's name, or a module's {@code <module>/target/classes}. */
    private static String source(Path entry) {
        int n = entry.getNameCount();
        return Files.isDirectory(entry) && n >= 3 ? entry.subpath(n - 3, n).toString() : entry.getFileName().toString();
    }

    private static boolean loadable(String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Every class file of a directory or jar: name (with slashes, {@code .class}) to its bytes. */
    private static Map<String, byte[]> classFiles(Path entry) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    out.put(entry.relativize(f).toString().replace(java.io.File.separatorChar, '/'),
                            Files.readAllBytes(f));
                }
            }
        } else if (Files.isRegularFile(entry)) {
            try (JarFile jar = new JarFile(entry.toFile())) {
                for (var e : (Iterable<java.util.jar.JarEntry>) jar.stream()::iterator) {
                    if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                        try (InputStream in = jar.getInputStream(e)) {
                            out.put(e.getName(), in.readAllBytes());
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The class names (internal form, arrays unwrapped) in a class file's constant pool (JVMS 4.4). */
    private static TreeSet<String> referencedClasses(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> classIndexes = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classIndexes.add(in.readUnsignedShort());
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        TreeSet<String> names = new TreeSet<>();
        for (int index : classIndexes) {
            String name = utf8[index];
            if (name.startsWith("[")) {
                name = name.replaceFirst("^\\[+", "");
                if (!name.startsWith("L")) {
                    continue;
                }
                name = name.substring(1, name.length() - 1);
            }
            names.add(name);
        }
        return names;
    }
}
