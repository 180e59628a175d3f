package org.tcnfs.proto;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path relative to a base directory (the export root, or a transaction's backup directory), as plain
 * components. The empty path is the base itself.
 *
 * <p>Every component is a plain name: not empty, not "." or "..", without '/' or NUL, valid Unicode (so
 * that it survives UTF-8 unchanged), at most {@value #MAX_NAME_BYTES} bytes of UTF-8. So a relative path
 * can never leave its base.
 *
 * @param components the names from the base down, at most {@value #MAX_DEPTH}
 */
public record RelativePath(List<String> components) {

    /** Longest component in bytes of UTF-8. */
    public static final int MAX_NAME_BYTES = 255;

    /** Most components in one path. */
    public static final int MAX_DEPTH = 4096;

    /** The base directory itself. */
    public static final RelativePath ROOT = new RelativePath(List.of());

    public RelativePath {
        components = List.copyOf(components);
        if (components.size() > MAX_DEPTH) {
            throw new IllegalArgumentException("path deeper than " + MAX_DEPTH + " components");
        }
        for (String name : components) {
            checkName(name);
        }
    }

    /**
     * The path written as {@code "a/b/c"}; {@code ""} is {@link #ROOT}.
     *
     * @throws IllegalArgumentException if it starts or ends with '/', has an empty, "." or ".." component,
     *     NUL, or a component that is too long
     */
    public static RelativePath of(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isEmpty()) {
            return ROOT;
        }
        List<String> names = new ArrayList<>();
        int start = 0;
        while (true) {
            int slash = path.indexOf('/', start);
            if (slash < 0) {
                names.add(path.substring(start));
                break;
            }
            names.add(path.substring(start, slash));
            start = slash + 1;
            if (names.size() > MAX_DEPTH) {
                throw new IllegalArgumentException("path deeper than " + MAX_DEPTH + " components");
            }
        }
        return new RelativePath(names);
    }

    /** The path of these names, from the base down. */
    public static RelativePath of(String first, String... more) {
        List<String> names = new ArrayList<>(1 + more.length);
        names.add(first);
        names.addAll(List.of(more));
        return new RelativePath(names);
    }

    /**
     * Checks that {@code name} is a single, plain path component.
     *
     * @throws IllegalArgumentException if it is not
     */
    public static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.equals(".") || name.equals("..")
                || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a plain name: \"" + name.replace("\0", "\\0") + "\"");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("name is not valid Unicode (lone surrogate)");
            }
        }
        if (name.length() > MAX_NAME_BYTES / 3 && name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("name longer than " + MAX_NAME_BYTES + " bytes");
        }
    }

    /** Whether this is the base directory itself. */
    public boolean isRoot() {
        return components.isEmpty();
    }

    /** The child {@code name} of this path. */
    public RelativePath resolve(String name) {
        List<String> names = new ArrayList<>(components.size() + 1);
        names.addAll(components);
        names.add(name);
        return new RelativePath(names);
    }

    /**
     * The directory that holds this path.
     *
     * @throws IllegalStateException for {@link #ROOT}
     */
    public RelativePath parent() {
        if (isRoot()) {
            throw new IllegalStateException("the root has no parent");
        }
        return new RelativePath(components.subList(0, components.size() - 1));
    }

    /**
     * The last component.
     *
     * @throws IllegalStateException for {@link #ROOT}
     */
    public String name() {
        if (isRoot()) {
            throw new IllegalStateException("the root has no name");
        }
        return components.get(components.size() - 1);
    }

    /** The path written as {@code "a/b/c"} ({@code ""} for the root); {@link #of(String)} reads it back. */
    @Override
    public String toString() {
        return String.join("/", components);
    }
}
