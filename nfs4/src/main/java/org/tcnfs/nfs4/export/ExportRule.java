package org.tcnfs.nfs4.export;

import java.util.Objects;

/**
 * One {@code client(options)} item of an export: the options that apply to the clients {@code clients}
 * matches.
 *
 * @param clients which clients the rule is for
 * @param options what they may do
 */
public record ExportRule(ClientMatcher clients, ExportOptions options) {
    public ExportRule {
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(options, "options");
    }

    /** A rule for every client ({@code *}). */
    public static ExportRule everyone(ExportOptions options) {
        return new ExportRule(ClientMatcher.any(), options);
    }

    @Override
    public String toString() {
        return clients + "(" + options + ")";
    }
}
