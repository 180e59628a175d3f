package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's Prometheus endpoint (tcnfs: {@code --metrics-port}, path {@code /metrics}), read over HTTP, and
 * sums of its series. Thread-safe.
 */
final class ServerMetrics {
    private static final Pattern LABEL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final URI uri;
    private final HttpClient http;

    ServerMetrics(URI uri) {
        this.uri = uri;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    URI uri() {
        return uri;
    }

    /**
     * The endpoint's text now.
     *
     * @throws IOException when it cannot be read or does not answer 200
     */
    String scrape() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(uri + " answered " + r.statusCode());
            }
            return r.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("scraping " + uri);
        }
    }

    /**
     * The sum of the values of every series named exactly {@code metric} whose labels include each of
     * {@code labels} (alternating names and values); NaN when there is none. Negative values (Micrometer's "no
     * maximum", -1) are left out of the sum.
     */
    static double sum(String text, String metric, String... labels) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name, value pairs");
        }
        double total = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#' || !line.startsWith(metric)) {
                continue;
            }
            int end = metric.length();
            if (line.length() == end || (line.charAt(end) != '{' && line.charAt(end) != ' ')) {
                continue;
            }
            Map<String, String> have = new LinkedHashMap<>();
            String rest = line.substring(end);
            if (rest.charAt(0) == '{') {
                int close = rest.lastIndexOf('}');
                if (close < 0) {
                    continue;
                }
                Matcher m = LABEL.matcher(rest.substring(1, close));
                while (m.find()) {
                    have.put(m.group(1), m.group(2));
                }
                rest = rest.substring(close + 1);
            }
            boolean match = true;
            for (int i = 0; i < labels.length; i += 2) {
                match &= labels[i + 1].equals(have.get(labels[i]));
            }
            String[] fields = rest.trim().split("\\s+");
            if (!match || fields.length == 0 || fields[0].isEmpty()) {
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(fields[0]);
            } catch (NumberFormatException e) {
                continue;
            }
            found = true;
            if (v >= 0 && !Double.isNaN(v)) {
                total += v;
            }
        }
        return found ? total : Double.NaN;
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
