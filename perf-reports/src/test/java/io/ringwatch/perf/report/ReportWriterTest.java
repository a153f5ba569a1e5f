package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportWriterTest
{
    @TempDir
    Path dir;

    @Test
    void writesThePageTheSummaryAndEveryHistogram() throws IOException
    {
        final RunReport report = report();

        final List<Path> files = ReportWriter.write(report, dir.resolve("run-1"));

        for (final String name : List.of("index.html", "summary.txt", "run.properties",
            "ringwatch-write-to-listener.hgrm", "ringwatch-write-ack.hgrm", "ringwatch-send-lag.hgrm",
            "juc-write-to-listener.hgrm", "juc-write-ack.hgrm", "juc-send-lag.hgrm"))
        {
            final Path file = dir.resolve("run-1").resolve(name);
            assertTrue(files.contains(file), name);
            assertTrue(Files.size(file) > 0, name);
        }
        final String hgrm = Files.readString(dir.resolve("run-1").resolve("ringwatch-write-to-listener.hgrm"));
        assertTrue(hgrm.contains("Value     Percentile TotalCount 1/(1-Percentile)"), hgrm);
        assertTrue(hgrm.matches("(?s).*Total count\\s+=\\s+1000].*"), hgrm);
    }

    @Test
    void thePagePlotsEveryPeerOnTheSameAxesWithoutScripts() throws IOException
    {
        ReportWriter.write(report(), dir.resolve("run-1"));

        final String page = Files.readString(dir.resolve("run-1").resolve("index.html"));
        assertEquals(2, count(page, "<polyline class=\"series\" data-series=\"ringwatch\""), "one line per latency plot");
        assertEquals(2, count(page, "<polyline class=\"series\" data-series=\"juc\""), "one line per latency plot");
        assertEquals(3, count(page, "<svg "), "two latency plots and the throughput bars");
        assertEquals(3, count(page, "<rect class=\"bar\" data-series=\"juc\""));
        assertTrue(page.contains(">99.9%<"), "percentile axis labels");
        assertTrue(page.contains("target p99 50 µs"));
        assertEquals(0, count(page, "<script"), "no script");
        assertEquals(0, count(page, "src=\"http") + count(page, "href=\"http"), "nothing fetched");
        assertTrue(page.contains("ringwatch-write-to-listener.hgrm"));
        assertTrue(page.contains("cores"));
    }

    @Test
    void theDisruptorFloorIsADashedGreyLineMarkedAsTheFloor() throws IOException
    {
        final RunReport report = new RunReport("floor run", "", Instant.parse("2026-01-01T00:00:00Z"), report().machine(),
            Map.of(), List.of(result("ringwatch", 20_000), result("disruptor", 10_000), result("juc", 400_000)));

        ReportWriter.write(report, dir.resolve("run-1"));

        final String page = Files.readString(dir.resolve("run-1").resolve("index.html"));
        assertEquals(2, count(page, "<polyline class=\"series\" data-series=\"disruptor\" fill=\"none\" stroke=\"#555555\" " +
            "stroke-width=\"2\" stroke-dasharray="), "the floor is dashed in both latency plots");
        assertEquals(0, count(page, "data-series=\"ringwatch\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" " +
            "stroke-dasharray="), "other peers are solid");
        assertEquals(2, count(page, ">disruptor (floor)<"), "legend");
        assertTrue(page.contains("is the floor"), "the page says what the floor is");
        assertTrue(Files.readString(dir.resolve("run-1").resolve("run.properties")).contains("peers=ringwatch,disruptor,juc"));
        assertTrue(Files.exists(dir.resolve("run-1").resolve("disruptor-write-to-listener.hgrm")));
    }

    @Test
    void aRunWithoutTheFloorSaysNothingAboutIt() throws IOException
    {
        ReportWriter.write(report(), dir.resolve("run-1"));

        final String page = Files.readString(dir.resolve("run-1").resolve("index.html"));
        assertEquals(0, count(page, "stroke-dasharray"));
        assertEquals(0, count(page, "is the floor"));
    }

    @Test
    void theSummaryStatesFiguresAndTargets()
    {
        final String summary = ReportWriter.summary(report());

        assertTrue(summary.contains("ringwatch"), summary);
        assertTrue(summary.contains("juc"), summary);
        assertTrue(summary.contains("p99.99"), summary);
        assertTrue(summary.contains("target ringwatch: p99 write-to-listener 20.0 µs (target <= 50.0 µs): met"), summary);
        assertTrue(summary.contains("options: rate=1000 watchers=1000"), summary);
    }

    @Test
    void theSummaryComparesEachPersistentRunWithTheInMemoryRunOfTheSameInvocation()
    {
        final RunReport report = new RunReport("persistence run", "", Instant.parse("2026-01-01T00:00:00Z"), report().machine(),
            Map.of(), List.of(result("ringwatch", 20_000), result("ringwatch-async", 30_000), result("ringwatch-sync", 100_000)));

        final String summary = ReportWriter.summary(report);

        assertTrue(summary.contains("persistence ringwatch-async: p99 write-to-listener 30.0 µs vs 20.0 µs in memory, " +
            "same run: 1.50x;"), summary);
        assertTrue(summary.contains("(target <= 2x): met"), summary);
        assertTrue(summary.contains("persistence ringwatch-sync: p99 write-to-listener 100.0 µs vs 20.0 µs in memory, " +
            "same run: 5.00x;"), summary);
    }

    @Test
    void theSummaryComparesEachRingWatchServerRunWithEtcdOnAllThreeTargets()
    {
        final RunReport report = new RunReport("server run", "", Instant.parse("2026-01-01T00:00:00Z"), report().machine(),
            Map.of(), List.of(result("ringwatch-server-sync", 20_000), result("etcd", 2_000_000)));

        final String summary = ReportWriter.summary(report);

        assertTrue(summary.contains("ringwatch-server-sync vs etcd, puts/s acknowledged: 199,000 vs 199,000: 1.00x " +
            "(target >= 10x): MISSED"), summary);
        assertTrue(summary.contains("ringwatch-server-sync vs etcd, events/s delivered: 199,000 vs 199,000: 1.00x " +
            "(target >= 10x): MISSED"), summary);
        assertTrue(summary.contains("ringwatch-server-sync vs etcd, p99 write-to-listener: 20.0 µs vs 2.00 ms: " +
            "99.97x lower (target >= 10x): met"), summary);
    }

    @Test
    void aRingWatchServerRunWithoutEtcdBesideItIsNotCompared()
    {
        final RunReport report = new RunReport("server only", "", Instant.parse("2026-01-01T00:00:00Z"), report().machine(),
            Map.of(), List.of(result("ringwatch-server", 20_000)));

        assertFalse(ReportWriter.summary(report).contains("vs etcd"));
    }

    @Test
    void aPersistentRunWithoutAnInMemoryRunBesideItIsNotCompared()
    {
        final RunReport report = new RunReport("async only", "", Instant.parse("2026-01-01T00:00:00Z"), report().machine(),
            Map.of(), List.of(result("ringwatch-async", 30_000)));

        assertFalse(ReportWriter.summary(report).contains("persistence ringwatch-async"));
    }

    @Test
    void theIndexListsEveryRunNewestFirst() throws IOException
    {
        ReportWriter.write(report(), dir.resolve("20260101-000000-a"));
        ReportWriter.write(report(), dir.resolve("20260102-000000-b"));
        Files.createDirectories(dir.resolve("not-a-run"));

        final String index = Files.readString(ReportIndex.write(dir));

        final int newer = index.indexOf("20260102-000000-b/index.html");
        final int older = index.indexOf("20260101-000000-a/index.html");
        assertTrue(newer > 0 && older > newer, index);
        assertTrue(!index.contains("not-a-run"), index);
        assertEquals(2, count(index, "<td class=\"l\">juc</td>"));
    }

    @Test
    void thePlotPlacesPointsOnTheLogAxes()
    {
        final Histogram h = new Histogram(3);
        for (int i = 1; i <= 100; i++)
        {
            h.recordValue(i * 1_000L);
        }

        final String svg = PercentilePlot.svg("t", List.of(new PercentilePlot.Series("s", "#000", false, h)), List.of());

        final Matcher points = Pattern.compile("points=\"([^\"]+)\"").matcher(svg);
        assertTrue(points.find(), svg);
        final String[] xy = points.group(1).split(" ");
        double previousX = -1;
        double previousY = Double.MAX_VALUE;
        for (final String point : xy)
        {
            final double x = Double.parseDouble(point.split(",")[0]);
            final double y = Double.parseDouble(point.split(",")[1]);
            assertTrue(x >= previousX && y <= previousY, "percentile and latency rise left to right, up: " + point);
            previousX = x;
            previousY = y;
        }
        assertTrue(svg.contains(">1 µs<") && svg.contains(">100 µs<"), "decade labels");
    }

    private static RunReport report()
    {
        final Map<String, String> options = new LinkedHashMap<>();
        options.put("rate", "1000");
        options.put("watchers", "1000");
        final MachineInfo machine = new MachineInfo(2, 8L << 30, "Test CPU", "Test OS", "Test JDK", List.of("-Xmx1g"), "abc123", 0.5);
        return new RunReport("test run", "a note", Instant.parse("2026-01-01T00:00:00Z"), machine, options,
            List.of(result("ringwatch", 20_000), result("juc", 400_000)));
    }

    private static PeerResult result(final String peer, final long micros99)
    {
        final Histogram delivery = new Histogram(3);
        final Histogram ack = new Histogram(3);
        final Histogram lag = new Histogram(3);
        for (int i = 0; i < 1_000; i++)
        {
            delivery.recordValue(i < 980 ? 5_000 : micros99);
            ack.recordValue(2_000);
            lag.recordValue(100);
        }
        return new PeerResult(peer, peer + " as tested", 200_000, 1_200, 1_000, 1_000, 1, 1_200, 1_200,
            delivery, ack, lag, 200_000, 199_000, 199_000, true, 0, Map.of(), List.of());
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
