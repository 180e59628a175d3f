package org.tcnfs.nfs4.vfs;

import java.net.InetAddress;

/**
 * Gives each request the file system it may see: the exports (joined under a pseudo root) as the caller
 * at {@code client} with credential {@code credential} may use them. The view applies export options (read
 * only, squashing) and owner/group/mode checks; operations use nothing else.
 */
@FunctionalInterface
public interface FileSystemProvider {
    VirtualFileSystem forCaller(Credential credential, InetAddress client);

    /**
     * Marks the start of a request that will use views of this provider, until the returned {@link Use} is
     * closed: a provider whose exports change (a reload) keeps the file systems of removed exports open until
     * every request that began before the change has ended. The default keeps nothing.
     */
    default Use enter() {
        return Use.NONE;
    }

    /** One request's use of a provider's file systems; {@link #close()} ends it (once). */
    @FunctionalInterface
    interface Use extends AutoCloseable {
        /** A use that holds nothing. */
        Use NONE = () -> { };

        @Override
        void close();
    }
}
