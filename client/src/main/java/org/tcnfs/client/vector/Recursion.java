package org.tcnfs.client.vector;

/** Whether {@link VnfsClient#vlistdir} descends into subdirectories. */
public enum Recursion {
    /** Only the directory's own entries. */
    FLAT,
    /** Every entry beneath the directory, level by level (one vectorized round per level). */
    RECURSIVE
}
