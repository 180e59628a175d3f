package org.tcnfs.nfs4.vfs;

/**
 * What a read returned.
 *
 * @param count bytes placed in the caller's buffer
 * @param eof whether the read reached the end of the file
 */
public record ReadResult(int count, boolean eof) {
}
