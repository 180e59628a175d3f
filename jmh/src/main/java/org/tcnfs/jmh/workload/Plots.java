package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/** PNG bar charts of results: one per workload, parameters on the x axis, one bar per target. */
final class Plots {
    private Plots() {
    }

    /**
     * Writes {@code <dir>/<workload>.png} for every workload.
     *
     * @return the files written
     */
    static List<Path> write(List<Result> results, List<String> targets, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<Result>> byWorkload = new LinkedHashMap<>();
        for (Result r : results) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r);
        }
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, List<Result>> w : byWorkload.entrySet()) {
            Set<String> params = new LinkedHashSet<>();
            w.getValue().forEach(r -> params.add(r.parameter()));
            List<String> x = new ArrayList<>(params);
            CategoryChart chart = new CategoryChartBuilder().width(1000).height(520).title(w.getKey())
                    .xAxisTitle("parameter").yAxisTitle("items per second (higher is better)").build();
            chart.getStyler().setXAxisLabelRotation(x.size() > 4 ? 30 : 0);
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
            for (String t : targets) {
                List<Number> y = new ArrayList<>();
                boolean any = false;
                for (String p : x) {
                    double v = w.getValue().stream().filter(r -> r.target().equals(t) && r.parameter().equals(p))
                            .mapToDouble(Result::opsPerSecond).filter(d -> !Double.isNaN(d)).findFirst().orElse(0);
                    any |= v > 0;
                    y.add(v);
                }
                if (any) {
                    chart.addSeries(t, x, y);
                }
            }
            if (chart.getSeriesMap().isEmpty()) {
                continue;
            }
            Path file = dir.resolve(w.getKey() + ".png");
            BitmapEncoder.saveBitmap(chart, dir.resolve(w.getKey()).toString(), BitmapEncoder.BitmapFormat.PNG);
            written.add(file);
        }
        return written;
    }
}
