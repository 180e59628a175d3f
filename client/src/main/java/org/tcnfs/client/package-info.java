/**
 * The Java NFSv4.1 client: {@link org.tcnfs.client.CompoundBuilder} (a fluent builder of COMPOUND4args
 * on the XDR types of {@code org.tcnfs.nfs4.xdr}), {@link org.tcnfs.client.Nfs41Session} (EXCHANGE_ID,
 * CREATE_SESSION and SEQUENCE slots over an {@link org.tcnfs.client.rpc.NfsConnection}),
 * {@link org.tcnfs.client.CompoundResult} (a reply with accessors by operation) and
 * {@link org.tcnfs.client.Attrs} (attribute values to and from {@code fattr4}). The vectorized API built on
 * them is {@link org.tcnfs.client.vector.VnfsClient}; single files of any size stream through {@link
 * org.tcnfs.client.stream.RemoteFiles} on its session; the {@code tcnfs} command line ({@code org.tcnfs.client.cli})
 * is the separate artifact {@code tcnfs-cli}. This library needs only {@code tcnfs-nfs4-xdr}, oncrpc4j and
 * slf4j-api.
 *
 * <p>Threading: builders are not thread-safe; a session is (one slot per concurrent call). Exceptions:
 * transport and RPC failures are {@link java.io.IOException}s; NFS statuses stay in the
 * {@code CompoundResult} until {@link org.tcnfs.client.CompoundResult#orThrow()} turns a failure into the
 * status's {@link org.tcnfs.nfs4.status.NfsException}.
 */
package org.tcnfs.client;
