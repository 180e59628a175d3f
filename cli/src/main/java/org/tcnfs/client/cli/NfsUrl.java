package org.tcnfs.client.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import org.tcnfs.client.vector.RemotePath;

/**
 * A remote location {@code nfs://host[:port]/path}: the path is taken from the server's root (for tcnfs, the
 * exported directory), percent-escapes decoded. The port is 2049 unless given.
 *
 * @param host the server's name or address
 * @param port its NFS port
 * @param path the normalized path inside the server's name space ({@code ""} for the root)
 */
public record NfsUrl(String host, int port, String path) {
    /** The NFS port unless a URL names another. */
    public static final int DEFAULT_PORT = 2049;

    public NfsUrl {
        Objects.requireNonNull(host, "host");
        path = RemotePath.normalize(path);
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException("host " + host + ", port " + port);
        }
    }

    /** Whether {@code text} looks like an NFS URL (and not a local path). */
    public static boolean isUrl(String text) {
        return text.startsWith("nfs://");
    }

    /**
     * Parses {@code nfs://host[:port]/path}.
     *
     * @throws IllegalArgumentException with a message for the user when it is not one
     */
    public static NfsUrl parse(String text) {
        if (!isUrl(text)) {
            throw new IllegalArgumentException("not an nfs:// URL: " + text);
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad URL " + text + ": " + e.getReason(), e);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host in " + text);
        }
        if (uri.getQuery() != null || uri.getFragment() != null || uri.getUserInfo() != null) {
            throw new IllegalArgumentException("unexpected user, query or fragment in " + text);
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        return new NfsUrl(host, uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                uri.getPath() == null ? "" : uri.getPath());
    }

    /** Whether the text of the URL ended with a slash (a directory is meant). */
    public static boolean endsWithSlash(String text) {
        return text.endsWith("/");
    }

    /** The same server with another path. */
    public NfsUrl withPath(String newPath) {
        return new NfsUrl(host, port, newPath);
    }

    /** Whether both are on the same server. */
    public boolean sameServer(NfsUrl other) {
        return host.equals(other.host) && port == other.port;
    }

    @Override
    public String toString() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return "nfs://" + h + (port == DEFAULT_PORT ? "" : ":" + port) + "/" + path;
    }
}
