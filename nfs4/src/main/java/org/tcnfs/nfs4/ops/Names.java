package org.tcnfs.nfs4.ops;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.tcnfs.nfs4.status.BadCharException;
import org.tcnfs.nfs4.status.BadNameException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.NameTooLongException;
import org.tcnfs.nfs4.status.NfsException;

/**
 * The rules for the names clients send, applied in one place for every operation that takes one (LOOKUP,
 * SECINFO, CREATE, REMOVE, RENAME, LINK, OPEN), so that a file system only ever sees names that are
 * safe to resolve inside one directory (RFC 8881 sections 14.2 and 14.4).
 *
 * <p>Component names ({@code component4}), checked in this order:
 * <ol>
 *   <li>not valid UTF-8 (decoded as {@code null} by {@code XdrSupport.decodeStrictUtf8}): NFS4ERR_INVAL;</li>
 *   <li>empty: NFS4ERR_INVAL;</li>
 *   <li>more than {@value #MAX_NAME_BYTES} bytes of UTF-8: NFS4ERR_NAMETOOLONG;</li>
 *   <li>"." or "..": NFS4ERR_BADNAME;</li>
 *   <li>containing '/' or NUL: NFS4ERR_BADCHAR.</li>
 * </ol>
 *
 * <p>Symbolic link targets ({@code linktext4}) are stored verbatim and never resolved by the server, so
 * they may contain '/', "." and "..". They must still be valid, non-empty UTF-8 (NFS4ERR_INVAL), without
 * NUL (NFS4ERR_BADCHAR, no POSIX file system can store it) and at most {@value #MAX_LINK_BYTES} bytes
 * (NFS4ERR_NAMETOOLONG, the POSIX {@code PATH_MAX} less its terminating NUL).
 *
 * <p>Stateless; thread-safe.
 */
public final class Names {
    /** The longest component name, in bytes of UTF-8. */
    public static final int MAX_NAME_BYTES = 255;
    /** The longest symbolic link target, in bytes of UTF-8. */
    public static final int MAX_LINK_BYTES = 4095;

    private Names() {
    }

    /**
     * Checks a component name as decoded from the wire.
     *
     * @param name the name, or {@code null} when its bytes were not valid UTF-8
     * @return {@code name}, now known to be a valid single component
     * @throws InvalException if {@code name} is {@code null} (invalid UTF-8) or empty
     * @throws NameTooLongException if it has more than {@value #MAX_NAME_BYTES} bytes of UTF-8
     * @throws BadNameException if it is "." or ".."
     * @throws BadCharException if it contains '/' or NUL
     */
    public static String checkComponent(String name) throws NfsException {
        if (name == null) {
            throw new InvalException("name is not valid UTF-8");
        }
        if (name.isEmpty()) {
            throw new InvalException("empty name");
        }
        int bytes = utf8Length(name);
        if (bytes < 0) {
            throw new InvalException("name is not valid Unicode");
        }
        if (bytes > MAX_NAME_BYTES) {
            throw new NameTooLongException("name longer than " + MAX_NAME_BYTES + " bytes");
        }
        if (name.equals(".") || name.equals("..")) {
            throw new BadNameException("name \"" + name + "\" is reserved");
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new BadCharException("name contains '/' or NUL");
        }
        return name;
    }

    /**
     * Checks the target of a symbolic link as sent ({@code linktext4}) and decodes it.
     *
     * @param target the bytes as sent
     * @return the target as a string, exactly those bytes decoded as UTF-8
     * @throws InvalException if it is empty or not valid UTF-8
     * @throws NameTooLongException if it has more than {@value #MAX_LINK_BYTES} bytes
     * @throws BadCharException if it contains NUL
     */
    public static String checkLinkTarget(byte[] target) throws NfsException {
        if (target == null || target.length == 0) {
            throw new InvalException("empty symbolic link target");
        }
        if (target.length > MAX_LINK_BYTES) {
            throw new NameTooLongException("symbolic link target longer than " + MAX_LINK_BYTES + " bytes");
        }
        String decoded;
        try {
            decoded = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(target))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalException("symbolic link target is not valid UTF-8", e);
        }
        if (decoded.indexOf('\0') >= 0) {
            throw new BadCharException("symbolic link target contains NUL");
        }
        return decoded;
    }

    /**
     * Number of bytes {@code s} takes in UTF-8, or -1 if it holds an unpaired surrogate, which UTF-8 cannot encode
     * (never in input decoded from the wire): one pass, no copy, as every name of every operation is checked.
     */
    public static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                return -1;
            }
        }
        return bytes;
    }
}
