package org.tcnfs.client.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * The cause of a local file error in plain words for a one-line message ({@code "a.c: no such file or
 * directory"}): NIO's exceptions carry only the path as their message, which printed after the path gave
 * {@code "a.c: a.c"}.
 */
final class LocalErrors {
    private LocalErrors() {
    }

    /** What went wrong with the file, without its path. */
    static String cause(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            return "permission denied";
        } else if (e instanceof NotDirectoryException) {
            return "not a directory";
        } else if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        } else if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getMessage() != null ? e.getMessage() : "input or output error";
    }

    /** {@link #cause} after the file's path, when the exception names one ("a.c: no such file or directory"). */
    static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return f.getFile() + ": " + cause(e);
        }
        return cause(e);
    }
}
