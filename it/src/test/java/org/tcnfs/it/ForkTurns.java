package org.tcnfs.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Takes turns between the test JVMs that failsafe runs side by side ({@code it/pom.xml}, {@code forkCount}): every
 * integration test class holds a lock file under {@link ServerProcess#defaultWorkDirectory()} from before its first
 * {@code @BeforeAll} to after its last {@code @AfterAll}; most hold it shared, so they run in parallel, and the
 * classes that measure latency or free space (the package {@code org.tcnfs.it.hostile}, and any class tagged
 * {@value #ALONE}) hold it exclusive, so no other class runs beside them.
 *
 * <p>A second lock file is a turnstile: a class takes it before the main lock and lets go of it once it holds the
 * main lock, so a class that waits for its exclusive turn is not overtaken by classes that start later. The locks
 * are fcntl locks, released by the kernel if a JVM dies. Registered for every class through
 * {@code META-INF/services} and {@code junit-platform.properties}; with one fork nothing ever waits.
 */
public final class ForkTurns implements BeforeAllCallback, AfterAllCallback {
    /** The tag of a test class that must run with no other class beside it. */
    public static final String ALONE = "alone";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ForkTurns.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Class<?> type = context.getRequiredTestClass();
        if (type.getEnclosingClass() != null) {
            return; // a @Nested class runs inside its outer class's turn
        }
        boolean alone = context.getTags().contains(ALONE) || type.getPackageName().equals("org.tcnfs.it.hostile");
        Path dir = ServerProcess.defaultWorkDirectory();
        Files.createDirectories(dir);
        FileChannel turnstile = open(dir.resolve(".fork-turnstile.lock"));
        FileChannel main = open(dir.resolve(".fork-turns.lock"));
        long start = System.nanoTime();
        FileLock gate = turnstile.lock();
        FileLock held;
        try {
            held = main.lock(0, Long.MAX_VALUE, !alone);
        } finally {
            gate.release();
            turnstile.close();
        }
        long waited = (System.nanoTime() - start) / 1_000_000;
        if (waited >= 1000) {
            System.out.printf("ForkTurns: %s waited %d ms for its %s turn%n", type.getSimpleName(), waited,
                    alone ? "exclusive" : "shared");
        }
        context.getStore(NAMESPACE).put(ForkTurns.class, new Turn(main, held));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Turn turn = context.getStore(NAMESPACE).remove(ForkTurns.class, Turn.class);
        if (turn != null) {
            turn.close();
        }
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The main lock a class holds for its turn, and its channel. */
    private record Turn(FileChannel channel, FileLock lock) implements AutoCloseable {
        @Override
        public void close() {
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
