package org.tcnfs.txn.backup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backup area of one export's file system, such as {@code <export>/.tcnfs/txn}: one directory per
 * transaction beneath it, handed out as {@link BackupManager}s, plus what those share (the block size,
 * whether the file system clones at all, and the byte counters an operator scrapes).
 *
 * <p>The area must lie on the same file system as the files it backs up: a clone and a rename cannot cross
 * file systems. Hiding it from clients is the file system layer's job.
 *
 * <p>Thread-safe; managers of different transactions may work at once.
 */
public final class BackupStore {
    private static final Logger LOG = LoggerFactory.getLogger(BackupStore.class);
    private static final int DEFAULT_BLOCK_SIZE = 4096;
    private static final int MAX_NAME_BYTES = 255;

    private final Path root;
    private final Reflink reflink;
    private final int blockSize;
    private final BackupBudget budget;
    private final LongAdder bytesCloned = new LongAdder();
    private final LongAdder bytesCopied = new LongAdder();
    private final LongAdder bytesRestored = new LongAdder();
    private final AtomicBoolean cloneRefused = new AtomicBoolean();

    private BackupStore(Path root, Reflink reflink, int blockSize, BackupBudget budget) {
        this.root = root;
        this.reflink = reflink;
        this.blockSize = blockSize;
        this.budget = budget;
    }

    /**
     * Opens the area at {@code root}, creating it (and missing parents, durably) when needed.
     *
     * @throws IOException when the directory cannot be created or synced
     * @throws UnsupportedOperationException when the native binding is unavailable (not Linux)
     */
    public static BackupStore open(Path root) throws IOException {
        return open(root, BackupBudget.unlimited());
    }

    /**
     * Opens the area at {@code root} as {@link #open(Path)} does, with the backups of its transactions
     * limited by {@code budget} (which other areas of the server may share).
     */
    public static BackupStore open(Path root, BackupBudget budget) throws IOException {
        java.util.Objects.requireNonNull(budget, "budget");
        Path absolute = root.toAbsolutePath().normalize();
        Reflink reflink = Reflink.load();
        createDurably(absolute, reflink);
        return new BackupStore(absolute, reflink, blockSizeOf(absolute), budget);
    }

    /**
     * The area at {@code root} as it is, creating nothing: for an export where no transaction can change
     * anything (a read-only export, perhaps on a read-only mount). {@link #transactions()} lists what a
     * directory that exists holds, and none when it is missing; a backup made through it fails with an
     * {@link IOException} while the directory is missing, as nothing should ever be backed up there.
     *
     * @throws UnsupportedOperationException when the native binding is unavailable (not Linux)
     */
    public static BackupStore existing(Path root, BackupBudget budget) {
        java.util.Objects.requireNonNull(budget, "budget");
        Path absolute = root.toAbsolutePath().normalize();
        Path measured = absolute;
        while (measured.getParent() != null && !Files.isDirectory(measured)) {
            measured = measured.getParent();
        }
        return new BackupStore(absolute, Reflink.load(), blockSizeOf(measured), budget);
    }

    /**
     * The backup manager of one transaction, working in {@code root/transactionId}. The directory is
     * created with the first backup; an existing one (a transaction being recovered) is used as it is.
     *
     * @param transactionId a single file name: not empty, no {@code /} or NUL, not {@code .} or {@code ..}
     */
    public BackupManager forTransaction(String transactionId) {
        if (transactionId.isEmpty() || transactionId.equals(".") || transactionId.equals("..")
                || transactionId.indexOf('/') >= 0 || transactionId.indexOf('\0') >= 0
                || transactionId.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("not a valid transaction directory name: '" + transactionId + "'");
        }
        return new BackupManager(this, root.resolve(transactionId));
    }

    /**
     * The transactions that have a backup directory here, in name order: what recovery and the background
     * cleaner look at.
     */
    public List<String> transactions() throws IOException {
        List<String> names = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return names;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    names.add(entry.getFileName().toString());
                }
            }
        }
        names.sort(null);
        return names;
    }

    /** The area's directory (absolute). */
    public Path root() {
        return root;
    }

    /** The file system block size that clone ranges are aligned to. */
    public int blockSize() {
        return blockSize;
    }

    /** Bytes backed up by {@code FICLONERANGE} (block-aligned covering ranges), over all transactions. */
    public long bytesCloned() {
        return bytesCloned.sum();
    }

    /** Bytes backed up by copying, over all transactions. */
    public long bytesCopied() {
        return bytesCopied.sum();
    }

    /** Bytes put back by undo (cloned or copied), over all transactions. */
    public long bytesRestored() {
        return bytesRestored.sum();
    }

    /** The budget this area's transactions charge their backups to. */
    public BackupBudget budget() {
        return budget;
    }

    Reflink reflink() {
        return reflink;
    }

    /**
     * Whether clones are worth trying: {@code false} after the file system said it has no reflink at all
     * ({@code EOPNOTSUPP}, {@code ENOTTY}, {@code ENOSYS}), so later backups copy without a refused ioctl.
     */
    boolean tryClones() {
        return !cloneRefused.get();
    }

    void cloneRefused(Reflink.CloneResult result) {
        if (result.noReflink() && cloneRefused.compareAndSet(false, true)) {
            LOG.info("file system of {} does not clone ({}): backups are copies", root, result.errnoName());
        }
    }

    void countCloned(long bytes) {
        bytesCloned.add(bytes);
    }

    void countCopied(long bytes) {
        bytesCopied.add(bytes);
    }

    void countRestored(long bytes) {
        bytesRestored.add(bytes);
    }

    private static void createDurably(Path directory, Reflink reflink) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = directory; p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        Files.createDirectories(directory);
        for (Path created : missing) {
            reflink.fsync(created.getParent());
        }
    }

    private static int blockSizeOf(Path directory) {
        long size;
        try {
            size = Files.getFileStore(directory).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("block size of {} unknown ({}), aligning clones to {}", directory, e.toString(),
                    DEFAULT_BLOCK_SIZE);
            return DEFAULT_BLOCK_SIZE;
        }
        if (size <= 0 || size > (1 << 24) || Long.bitCount(size) != 1) {
            LOG.warn("block size of {} is {}, aligning clones to {}", directory, size, DEFAULT_BLOCK_SIZE);
            return DEFAULT_BLOCK_SIZE;
        }
        return (int) size;
    }
}
