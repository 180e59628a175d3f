/**
 * The tcnfs server process: {@link org.tcnfs.server.Main} (command line) and
 * {@link org.tcnfs.server.TcnfsServer} (the running server, also usable embedded through its builder).
 * Subpackages hold the local file system ({@code fs}), the configuration ({@code config}) and the metrics
 * with the HTTP endpoints {@code /metrics}, {@code /health} and {@code /status} ({@code metrics}).
 */
package org.tcnfs.server;
