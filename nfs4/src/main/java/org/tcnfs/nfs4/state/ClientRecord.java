package org.tcnfs.nfs4.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The small stable-storage record of RFC 8881 8.4.3 kept in a directory: which client owners hold
 * confirmed client ids (file {@code clients}), the server's install id (file {@code server-id}), which
 * fixes the server owner across restarts, and the boot epoch of the last start (file {@code boot-epoch}),
 * which keeps every start's client ids and stateids apart from the previous start's.
 *
 * <p>The {@code clients} file is text: a header line {@code tcnfs-clients 1}, one owner id in hex per line,
 * and a trailer {@code end <count>}. It is replaced whole with {@link DurableFiles#write}. A file that does
 * not parse is reported as unknown ({@code null}), which makes the grace period run its full time.
 *
 * <p>Thread-safe (writes are serialized).
 */
final class ClientRecord {
    private static final Logger LOG = LoggerFactory.getLogger(ClientRecord.class);
    private static final String HEADER = "tcnfs-clients 1";
    private static final String TRAILER = "end ";
    /** Boot epochs fill 32 bits: the first 4 bytes of stateids and the upper half of client ids. */
    private static final long EPOCH_MASK = 0xffffffffL;

    private final Path dir;
    private final Path clients;
    private Set<OwnerId> lastWritten;

    private ClientRecord(Path dir) {
        this.dir = dir;
        this.clients = dir.resolve("clients");
    }

    /** Opens (and creates, if needed) the record directory. */
    static ClientRecord open(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new ClientRecord(dir);
    }

    Path directory() {
        return dir;
    }

    /**
     * The owners the previous run recorded: empty when there is no record yet, {@code null} when the
     * record cannot be read.
     */
    synchronized Set<OwnerId> readPrevious() {
        List<String> lines;
        try {
            lines = Files.readAllLines(clients, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            lastWritten = Set.of();
            return Set.of();
        } catch (IOException e) {
            LOG.warn("cannot read client record {}: {}; the grace period runs its full time", clients, e.toString());
            return null;
        }
        Set<OwnerId> owners = parse(lines);
        if (owners == null) {
            LOG.warn("client record {} is damaged; the grace period runs its full time", clients);
            return null;
        }
        lastWritten = Set.copyOf(owners);
        return owners;
    }

    private static Set<OwnerId> parse(List<String> lines) {
        if (lines.size() < 2 || !lines.get(0).equals(HEADER)) {
            return null;
        }
        String last = lines.get(lines.size() - 1);
        if (!last.startsWith(TRAILER)) {
            return null;
        }
        Set<OwnerId> owners = new HashSet<>();
        try {
            int count = Integer.parseInt(last.substring(TRAILER.length()));
            for (String line : lines.subList(1, lines.size() - 1)) {
                owners.add(OwnerId.ofHex(line));
            }
            return count == lines.size() - 2 ? owners : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Replaces the record with {@code owners}, durably, unless it already holds exactly them. */
    synchronized void write(Collection<OwnerId> owners) throws IOException {
        Set<OwnerId> set = Set.copyOf(owners);
        if (set.equals(lastWritten)) {
            return;
        }
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        TreeSet<String> sorted = new TreeSet<>();
        for (OwnerId o : set) {
            sorted.add(o.hex());
        }
        for (String hex : sorted) {
            sb.append(hex).append('\n');
        }
        sb.append(TRAILER).append(sorted.size()).append('\n');
        DurableFiles.write(clients, sb.toString().getBytes(StandardCharsets.UTF_8));
        lastWritten = set;
    }

    /**
     * The boot epoch of this start: the start time {@code nowSeconds}, or one more than the previous
     * start's epoch when that is not smaller (a restart within the same second, or a clock set back), so
     * that no two starts over this directory share an epoch. Recorded durably before it is returned. A
     * missing or damaged file counts as no previous start.
     */
    synchronized long nextBootEpoch(long nowSeconds) throws IOException {
        Path file = dir.resolve("boot-epoch");
        long epoch = nowSeconds & EPOCH_MASK;
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).trim();
            long previous = text.length() <= 10 ? Long.parseLong(text) : -1;
            if (previous >= 0 && previous < EPOCH_MASK && previous >= epoch) {
                epoch = previous + 1;
            }
        } catch (NoSuchFileException e) {
            LOG.debug("no boot epoch in {} yet", dir);
        } catch (NumberFormatException e) {
            LOG.warn("boot epoch in {} is damaged; starting from the clock", file);
        }
        DurableFiles.write(file, (epoch + "\n").getBytes(StandardCharsets.UTF_8));
        return epoch;
    }

    /** The install id kept in the directory, made (durably) on first use. */
    synchronized String serverId() throws IOException {
        Path file = dir.resolve("server-id");
        try {
            String id = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (!id.isEmpty() && id.length() <= 64 && id.chars().allMatch(c -> c > ' ' && c < 127)) {
                return id;
            }
            LOG.warn("server id in {} is damaged; making a new one", file);
        } catch (NoSuchFileException e) {
            LOG.debug("no server id in {} yet", dir);
        }
        String id = UUID.randomUUID().toString();
        DurableFiles.write(file, (id + "\n").getBytes(StandardCharsets.UTF_8));
        return id;
    }
}
