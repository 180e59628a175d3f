/**
 * The tcnfs server process: {@link org.tcnfs.server.Main} (command line) and
 * {@link org.tcnfs.server.TcnfsServer} (the running server, also usable embedded). Subpackages hold the
 * local file system ({@code fs}) and the configuration ({@code config}).
 */
package org.tcnfs.server;
