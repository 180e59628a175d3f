package org.tcnfs.nfs4.vfs;

/**
 * What a write did.
 *
 * @param count bytes written
 * @param committed how durable the bytes are now (at least what was asked)
 */
public record WriteResult(int count, WriteStability committed) {
}
