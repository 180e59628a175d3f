/**
 * NFSv4 wire types (RFC 7530, RFC 8881 and their XDR in RFC 7531 and RFC 5662), nothing else.
 *
 * <p>Types keep their RFC names ({@code READ4args}, {@code stateid4}) and public fields so that they grep
 * together with the RFC; they hold no logic beyond encoding and decoding. Operations convert them into
 * records on their first lines. Every variable-length item is decoded with a bound (see
 * {@link org.tcnfs.nfs4.xdr.XdrSupport}); a violated bound or short input is a
 * {@link org.dcache.oncrpc4j.xdr.BadXdrOncRpcException}, which the RPC layer answers with GARBAGE_ARGS.
 * {@link org.tcnfs.nfs4.xdr.OperationCodecs} maps operation numbers to their argument and result types.
 *
 * <p>Instances are mutable and not thread-safe; each belongs to one request.
 */
package org.tcnfs.nfs4.xdr;
