/**
 * The durable records of the transaction layer, as Java values, and their protobuf encoding.
 *
 * <p><b>Contents.</b> {@link org.tcnfs.proto.RecoveryRecord}: what a transactional COMPOUND needs to be taken
 * back after a crash (DESIGN.md step 5): transaction id, export, backup directory, the plan's
 * {@link org.tcnfs.proto.LockKey}s, {@link org.tcnfs.proto.PreImage}s and one
 * {@link org.tcnfs.proto.UndoStep} per change ({@code RestoreRanges}, {@code RestoreSize},
 * {@code RemoveCreated}, {@code UnlinkLink}, {@code MoveBack}, {@code RenameBack},
 * {@code RestoreAttributes}), with the undo progress. {@link org.tcnfs.proto.TxnIdState}: where transaction
 * ids continue after a restart. Their parts: {@link org.tcnfs.proto.ObjectRef} (a path relative to the
 * export root, a {@link org.tcnfs.proto.RelativePath}, with the object's {@link org.tcnfs.proto.ObjectHandle}
 * and file id), {@link org.tcnfs.proto.SavedRange}, {@link org.tcnfs.proto.Attributes}.
 * {@link org.tcnfs.proto.RecoveryRecords} encodes and decodes them; the schema is
 * {@code src/main/proto/tcnfs/recovery.proto}, compiled at build time into
 * {@code org.tcnfs.proto.recovery}, which only this package uses: no protobuf type leaves the module.
 *
 * <p><b>Threading.</b> All values are immutable records and thread-safe; {@code RecoveryRecord.Builder}
 * is not. {@code RecoveryRecords} is stateless.
 *
 * <p><b>Exceptions.</b> Constructors and builders throw {@link java.lang.IllegalArgumentException} for values
 * that break a record's rules (a negative size, a path with "..", overlapping ranges ...) and
 * {@link java.lang.NullPointerException} for nulls. Decoding throws the checked
 * {@link org.tcnfs.proto.InvalidRecordException} (an {@link java.io.IOException}), and nothing else, for
 * bytes that are not a valid record.
 */
package org.tcnfs.proto;
