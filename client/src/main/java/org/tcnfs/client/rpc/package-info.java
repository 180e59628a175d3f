/**
 * Low-level NFSv4 RPC for clients and tests: {@link org.tcnfs.client.rpc.NfsConnection} (one TCP
 * connection over oncrpc4j's client mode: NULL, COMPOUND with any procedure number and credential, raw
 * argument bytes), {@link org.tcnfs.client.rpc.RawRpcSocket} (record marking over a plain socket, for
 * input no RPC library would produce) and {@link org.tcnfs.client.rpc.AuthSys} credentials.
 *
 * <p>Threading: an {@code NfsConnection} may be used by several threads at once; a {@code RawRpcSocket}
 * by one. Exceptions: transport failures are {@link java.io.IOException}s, a missing reply is a
 * {@link java.net.SocketTimeoutException}, and a reply that carries no result (GARBAGE_ARGS,
 * PROC_UNAVAIL, a denied call) is a {@link org.tcnfs.client.rpc.RpcReplyException}. NFS statuses inside
 * a COMPOUND result are not exceptions at this level.
 */
package org.tcnfs.client.rpc;
