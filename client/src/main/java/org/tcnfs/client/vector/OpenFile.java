package org.tcnfs.client.vector;

import java.util.Objects;

/**
 * A file opened by {@link VnfsClient#vopen}: its handle and open stateid, for {@link VnfsClient#vclose}.
 *
 * @param path the path it was opened by
 * @param handle the file handle
 * @param stateidSeqid the open stateid's seqid
 * @param stateidOther the open stateid's {@code other} (12 bytes)
 */
public record OpenFile(String path, byte[] handle, int stateidSeqid, byte[] stateidOther) {
    public OpenFile {
        Objects.requireNonNull(path, "path");
        handle = handle.clone();
        stateidOther = stateidOther.clone();
        if (stateidOther.length != 12) {
            throw new IllegalArgumentException("stateid other of " + stateidOther.length + " bytes");
        }
    }

    @Override
    public byte[] handle() {
        return handle.clone();
    }

    @Override
    public byte[] stateidOther() {
        return stateidOther.clone();
    }
}
