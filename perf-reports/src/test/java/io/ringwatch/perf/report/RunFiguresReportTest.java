package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report's figures beyond the percentile plots, on synthetic data: latency per second with GC
 * pauses placed under it, the JVM's CPU and collections, the spread of repeated runs, and human
 * units in the index.
 */
class RunFiguresReportTest
{
    private static final MachineInfo MACHINE =
        new MachineInfo(2, 8L << 30, "Test CPU", "Test OS", "Test JDK", List.of("-Xmx1g"), "abc123", 0.5);
    private static final RunActivity ACTIVITY = new RunActivity(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"),
        List.of(new GcPause(4.9, "G1 Young Generation", "end of minor GC", "G1 Evacuation Pause", 10),
            new GcPause(7.0, "G1 Concurrent GC", "end of concurrent GC pause", "G1 Evacuation Pause", 30),
            new GcPause(8.2, "G1 Young Generation", "end of minor GC", "G1 Evacuation Pause", 5)),
        5.0, 2.0, 2);

    @TempDir
    Path dir;

    @Test
    void latencyPerSecondIsDrawnPerPeerWithTheStallWhereItHappenedAndGcPausesUnderIt() throws IOException
    {
        ReportWriter.write(report(List.of(result("ringwatch", 20_000, ACTIVITY), result("juc", 400_000, RunActivity.NONE)),
            Map.of()), dir.resolve("run"));

        final String page = Files.readString(dir.resolve("run").resolve("index.html"));
        assertEquals(1, count(page, "<polyline class=\"p99\" data-series=\"ringwatch\""), page);
        assertEquals(1, count(page, "<polyline class=\"max\" data-series=\"ringwatch\""));
        assertEquals(1, count(page, "<polyline class=\"p99\" data-series=\"juc\""));
        assertEquals(2, count(page, "<rect class=\"gc\" data-series=\"ringwatch\""), "stop-the-world pauses only");
        assertTrue(page.contains("G1 Young Generation, G1 Evacuation Pause: 10.0 ms at 4.90 s"), page);
        final double[] ys = ys(page, "p99", "ringwatch");
        assertEquals(10, ys.length);
        for (int second = 0; second < ys.length; second++)
        {
            // The stall at second 5 is the highest point (the smallest y); every other second is lower.
            assertTrue(second == 4 || ys[second] > ys[4], "second " + (second + 1) + ": " + ys[second] + " vs " + ys[4]);
        }
    }

    @Test
    void theJvmTableAndSummaryShowCpuCollectorsAndPauses() throws IOException
    {
        final RunReport report = report(List.of(result("ringwatch", 20_000, ACTIVITY), result("juc", 400_000, RunActivity.NONE)),
            Map.of());
        ReportWriter.write(report, dir.resolve("run"));

        final String page = Files.readString(dir.resolve("run").resolve("index.html"));
        assertTrue(page.contains("<h2>JVM during each run</h2>"), page);
        assertTrue(page.contains("<td>5.0 s</td><td>2.0 s</td><td>2.50 of 2</td><td class=\"l\">G1 Young Generation, " +
            "G1 Concurrent GC, G1 Old Generation</td><td>2</td><td>15.00 ms</td><td>10.00 ms</td><td>1</td>"), page);
        assertTrue(page.contains("<td colspan=\"8\" class=\"l\">not recorded</td>"), page);
        final String summary = ReportWriter.summary(report);
        assertTrue(summary.contains("ringwatch  CPU 5.0 s in 2.0 s (2.50 of 2 cores busy); GC G1 Young Generation + " +
            "G1 Concurrent GC + G1 Old Generation: 2 pauses, 15.0 ms in all, longest 10.0 ms"), summary);
        final Properties properties = new Properties();
        properties.load(Files.newBufferedReader(dir.resolve("run").resolve("run.properties")));
        assertEquals("2", properties.getProperty("ringwatch.gcPauses"));
        assertEquals("10.0", properties.getProperty("ringwatch.gcMaxPauseMillis"));
        assertEquals("5.00", properties.getProperty("ringwatch.cpuSeconds"));
    }

    @Test
    void repeatedRunsShowMinMedianAndMaxOfEachPercentileAndPlotTheMedianRun() throws IOException
    {
        final List<PeerResult> runs = List.of(result("ringwatch", 40_000, ACTIVITY), result("ringwatch", 10_000, ACTIVITY),
            result("ringwatch", 20_000, ACTIVITY));
        final PeerResult median = Spread.medianRun(runs);
        assertSame(runs.get(2), median);

        final RunReport report = report(List.of(median), Map.of("ringwatch", runs));
        ReportWriter.write(report, dir.resolve("run"));

        final String page = Files.readString(dir.resolve("run").resolve("index.html"));
        assertTrue(page.contains("<h2>Spread over repeated runs</h2>"), page);
        assertTrue(page.contains("<tr><td class=\"l\" rowspan=\"3\">ringwatch</td><td rowspan=\"3\">3</td>" +
            "<td class=\"l\">min</td><td>5.0 µs</td><td>5.0 µs</td><td>10.0 µs</td>"), "min row: " + page);
        assertTrue(page.contains("<td class=\"l\">median</td><td><b>5.0 µs</b></td><td><b>5.0 µs</b></td><td><b>20.0 µs</b></td>"),
            "median row: " + page);
        assertTrue(page.contains("<td class=\"l\">max</td><td>5.0 µs</td><td>5.0 µs</td><td>40.0 µs</td>"), "max row: " + page);
        assertTrue(ReportWriter.summary(report).contains("ringwatch  3 runs: p50 5.0 µs / 5.0 µs / 5.0 µs;"),
            ReportWriter.summary(report));
        final double[] even = Spread.of(runs.subList(0, 2), 99);
        assertEquals(10.0, even[0], 0.1);
        assertEquals(25.0, even[1], 0.1);
        assertEquals(40.0, even[2], 0.1);
    }

    @Test
    void aSingleRunHasNoSpreadSection() throws IOException
    {
        ReportWriter.write(report(List.of(result("ringwatch", 20_000, ACTIVITY)), Map.of()), dir.resolve("run"));

        assertFalse(Files.readString(dir.resolve("run").resolve("index.html")).contains("Spread over repeated runs"));
    }

    @Test
    void theIndexShowsLatenciesAndRatesInHumanUnits() throws IOException
    {
        final Path run = dir.resolve("20260101-000000-slow");
        ReportWriter.write(report(List.of(result("juc", 49_593_450_500L, RunActivity.NONE)), Map.of()), run);

        final String index = Files.readString(ReportIndex.write(dir));

        assertTrue(index.contains("<th>p99</th>"), index);
        // HdrHistogram keeps three significant digits: 49.59 s is held as 49.63 s.
        assertTrue(index.matches("(?s).*<td>49\\.\\d\\d s</td>.*"), index);
        assertTrue(index.contains("<td>5.0 µs</td>"), "p50: " + index);
        assertTrue(index.contains("<td>199,000</td>"), "acked/s: " + index);
        assertTrue(index.contains("<td>1,000</td>"), "watchers: " + index);
        assertFalse(index.contains("49593450"), index);
        assertEquals("-", ReportIndex.latency(null));
        assertEquals("1.50 ms", ReportIndex.latency("1500.0"));
    }

    private static RunReport report(final List<PeerResult> results, final Map<String, List<PeerResult>> repeats)
    {
        final Map<String, String> options = new LinkedHashMap<>();
        options.put("rate", "1000");
        return new RunReport("figures", "", Instant.parse("2026-01-01T00:00:00Z"), MACHINE, options, results, repeats);
    }

    /**
     * A peer whose p99 is {@code nanos99}, with ten seconds of timeline and a stall in second 5.
     */
    private static PeerResult result(final String peer, final long nanos99, final RunActivity activity)
    {
        final Histogram delivery = new Histogram(3);
        final Histogram ack = new Histogram(3);
        final Histogram lag = new Histogram(3);
        for (int i = 0; i < 1_000; i++)
        {
            delivery.recordValue(i < 980 ? 5_000 : nanos99);
            ack.recordValue(2_000);
            lag.recordValue(100);
        }
        final List<TimelinePoint> timeline = new ArrayList<>();
        for (int second = 1; second <= 10; second++)
        {
            final long p99 = second == 5 ? 30_000_000L : 50_000L + second * 1_000L;
            timeline.add(new TimelinePoint(second, 100, 5_000, p99, p99, p99 * 2));
        }
        return new PeerResult(peer, peer + " as tested", 200_000, 1_200, 1_000, 1_000, 1, 1_200, 1_200,
            delivery, ack, lag, 200_000, 199_000, 199_000, true, 0, Map.of(), List.of(), timeline, activity);
    }

    private static double[] ys(final String page, final String kind, final String peer)
    {
        final Matcher points = Pattern.compile("<polyline class=\"" + kind + "\" data-series=\"" + peer + "\"[^>]* points=\"([^\"]+)\"")
            .matcher(page);
        assertTrue(points.find(), page);
        final String[] xy = points.group(1).split(" ");
        final double[] ys = new double[xy.length];
        for (int i = 0; i < xy.length; i++)
        {
            ys[i] = Double.parseDouble(xy[i].split(",")[1]);
        }
        return ys;
    }

    private static int count(final String text, final String part)
    {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1))
        {
            count++;
        }
        return count;
    }
}
