package org.tcnfs.nfs4.attr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.BadOwnerException;

/**
 * Maps the {@code owner} and {@code owner_group} strings of NFSv4 to numeric ids and back.
 *
 * <p>The server sends ids as decimal strings ("1000"), which every client accepts. It takes a decimal
 * string, {@code name@domain} or a bare {@code name}; names are looked up in the local passwd and group
 * files (the domain is not checked), which are re-read at most once per {@code ttl}. Anything else is
 * NFS4ERR_BADOWNER. Thread-safe.
 */
public final class IdMapper {
    private static final Logger LOG = LoggerFactory.getLogger(IdMapper.class);

    /** How long the passwd and group files are trusted once read. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    private final Path passwdFile;
    private final Path groupFile;
    private final Clock clock;
    private final Duration ttl;
    private volatile Tables tables;

    private record Tables(Map<String, Integer> users, Map<String, Integer> groups, Instant loadedAt) {
    }

    /**
     * @param passwdFile a file in passwd(5) form
     * @param groupFile a file in group(5) form
     * @param clock decides when the files are read again
     * @param ttl how long one reading is used
     */
    public IdMapper(Path passwdFile, Path groupFile, Clock clock, Duration ttl) {
        this.passwdFile = Objects.requireNonNull(passwdFile);
        this.groupFile = Objects.requireNonNull(groupFile);
        this.clock = Objects.requireNonNull(clock);
        this.ttl = Objects.requireNonNull(ttl);
    }

    /** A mapper over {@code /etc/passwd} and {@code /etc/group}. */
    public static IdMapper system() {
        return new IdMapper(Path.of("/etc/passwd"), Path.of("/etc/group"), Clock.systemUTC(), DEFAULT_TTL);
    }

    /** The wire form of a numeric id: its unsigned decimal string. */
    public static String toWire(int id) {
        return Integer.toUnsignedString(id);
    }

    /**
     * The uid an {@code owner} string names.
     *
     * @throws BadOwnerException if it is neither a number nor a known user
     */
    public int uidOf(String owner) throws BadOwnerException {
        return resolve(owner, tables().users(), "user");
    }

    /**
     * The gid an {@code owner_group} string names.
     *
     * @throws BadOwnerException if it is neither a number nor a known group
     */
    public int gidOf(String group) throws BadOwnerException {
        return resolve(group, tables().groups(), "group");
    }

    private static int resolve(String value, Map<String, Integer> names, String kind) throws BadOwnerException {
        int at = value.indexOf('@');
        String name = at < 0 ? value : value.substring(0, at);
        if (at >= 0 && (at == value.length() - 1 || value.indexOf('@', at + 1) >= 0)) {
            throw new BadOwnerException("malformed " + kind + " '" + value + "'");
        }
        Integer numeric = parseId(name);
        if (numeric != null) {
            return numeric;
        }
        Integer id = names.get(name);
        if (id == null) {
            throw new BadOwnerException("unknown " + kind + " '" + value + "'");
        }
        return id;
    }

    /** A decimal id from 0 to 2^32-1 (as an unsigned int), or {@code null}. */
    private static Integer parseId(String s) {
        if (s.isEmpty() || s.length() > 10) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        long v = Long.parseLong(s);
        return v > 0xffffffffL ? null : (int) v;
    }

    private Tables tables() {
        Tables t = tables;
        Instant now = clock.instant();
        if (t == null || !now.isBefore(t.loadedAt().plus(ttl)) || now.isBefore(t.loadedAt())) {
            t = new Tables(read(passwdFile), read(groupFile), now);
            tables = t;
        }
        return t;
    }

    /** name -> id of the third field of each line (passwd and group files share this layout). */
    private static Map<String, Integer> read(Path file) {
        Map<String, Integer> ids = new HashMap<>();
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return ids;
        } catch (IOException e) {
            LOG.warn("cannot read {}: {}", file, e.toString());
            return ids;
        }
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split(":", -1);
            if (fields.length < 3 || fields[0].isEmpty()) {
                continue;
            }
            Integer id = parseId(fields[2].trim());
            if (id != null) {
                ids.putIfAbsent(fields[0], id);
            }
        }
        return ids;
    }
}
