package org.tcnfs.client.cli;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tcnfs.client.vector.RemotePath;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.LocalData;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VWriteFrom;

/**
 * The manifest of {@code tcnfs apply}: one change per line, applied in order as one transaction. Words are
 * separated by blanks; a word may hold percent escapes ({@code %20} for a blank, {@code %25} for '%'). Remote
 * paths are relative to the URL given to {@code apply}; local files relative to the manifest's directory.
 * A word starting with {@code #} starts a comment to the end of the line ({@code %23} for a word that starts
 * with '#'); empty lines and comment lines are ignored.
 *
 * <pre>
 * write    REMOTE LOCAL        create or truncate REMOTE with LOCAL's bytes
 * append   REMOTE LOCAL        append LOCAL's bytes to REMOTE (created if missing)
 * text     REMOTE WORDS...     create or truncate REMOTE with the words (joined by one blank) and a newline
 * mkdir    REMOTE [MODE]       create a directory (octal MODE, default 755)
 * rename   FROM TO             rename (replacing TO)
 * remove   REMOTE              remove a file, link or empty directory
 * symlink  REMOTE TARGET       create a symbolic link
 * link     EXISTING NEW        create a hard link
 * chmod    MODE REMOTE         set permission bits (octal)
 * truncate REMOTE SIZE         set the length
 * </pre>
 *
 * @param items the changes, in order
 */
record Manifest(List<TxnItem> items) {
    Manifest {
        items = List.copyOf(items);
    }

    /**
     * Parses {@code lines}.
     *
     * @param base the remote directory paths are relative to
     * @param localBase the directory local files are relative to
     * @throws CliException USAGE naming the line for a malformed one, LOCAL_IO for an unreadable local file
     */
    static Manifest parse(List<String> lines, String base, Path localBase) throws CliException {
        List<TxnItem> items = new ArrayList<>();
        for (int n = 0; n < lines.size(); n++) {
            String[] w = words(lines.get(n));
            if (w.length == 0) {
                continue;
            }
            for (int i = 0; i < w.length; i++) {
                w[i] = decode(w[i], n + 1);
            }
            try {
                items.add(item(w, base, localBase));
            } catch (IllegalArgumentException e) {
                throw new CliException(ExitCode.USAGE, "manifest line " + (n + 1) + ": " + e.getMessage());
            }
        }
        return new Manifest(items);
    }

    /** The words of {@code line} before a comment (a word starting with '#'), still escaped. */
    private static String[] words(String line) {
        String stripped = line.strip();
        if (stripped.isEmpty()) {
            return new String[0];
        }
        String[] all = stripped.split("\\s+");
        int end = 0;
        while (end < all.length && !all[end].startsWith("#")) {
            end++;
        }
        return Arrays.copyOf(all, end);
    }

    private static TxnItem item(String[] w, String base, Path localBase) throws CliException {
        String verb = w[0];
        return switch (verb) {
            case "write" -> streamed(remote(base, w, 1, 3), localBase.resolve(w[2]));
            case "append" -> VWrite.append(remote(base, w, 1, 3), local(localBase, w[2]));
            case "text" -> {
                if (w.length < 2) {
                    throw new IllegalArgumentException("text needs REMOTE");
                }
                String text = String.join(" ", Arrays.asList(w).subList(2, w.length)) + "\n";
                yield VWrite.create(RemotePath.join(base, w[1]), text.getBytes(StandardCharsets.UTF_8));
            }
            case "mkdir" -> {
                if (w.length != 2 && w.length != 3) {
                    throw new IllegalArgumentException("mkdir needs REMOTE [MODE]");
                }
                yield new VMkdir(RemotePath.join(base, w[1]), w.length == 3 ? Modes.parse(w[2]) : VMkdir.DEFAULT_MODE);
            }
            case "rename" -> new VRename(remote(base, w, 1, 3), RemotePath.join(base, w[2]));
            case "remove" -> new VRemove(remote(base, w, 1, 2));
            case "symlink" -> new VSymlink(remote(base, w, 1, 3), w[2]);
            case "link" -> new VLink(remote(base, w, 1, 3), RemotePath.join(base, w[2]));
            case "chmod" -> {
                if (w.length != 3) {
                    throw new IllegalArgumentException("chmod needs MODE REMOTE");
                }
                yield VSetattr.mode(RemotePath.join(base, w[2]), Modes.parse(w[1]));
            }
            case "truncate" -> {
                String path = remote(base, w, 1, 3);
                try {
                    yield VSetattr.size(path, Long.parseLong(w[2]));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a size: " + w[2], e);
                }
            }
            default -> throw new IllegalArgumentException("unknown change '" + verb + "'");
        };
    }

    /** {@code w[index]} under {@code base}, checking the line has {@code words} words. */
    private static String remote(String base, String[] w, int index, int words) {
        if (w.length != words) {
            throw new IllegalArgumentException(w[0] + " takes " + (words - 1) + " arguments, not " + (w.length - 1));
        }
        return RemotePath.join(base, w[index]);
    }

    /** A write of the local file {@code p} read as it is sent (its size now), so any size fits in memory. */
    private static TxnItem streamed(String remote, Path p) throws CliException {
        try {
            if (!Files.isRegularFile(p)) {
                throw new java.nio.file.NoSuchFileException(p.toString());
            }
            return new VWriteFrom(remote, LocalData.of(p), 0, Files.size(p), VWrite.DEFAULT_MODE);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "manifest: " + p + ": " + LocalErrors.cause(e));
        }
    }

    private static byte[] local(Path localBase, String name) throws CliException {
        Path p = localBase.resolve(name);
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new CliException(ExitCode.LOCAL_IO, "manifest: " + p + ": " + LocalErrors.cause(e));
        }
    }

    private static String decode(String word, int line) throws CliException {
        try {
            return URLDecoder.decode(word.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, "manifest line " + line + ": bad escape in " + word);
        }
    }
}
