import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;

/**
 * Thread CPU nanoseconds per call of a JMH benchmark's methods, by default {@code org.tcnfs.jmh.PlanningBenchmark}'s
 * (plan, lock, check one compound; issue 16, docs/benchmarks.md "planning and locking of the short compounds"): after
 * a warm-up, the least of seven batches, which a loaded machine does not inflate the way it does JMH's wall-clock
 * scores. Runs against any build's benchmarks jar: {@code java -cp jmh/target/benchmarks.jar
 * scripts/AdmissionCpu.java admitGetattr admitWrite ...}; another benchmark class (with {@code setUp} and
 * {@code tearDown} methods) named first: {@code ... scripts/AdmissionCpu.java org.tcnfs.jmh.HotPathBenchmark
 * operationSet}.
 */
public class AdmissionCpu {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean named = args.length > 0 && args[0].contains(".");
        Class<?> type = Class.forName(named ? args[0] : "org.tcnfs.jmh.PlanningBenchmark");
        Object bench = type.getConstructor().newInstance();
        type.getMethod("setUp").invoke(bench);
        try {
            for (int n = named ? 1 : 0; n < args.length; n++) {
                String name = args[n];
                Method method = type.getMethod(name);
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
                System.out.printf("%-34s %8d ns CPU per call%n", name, least);
            }
        } finally {
            type.getMethod("tearDown").invoke(bench);
        }
    }
}
