package org.tcnfs.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The power-loss fault layer of the integration tests ({@code it/src/test/faultfs/faultfs.py}, described in
 * docs/durability.md): a FUSE pass-through that records every change and every fsync into a log, and a
 * generator that writes the state a disk would hold after a power cut at any position of that log.
 *
 * <p>{@link #mount} starts a recording mount; its {@link #position()} is the log's size, so a position read
 * after an operation returned lies after every record of that operation. {@link States} replays the log once
 * and writes crash states at increasing positions; {@link #mount} with the ids file of a state serves it
 * again with the inode numbers of the recorded run. {@link #close()} unmounts and waits for the process.
 */
final class FaultLayer implements AutoCloseable {
    /** Record type of an fsync or fdatasync in the log (faultfs.py R_FSYNC). */
    static final int FSYNC_RECORD = 8;
    private static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Mounter mounter;
    private final Path mountpoint;
    private final Path log;

    private FaultLayer(Process process, Mounter mounter, Path mountpoint, Path log) {
        this.process = process;
        this.mounter = mounter;
        this.mountpoint = mountpoint;
        this.log = log;
    }

    /** The tool's script. */
    static Path script() {
        return Paths.get(System.getProperty("tcnfs.faultfs", "src/test/faultfs/faultfs.py")).toAbsolutePath();
    }

    private static volatile String interpreter;

    /**
     * The python interpreter itself ({@code sys.executable} of {@code -Dtcnfs.python}, else of python3): a
     * pyenv shim would add a shell start to every mount.
     */
    static String python() {
        String known = interpreter;
        if (known != null) {
            return known;
        }
        String configured = System.getProperty("tcnfs.python");
        String command = configured == null || configured.isBlank() ? "python3" : configured;
        try {
            Process p = new ProcessBuilder(command, "-c", "import sys; print(sys.executable)")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty()) {
                command = out;
            }
        } catch (IOException e) {
            return command;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return command;
        }
        interpreter = command;
        return command;
    }

    /** Why the layer cannot run here (no python3 with pyfuse3, no /dev/fuse, no fusermount3), or null. */
    static String unavailable() {
        if (!Files.exists(Paths.get("/dev/fuse"))) {
            return "no /dev/fuse";
        }
        try {
            Process p = new ProcessBuilder(python(), "-c", "import pyfuse3, trio").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return python() + " cannot import pyfuse3 (scripts/install-test-deps.sh installs it): " + out.strip();
            }
            Process f = new ProcessBuilder("fusermount3", "-V").redirectErrorStream(true).start();
            f.getInputStream().readAllBytes();
            if (!f.waitFor(30, TimeUnit.SECONDS) || f.exitValue() != 0) {
                return "fusermount3 does not run";
            }
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return null;
    }

    /**
     * Mounts {@code mountpoint} over {@code backing}, recording into {@code log}; with {@code ids} (a state
     * written by {@link States}), with that state's inode numbers. Returns once the mount serves.
     */
    static FaultLayer mount(Path backing, Path mountpoint, Path log, Path ids) throws IOException {
        Files.createDirectories(mountpoint);
        List<String> command = new ArrayList<>(List.of(python(), script().toString(), "record", backing.toString(),
                mountpoint.toString(), log.toString()));
        if (ids != null) {
            command.add(ids.toString());
        }
        Path err = log.resolveSibling(log.getFileName() + ".stderr");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"mounted".equals(line)) {
            p.destroyForcibly();
            throw new IOException("faultfs did not mount " + mountpoint + ": " + line + " " + Files.readString(err));
        }
        FaultLayer layer = new FaultLayer(p, null, mountpoint, log);
        layer.awaitMounted(p);
        return layer;
    }

    private void awaitMounted(Process p) throws IOException {
        long deadline = System.nanoTime() + MOUNT_TIMEOUT.toNanos();
        while (!mounted()) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                close();
                throw new IOException("faultfs mount of " + mountpoint + " not seen");
            }
            TxnLeftovers.sleep(10);
        }
    }

    private boolean mounted() throws IOException {
        String target = " " + mountpoint.toAbsolutePath() + " fuse";
        return Files.readAllLines(Paths.get("/proc/self/mounts")).stream().anyMatch(l -> l.contains(target));
    }

    Path mountpoint() {
        return mountpoint;
    }

    /** The layer's clock: the log's size in bytes. */
    long position() throws IOException {
        return Files.size(log);
    }

    /** One record of the log: where it starts and ends, and its type. */
    record Entry(long start, long end, int type) {
    }

    /** Every whole record of a log. */
    static List<Entry> entries(Path log) throws IOException {
        byte[] data = Files.readAllBytes(log);
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        List<Entry> out = new ArrayList<>();
        int pos = 0;
        while (pos + 9 <= data.length) {
            int total = b.getInt(pos);
            int type = b.get(pos + 4) & 0xff;
            if (total < 9 || pos + (long) total > data.length) {
                break;
            }
            out.add(new Entry(pos, pos + total, type));
            pos += total;
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        if (mounter != null) {
            mounter.unmount(mountpoint);
            return;
        }
        if (process.isAlive()) {
            Process u = new ProcessBuilder("fusermount3", "-u", "-z", mountpoint.toString()).redirectErrorStream(true)
                    .start();
            u.getInputStream().readAllBytes();
            try {
                u.waitFor(30, TimeUnit.SECONDS);
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroy();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A faultfs.py process that answers one line on stdout for each command line on stdin. */
    private static class LineProcess implements AutoCloseable {
        final Process process;
        private final Writer in;
        private final BufferedReader out;

        LineProcess(ProcessBuilder builder) throws IOException {
            process = builder.start();
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        final String command(String line) throws IOException {
            in.write(line + "\n");
            in.flush();
            return out.readLine();
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * One process that mounts states one after the other ({@code faultfs.py serve}): a mount costs no
     * interpreter start. One mount at a time.
     */
    static final class Mounter extends LineProcess {
        Mounter(Path stderr) throws IOException {
            super(new ProcessBuilder(python(), script().toString(), "serve").redirectError(stderr.toFile()));
        }

        /** Mounts {@code mountpoint} over {@code backing} as {@link FaultLayer#mount} does. */
        FaultLayer mount(Path backing, Path mountpoint, Path log, Path ids) throws IOException {
            Files.createDirectories(mountpoint);
            String answer = command("mount " + backing + " " + mountpoint + " " + log + (ids == null ? "" : " " + ids));
            if (!"mounted".equals(answer)) {
                throw new IOException("faultfs serve did not mount " + mountpoint + ": " + answer);
            }
            FaultLayer layer = new FaultLayer(process, this, mountpoint, log);
            layer.awaitMounted(process);
            return layer;
        }

        private void unmount(Path mountpoint) throws IOException {
            String answer = command("unmount");
            if (!"unmounted".equals(answer)) {
                throw new IOException("faultfs serve did not unmount " + mountpoint + ": " + answer);
            }
        }
    }

    /** How the crash-state generator makes a rename between two directories durable. */
    enum RenameModel {
        /** At both ends at once, with the first fsync of either directory (ext4, XFS, btrfs: one journal transaction). */
        JOURNALED,
        /** Each end with its own directory's fsync only (strict POSIX: either end may be lost alone). */
        STRICT
    }

    /** The crash-state generator over one log: positions must not decrease from one call to the next. */
    static final class States extends LineProcess {
        States(Path log) throws IOException {
            this(log, RenameModel.JOURNALED);
        }

        States(Path log, RenameModel renames) throws IOException {
            super(generator(log, renames));
        }

        private static ProcessBuilder generator(Path log, RenameModel renames) {
            ProcessBuilder b = new ProcessBuilder(python(), script().toString(), "states", log.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            if (renames == RenameModel.STRICT) {
                b.environment().put("FAULTFS_STRICT_RENAME", "1");
            } else {
                b.environment().remove("FAULTFS_STRICT_RENAME");
            }
            return b;
        }

        /** Writes into the new directory {@code dir} the disk after a power cut at {@code position}. */
        void write(long position, Path dir, Path ids) throws IOException {
            String answer = command(position + " " + dir + " " + ids);
            if (!"ok".equals(answer)) {
                throw new IOException("faultfs states at " + position + ": " + answer);
            }
        }
    }
}
