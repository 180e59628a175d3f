package org.tcnfs.server;

import java.io.IOException;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * The exclusive lock of a state directory: its file {@value #FILE_NAME}, locked with
 * {@link FileChannel#tryLock()} (an fcntl lock the kernel drops when the process ends, also on SIGKILL) and
 * holding the pid, host and start time of the holder. A server holds it from before it opens anything in the
 * directory until it has closed everything; {@code --check} holds it while it reads.
 *
 * <p>The file is never deleted (deleting it would let a second process lock a new file while the first still
 * holds the old one). Close releases the lock.
 */
public final class StateLock implements AutoCloseable {
    /** The lock file in the state directory. */
    public static final String FILE_NAME = "tcnfs.lock";
    /** The largest holder description read back. */
    private static final int MAX_HOLDER_BYTES = 4096;

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private StateLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** Who holds (or last held) a lock: what the holder wrote into the lock file. */
    public record Holder(String pid, String host, String started) {
        /** "pid 123 on host h since 2026-11-26T01:00:00Z". */
        public String describe() {
            return "pid " + pid + " on host " + host + " since " + started;
        }

        static Holder parse(String text) {
            Properties p = new Properties();
            try {
                p.load(new StringReader(text));
            } catch (IOException | IllegalArgumentException e) {
                return unknown();
            }
            return new Holder(p.getProperty("pid", "?"), p.getProperty("host", "?"), p.getProperty("started", "?"));
        }

        static Holder unknown() {
            return new Holder("?", "?", "?");
        }

        /** This process. */
        static Holder self() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("?");
            }
            return new Holder(Long.toString(ProcessHandle.current().pid()), host, Instant.now().toString());
        }

        String fileText() {
            return "# the tcnfs process that holds (or last held) this state directory\npid=" + pid + "\nhost=" + host
                    + "\nstarted=" + started + "\njvm=" + ManagementFactory.getRuntimeMXBean().getName() + "\n";
        }
    }

    /** Thrown when another process (or another server in this JVM) holds the lock. */
    public static final class InUseException extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Holder holder;

        InUseException(Path directory, Holder holder) {
            super("state directory " + directory.toAbsolutePath().normalize() + " is in use by tcnfs "
                    + holder.describe() + " (lock file " + FILE_NAME + ")");
            this.holder = holder;
        }

        /** What the holder wrote into the lock file. */
        public Holder holder() {
            return holder;
        }
    }

    /**
     * Locks {@code stateDirectory} (which must exist) for this process, creating the lock file if needed, and
     * records this process in it.
     *
     * @throws InUseException if another process or server holds it
     * @throws IOException if the lock file cannot be opened or written
     */
    public static StateLock acquire(Path stateDirectory) throws IOException {
        Path file = stateDirectory.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        StateLock lock = lockOrThrow(stateDirectory, file, channel);
        try {
            byte[] text = Holder.self().fileText().getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(text), 0);
            channel.force(true);
            return lock;
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /**
     * Locks {@code stateDirectory} without changing anything in it, for a reader such as {@code --check}: empty
     * when there is no lock file (no server of this version ever ran there), else the lock.
     *
     * @throws InUseException if another process or server holds it
     */
    public static Optional<StateLock> acquireForReading(Path stateDirectory) throws IOException {
        Path file = stateDirectory.resolve(FILE_NAME);
        FileChannel channel;
        try {
            // WRITE only because an exclusive lock needs it; nothing is written.
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(lockOrThrow(stateDirectory, file, channel));
    }

    private static StateLock lockOrThrow(Path directory, Path file, FileChannel channel) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            Holder holder = readHolder(channel);
            channel.close();
            throw new InUseException(directory, holder);
        }
        return new StateLock(file, channel, lock);
    }

    private static Holder readHolder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(MAX_HOLDER_BYTES);
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
                // read up to the cap
            }
            return Holder.parse(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Holder.unknown();
        }
    }

    /** What the lock file says about its holder now; empty when there is no lock file. */
    public static Optional<Holder> holderOf(Path stateDirectory) throws IOException {
        Path file = stateDirectory.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return Optional.of(readHolder(channel));
        }
    }

    /** The lock file. */
    public Path file() {
        return file;
    }

    /** Releases the lock (the file stays); harmless twice. */
    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            channel.close();
        } catch (IOException e) {
            // closing the channel releases the lock anyway
        }
    }
}
