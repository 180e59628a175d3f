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
}
