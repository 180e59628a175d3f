package org.tcnfs.client.vector;

import java.util.ArrayList;
import java.util.List;

/**
 * Paths inside an export as the vectorized calls take them: slash-separated, relative to the export's root
 * (a leading slash is allowed and ignored), {@code .} and empty components dropped. The root is {@code ""}.
 * {@code ..} is refused: paths are resolved by LOOKUPs from the export's root, never above it.
 */
public final class RemotePath {
    private RemotePath() {
    }

    /**
     * The normalized form of {@code path}.
     *
     * @throws IllegalArgumentException for {@code ..} components or a NUL character
     */
    public static String normalize(String path) {
        if (path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("NUL in path " + path);
        }
        return String.join("/", components(path));
    }

    /** The non-empty components of {@code path}, after the checks of {@link #normalize}. */
    public static List<String> components(String path) {
        List<String> out = new ArrayList<>();
        for (String part : path.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                throw new IllegalArgumentException("'..' in path " + path);
            }
            out.add(part);
        }
        return out;
    }

    /** The parent of a normalized path ({@code ""} for a top-level name). */
    public static String parent(String path) {
        String p = normalize(path);
        int slash = p.lastIndexOf('/');
        return slash < 0 ? "" : p.substring(0, slash);
    }

    /**
     * The last component.
     *
     * @throws IllegalArgumentException for the root, which has no name
     */
    public static String name(String path) {
        String p = normalize(path);
        if (p.isEmpty()) {
            throw new IllegalArgumentException("the root has no name");
        }
        return p.substring(p.lastIndexOf('/') + 1);
    }

    /** {@code child} under {@code dir}. */
    public static String join(String dir, String child) {
        String d = normalize(dir);
        String c = normalize(child);
        return d.isEmpty() ? c : c.isEmpty() ? d : d + "/" + c;
    }

    /** How many components {@code path} has (0 for the root). */
    public static int depth(String path) {
        return components(path).size();
    }

    /** Whether {@code path} is {@code ancestor} or lies beneath it. */
    public static boolean isWithin(String path, String ancestor) {
        String p = normalize(path);
        String a = normalize(ancestor);
        return a.isEmpty() || p.equals(a) || p.startsWith(a + "/");
    }

    /**
     * Checks that none of the normalized {@code paths} is the root, which an item that would {@code verb} it
     * cannot name.
     *
     * @throws IllegalArgumentException "cannot VERB the export's root" when one of them is
     */
    static void requireNotRoot(String verb, String... paths) {
        for (String p : paths) {
            if (p.isEmpty()) {
                throw new IllegalArgumentException("cannot " + verb + " the export's root");
            }
        }
    }
}
