package org.tcnfs.txn.handles;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One name of an object: the directory that holds it and the name in that directory.
 *
 * @param parent handle of the directory
 * @param name a single path component: not empty, not "." or "..", without '/' or NUL, at most
 *     {@value #MAX_NAME_BYTES} bytes of UTF-8
 */
public record Link(Nfh parent, String name) {

    /** Longest name in bytes of UTF-8. */
    public static final int MAX_NAME_BYTES = 255;

    public Link {
        Objects.requireNonNull(parent, "parent");
        checkName(name);
    }

    /**
     * Checks that {@code name} is a single, plain path component.
     *
     * @throws IllegalArgumentException if it is not
     */
    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.equals(".") || name.equals("..")
                || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a plain name: \"" + name + "\"");
        }
        // a char takes at most 3 bytes (a pair of surrogates 4 for two): only a longer name needs counting
        if (name.length() > MAX_NAME_BYTES / 3 && name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("name longer than " + MAX_NAME_BYTES + " bytes");
        }
    }
}
