package org.tcnfs.client.vector;

/**
 * An item of {@link VnfsClient#vtxn}: the kinds of change that may be mixed in one transaction. Each names
 * the path(s) it changes, relative to the export.
 */
public sealed interface TxnItem permits VWrite, VWriteFrom, VRename, VRemove, VMkdir, VSetattr, VSymlink, VLink {
}
