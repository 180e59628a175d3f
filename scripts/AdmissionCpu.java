import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import org.tcnfs.jmh.PlanningBenchmark;

/**
 * Thread CPU nanoseconds per call of {@code PlanningBenchmark}'s methods (plan, lock, check one compound; issue 16,
 * docs/benchmarks.md "planning and locking of the short compounds"): after a warm-up, the least of seven batches,
 * which a loaded machine does not inflate the way it does JMH's wall-clock scores. Runs against any build's
 * benchmarks jar: {@code java -cp jmh/target/benchmarks.jar scripts/AdmissionCpu.java admitGetattr admitWrite ...}.
 */
public class AdmissionCpu {
    public static void main(String[] names) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        PlanningBenchmark bench = new PlanningBenchmark();
        bench.setUp();
        try {
            for (String name : names) {
                Method method = PlanningBenchmark.class.getMethod(name);
                int calls = name.equals("admitRmBatch") ? 2_000 : 100_000;
                for (int i = 0; i < 3 * calls; i++) {
                    method.invoke(bench);
                }
                long least = Long.MAX_VALUE;
                for (int batch = 0; batch < 7; batch++) {
                    long start = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < calls; i++) {
                        method.invoke(bench);
                    }
                    least = Math.min(least, (threads.getCurrentThreadCpuTime() - start) / calls);
                }
                System.out.printf("%-22s %8d ns CPU per call%n", name, least);
            }
        } finally {
            bench.tearDown();
        }
    }
}
