package org.tcnfs.jmh.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** CSV and markdown renderings of results (pure functions of their arguments). */
final class Report {
    static final String CSV_HEADER =
            "workload,parameter,target,ops,bytes,seconds,ops_per_second,mib_per_second,error";

    private Report() {
    }

    /** One line per result after a header; fields with commas or quotes are quoted. */
    static String csv(List<Result> results) {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (Result r : results) {
            b.append(field(r.workload())).append(',').append(field(r.parameter())).append(',')
                    .append(field(r.target())).append(',').append(r.ops()).append(',').append(r.bytes()).append(',')
                    .append(String.format(Locale.ROOT, "%.4f", r.seconds())).append(',')
                    .append(number(r.opsPerSecond(), "%.2f")).append(',')
                    .append(number(r.mibPerSecond(), "%.3f")).append(',')
                    .append(field(r.error())).append('\n');
        }
        return b.toString();
    }

    static String field(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
    }

    /**
     * A markdown table: one row per workload and parameter, the throughput (items per second) of each target, then
     * each other target's throughput divided by {@code baseline}'s and by {@code reference}'s (above 1 is faster).
     * Targets appear in the order of {@code targets}; a failed run shows "failed", a missing one "-".
     */
    static String markdown(List<Result> results, List<String> targets, String baseline, String reference) {
        Map<String, Map<String, Result>> rows = new LinkedHashMap<>();
        for (Result r : results) {
            rows.computeIfAbsent(r.workload() + "\u0000" + r.parameter(), k -> new LinkedHashMap<>())
                    .put(r.target(), r);
        }
        Set<String> names = new LinkedHashSet<>(targets);
        List<String> header = new ArrayList<>(List.of("workload", "parameter"));
        for (String t : names) {
            header.add(t + " ops/s");
        }
        List<String> overBase = names.contains(baseline)
                ? names.stream().filter(t -> !t.equals(baseline)).toList() : List.of();
        List<String> overRef = names.contains(reference)
                ? names.stream().filter(t -> !t.equals(reference)).toList() : List.of();
        for (String t : overBase) {
            header.add(t + " / " + baseline);
        }
        for (String t : overRef) {
            header.add(t + " / " + reference);
        }
        StringBuilder b = new StringBuilder();
        line(b, header);
        List<String> rule = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            rule.add(i < 2 ? "---" : "---:");
        }
        line(b, rule);
        for (Map.Entry<String, Map<String, Result>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\u0000", -1);
            Map<String, Result> byTarget = row.getValue();
            List<String> cells = new ArrayList<>(List.of(key[0], key[1]));
            for (String t : names) {
                Result r = byTarget.get(t);
                cells.add(r == null ? "-" : !r.ok() ? "failed" : fmt(r.opsPerSecond()));
            }
            for (String t : overBase) {
                cells.add(ratio(byTarget.get(t), byTarget.get(baseline)));
            }
            for (String t : overRef) {
                cells.add(ratio(byTarget.get(t), byTarget.get(reference)));
            }
            line(b, cells);
        }
        return b.toString();
    }

    /** The target name scripts/bench.sh gives tcnfs's second export, which has the {@code async} option. */
    static final String ASYNC_TARGET = "tcnfs-async";

    /**
     * What the ratios to {@code reference} compare when the targets hold both {@value #ASYNC_TARGET} and
     * {@code baseline} (tcnfs's default, {@code sync}) next to {@code reference}; empty otherwise.
     */
    static String durabilityNote(List<String> targets, String baseline, String reference) {
        if (!targets.contains(ASYNC_TARGET) || !targets.contains(baseline) || !targets.contains(reference)) {
            return "";
        }
        return ASYNC_TARGET + " / " + reference + " compares like with like in durability: " + ASYNC_TARGET
                + " is an export of the same tcnfs server with the async option, whose plain name changes reply "
                + "before their directory fsyncs, as " + reference + "'s VFS back end does (docs/durability.md). "
                + baseline + " / " + reference + " compares tcnfs's default (sync: every plain name change durable "
                + "before its reply).";
    }

    /** {@code a}'s throughput over {@code b}'s, two decimals, "-" when either is missing or failed. */
    static String ratio(Result a, Result b) {
        if (a == null || b == null || !a.ok() || !b.ok()) {
            return "-";
        }
        double r = a.opsPerSecond() / b.opsPerSecond();
        return Double.isNaN(r) || Double.isInfinite(r) ? "-" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void line(StringBuilder b, List<String> cells) {
        b.append('|');
        for (String c : cells) {
            b.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        b.append('\n');
    }

    static final String HEAP_CSV_HEADER =
            "workload,parameter,target,heap_peak_bytes,direct_peak_bytes,heap_max_bytes,samples";

    /** One line per sampled run after a header (bytes as the server reported them, -1 for not exposed). */
    static String heapCsv(List<HeapSampler.Peak> peaks) {
        StringBuilder b = new StringBuilder(HEAP_CSV_HEADER).append('\n');
        for (HeapSampler.Peak p : peaks) {
            b.append(field(p.workload())).append(',').append(field(p.parameter())).append(',')
                    .append(field(p.target())).append(',').append(p.heapBytes()).append(',')
                    .append(p.directBytes()).append(',').append(p.heapMaxBytes()).append(',').append(p.samples())
                    .append('\n');
        }
        return b.toString();
    }

    /**
     * A markdown table of the server's peak heap (and direct buffer memory) during each sampled run, in MiB: one
     * row per workload and parameter, two columns per sampled target in the order of {@code targets}; "-" where
     * a run was not sampled.
     */
    static String heapMarkdown(List<HeapSampler.Peak> peaks, List<String> targets) {
        Set<String> sampled = new LinkedHashSet<>();
        Map<String, Map<String, HeapSampler.Peak>> rows = new LinkedHashMap<>();
        for (HeapSampler.Peak p : peaks) {
            rows.computeIfAbsent(p.workload() + "\u0000" + p.parameter(), k -> new LinkedHashMap<>())
                    .put(p.target(), p);
        }
        for (String t : targets) {
            if (peaks.stream().anyMatch(p -> p.target().equals(t))) {
                sampled.add(t);
            }
        }
        List<String> header = new ArrayList<>(List.of("workload", "parameter"));
        for (String t : sampled) {
            header.add(t + " heap peak MiB");
            header.add(t + " direct peak MiB");
        }
        StringBuilder b = new StringBuilder();
        line(b, header);
        List<String> rule = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            rule.add(i < 2 ? "---" : "---:");
        }
        line(b, rule);
        for (Map.Entry<String, Map<String, HeapSampler.Peak>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\u0000", -1);
            List<String> cells = new ArrayList<>(List.of(key[0], key[1]));
            for (String t : sampled) {
                HeapSampler.Peak p = row.getValue().get(t);
                cells.add(p == null ? "-" : mib(p.heapBytes()));
                cells.add(p == null ? "-" : mib(p.directBytes()));
            }
            line(b, cells);
        }
        return b.toString();
    }

    /** Bytes as MiB with no decimals, "-" for unknown (negative). */
    static String mib(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f", bytes / (1024.0 * 1024.0));
    }
}
