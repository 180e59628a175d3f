/**
 * The NFS RPC program on oncrpc4j ({@link org.tcnfs.nfs4.rpc.NfsRpcService}) and the server that puts
 * the protocol together ({@link org.tcnfs.nfs4.rpc.NfsServer}).
 */
package org.tcnfs.nfs4.rpc;
