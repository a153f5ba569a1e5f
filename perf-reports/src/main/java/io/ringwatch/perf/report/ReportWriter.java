package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Writes one run's report directory: {@code index.html} (plots as inline SVG, tables; no script,
 * nothing fetched), {@code summary.txt}, the raw {@code .hgrm} percentile distributions of every
 * histogram (values in microseconds), and {@code run.properties}, which {@link ReportIndex} reads
 * to list the run. Stateless; any thread; allocates the text it writes.
 */
public final class ReportWriter
{
    /** The page of a run. */
    public static final String PAGE = "index.html";
    /** The text summary of a run. */
    public static final String SUMMARY = "summary.txt";
    /** The key figures of a run, for the index. */
    public static final String PROPERTIES = "run.properties";

    /** The targets the brief sets for RingWatch in memory on the 2-core machine. */
    static final long TARGET_RATE = 200_000;
    static final int TARGET_WATCHERS = 1_000;
    static final double TARGET_P99_MICROS = 50;
    static final double TARGET_P9999_MICROS = 1_000;
    /** Async persistence's p99 write-to-listener, at most this many times the in-memory run's. */
    static final double PERSISTENCE_P99_RATIO = 2;
    /** RingWatch's etcd v3 server against etcd, same client: this many times better on each figure. */
    static final double SERVER_TARGET_RATIO = 10;

    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99, 100};
    private static final String[] PERCENTILE_NAMES = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

    private ReportWriter()
    {
    }

    /**
     * Writes the report, creating the directory if needed.
     *
     * @param report the run.
     * @param dir    the run's directory.
     * @return the files written.
     * @throws IOException if a file cannot be written.
     */
    public static List<Path> write(final RunReport report, final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        final List<Path> written = new ArrayList<>();
        for (final PeerResult r : report.results())
        {
            written.add(writeHgrm(dir.resolve(r.peer() + "-write-to-listener.hgrm"), r.deliveryLatency()));
            written.add(writeHgrm(dir.resolve(r.peer() + "-write-ack.hgrm"), r.ackLatency()));
            written.add(writeHgrm(dir.resolve(r.peer() + "-send-lag.hgrm"), r.sendLag()));
        }
        written.add(writeText(dir.resolve(SUMMARY), summary(report)));
        written.add(writeText(dir.resolve(PAGE), page(report)));
        written.add(writeProperties(dir.resolve(PROPERTIES), report));
        return written;
    }

    /**
     * @param report the run.
     * @return the text summary.
     */
    public static String summary(final RunReport report)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append(report.title()).append('\n').append("=".repeat(report.title().length())).append("\n\n");
        if (!report.note().isEmpty())
        {
            out.append(report.note()).append("\n\n");
        }
        out.append("started ").append(report.startedAt()).append(", git ").append(report.machine().gitCommit()).append('\n');
        out.append("machine ").append(report.machine().hardware()).append("; ").append(report.machine().os()).append('\n');
        out.append("jdk     ").append(report.machine().jdk()).append('\n');
        out.append(String.format(Locale.ROOT, "load    %.2f (1-minute load average at start)%n%n", report.machine().loadAverage()));
        out.append("write-to-listener latency (listener receive time - intended send time)\n");
        appendPercentiles(out, report, true);
        out.append("\nwrite-ack latency (acknowledgement time - intended send time)\n");
        appendPercentiles(out, report, false);
        out.append('\n').append(String.format(Locale.ROOT, "%-10s %12s %12s %12s %14s %8s %10s %8s%n",
            "peer", "target/s", "sent/s", "acked/s", "events/s", "drained", "cancelled", "failed"));
        for (final PeerResult r : report.results())
        {
            out.append(String.format(Locale.ROOT, "%-10s %12s %12s %12s %14s %8s %10d %8d%n", r.peer(),
                Markup.rate(r.targetRate()), Markup.rate(r.sendRate()), Markup.rate(r.ackRate()),
                Markup.rate(r.deliveryRate()), r.drained() ? "yes" : "NO", cancelled(r), r.failedWrites()));
        }
        out.append('\n');
        for (final PeerResult r : report.results())
        {
            out.append(r.peer()).append(": ").append(r.description()).append('\n');
            out.append(String.format(Locale.ROOT, "  %d writes (%d measured), %d watchers, %d per write, %d of %d events delivered%n",
                r.writes(), r.measuredWrites(), r.watchers(), r.watchersPerWrite(), r.deliveries(), r.expectedDeliveries()));
            out.append("  send lag p99 ").append(Markup.latency(PeerResult.micros(r.sendLag(), 99)))
                .append(", max ").append(Markup.latency(PeerResult.micros(r.sendLag(), 100))).append('\n');
            r.cancellations().forEach((reason, count) -> out.append("  cancelled: ").append(reason).append(" x").append(count).append('\n'));
            r.notes().forEach(note -> out.append("  note: ").append(note).append('\n'));
        }
        out.append("\nJVM during each run (process CPU, stop-the-world GC pauses)\n");
        for (final PeerResult r : report.results())
        {
            out.append(String.format(Locale.ROOT, "%-10s %s%n", r.peer(), activityLine(r.activity())));
        }
        if (!report.repeats().isEmpty())
        {
            out.append("\nspread over repeated runs, write-to-listener (min / median / max)\n");
            for (final Map.Entry<String, List<PeerResult>> peer : report.repeats().entrySet())
            {
                out.append(String.format(Locale.ROOT, "%-10s %d runs:", peer.getKey(), peer.getValue().size()));
                for (int i = 0; i < PERCENTILES.length; i++)
                {
                    final double[] spread = Spread.of(peer.getValue(), PERCENTILES[i]);
                    out.append(' ').append(PERCENTILE_NAMES[i]).append(' ').append(Markup.latency(spread[0])).append(" / ")
                        .append(Markup.latency(spread[1])).append(" / ").append(Markup.latency(spread[2])).append(';');
                }
                out.append('\n');
            }
        }
        out.append('\n');
        for (final String target : targetLines(report))
        {
            out.append(target).append('\n');
        }
        out.append("\noptions:");
        report.options().forEach((name, value) -> out.append(' ').append(name).append('=').append(value));
        out.append('\n');
        return out.toString();
    }

    private static void appendPercentiles(final StringBuilder out, final RunReport report, final boolean delivery)
    {
        out.append(String.format(Locale.ROOT, "%-10s %10s", "peer", "count"));
        for (final String name : PERCENTILE_NAMES)
        {
            out.append(String.format(Locale.ROOT, " %11s", name));
        }
        out.append('\n');
        for (final PeerResult r : report.results())
        {
            final Histogram h = delivery ? r.deliveryLatency() : r.ackLatency();
            out.append(String.format(Locale.ROOT, "%-10s %10d", r.peer(), h.getTotalCount()));
            for (final double p : PERCENTILES)
            {
                out.append(String.format(Locale.ROOT, " %11s", Markup.latency(PeerResult.micros(h, p))));
            }
            out.append('\n');
        }
    }

    /**
     * The brief's targets, checked against each in-memory RingWatch result, then each persistent
     * RingWatch result against the in-memory one of the same invocation.
     */
    static List<String> targetLines(final RunReport report)
    {
        final List<String> lines = new ArrayList<>();
        inMemoryTargetLines(report, lines);
        persistenceLines(report, lines);
        serverLines(report, lines);
        return lines;
    }

    /**
     * Issue 14: RingWatch's etcd v3 server against etcd in the same invocation, same client and
     * load: at least {@value #SERVER_TARGET_RATIO}x etcd's acknowledged puts/s and delivered
     * events/s, and at most a {@value #SERVER_TARGET_RATIO}th of its p99 write-to-listener. Which of
     * the three a run measures depends on its rate and watchers; all three are stated.
     */
    private static void serverLines(final RunReport report, final List<String> lines)
    {
        final PeerResult etcd = report.results().stream().filter(r -> r.peer().equals("etcd")).findFirst().orElse(null);
        if (etcd == null)
        {
            return;
        }
        for (final PeerResult r : report.results())
        {
            if (!r.peer().startsWith("ringwatch-server"))
            {
                continue;
            }
            final double puts = r.ackRate() / etcd.ackRate();
            final double events = r.deliveryRate() / etcd.deliveryRate();
            final double p99 = etcd.deliveryMicros(99) / r.deliveryMicros(99);
            lines.add(String.format(Locale.ROOT, "%s vs etcd, puts/s acknowledged: %s vs %s: %.2fx (target >= %.0fx): %s",
                r.peer(), Markup.rate(r.ackRate()), Markup.rate(etcd.ackRate()), puts, SERVER_TARGET_RATIO,
                verdict(puts >= SERVER_TARGET_RATIO)));
            lines.add(String.format(Locale.ROOT, "%s vs etcd, events/s delivered: %s vs %s: %.2fx (target >= %.0fx): %s",
                r.peer(), Markup.rate(r.deliveryRate()), Markup.rate(etcd.deliveryRate()), events, SERVER_TARGET_RATIO,
                verdict(events >= SERVER_TARGET_RATIO)));
            lines.add(String.format(Locale.ROOT, "%s vs etcd, p99 write-to-listener: %s vs %s: %.2fx lower (target >= %.0fx): %s",
                r.peer(), Markup.latency(r.deliveryMicros(99)), Markup.latency(etcd.deliveryMicros(99)), p99,
                SERVER_TARGET_RATIO, verdict(p99 >= SERVER_TARGET_RATIO)));
        }
    }

    /**
     * Issue 12: async persistence within {@value #PERSISTENCE_P99_RATIO}x of in memory at p99
     * write-to-listener; sync reported (throughput and p99) beside both.
     */
    private static void persistenceLines(final RunReport report, final List<String> lines)
    {
        PeerResult memory = null;
        for (final PeerResult r : report.results())
        {
            if (r.peer().equals("ringwatch"))
            {
                memory = r;
            }
        }
        if (memory == null)
        {
            return;
        }
        for (final PeerResult r : report.results())
        {
            final boolean async = r.peer().equals("ringwatch-async");
            if (!async && !r.peer().equals("ringwatch-sync"))
            {
                continue;
            }
            final double ratio = r.deliveryMicros(99) / memory.deliveryMicros(99);
            final String compared = String.format(Locale.ROOT,
                "persistence %s: p99 write-to-listener %s vs %s in memory, same run: %.2fx; p99 write-ack %s vs %s: %.2fx; " +
                "%s writes/s acknowledged", r.peer(), Markup.latency(r.deliveryMicros(99)),
                Markup.latency(memory.deliveryMicros(99)), ratio, Markup.latency(r.ackMicros(99)),
                Markup.latency(memory.ackMicros(99)), r.ackMicros(99) / memory.ackMicros(99), Markup.rate(r.ackRate()));
            lines.add(async ? compared + String.format(Locale.ROOT, " (target <= %.0fx): %s", PERSISTENCE_P99_RATIO,
                verdict(ratio <= PERSISTENCE_P99_RATIO && r.ackRate() >= r.targetRate() * 0.99 && r.drained())) : compared);
        }
    }

    private static void inMemoryTargetLines(final RunReport report, final List<String> lines)
    {
        for (final PeerResult r : report.results())
        {
            if (!r.peer().equals("ringwatch"))
            {
                continue;
            }
            if (r.targetRate() >= TARGET_RATE)
            {
                lines.add(String.format(Locale.ROOT, "target %s: %s writes/s acknowledged with %d watchers (target %s/s with %d): %s",
                    r.peer(), Markup.rate(r.ackRate()), r.watchers(), Markup.rate(TARGET_RATE), TARGET_WATCHERS,
                    verdict(r.ackRate() >= TARGET_RATE * 0.99 && r.watchers() >= TARGET_WATCHERS && r.drained())));
            }
            else
            {
                lines.add(String.format(Locale.ROOT, "target %s: %s writes/s with %d watchers: this run asked for %s/s only: not attempted",
                    r.peer(), Markup.rate(TARGET_RATE), TARGET_WATCHERS, Markup.rate(r.targetRate())));
            }
            lines.add(String.format(Locale.ROOT, "target %s: p99 write-to-listener %s (target <= %s): %s", r.peer(),
                Markup.latency(r.deliveryMicros(99)), Markup.latency(TARGET_P99_MICROS),
                verdict(r.deliveryMicros(99) <= TARGET_P99_MICROS)));
            lines.add(String.format(Locale.ROOT, "target %s: p99.99 write-to-listener %s (target <= %s): %s", r.peer(),
                Markup.latency(r.deliveryMicros(99.99)), Markup.latency(TARGET_P9999_MICROS),
                verdict(r.deliveryMicros(99.99) <= TARGET_P9999_MICROS)));
        }
    }

    /**
     * @param activity what the JVM did during a run.
     * @return one line: CPU, cores busy, collectors, pause count, total and longest pause.
     */
    static String activityLine(final RunActivity activity)
    {
        if (activity.wallSeconds() <= 0)
        {
            return "not recorded";
        }
        return String.format(Locale.ROOT, "CPU %.1f s in %.1f s (%.2f of %d cores busy); GC %s: %d pauses, %.1f ms in all, longest %.1f ms",
            activity.cpuSeconds(), activity.wallSeconds(), activity.coresBusy(), activity.processors(),
            String.join(" + ", activity.collectors()), activity.pauses().size(), activity.pauseMillis(), activity.maxPauseMillis());
    }

    private static String verdict(final boolean met)
    {
        return met ? "met" : "MISSED";
    }

    private static long cancelled(final PeerResult r)
    {
        return r.cancellations().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @param report the run.
     * @return the HTML page.
     */
    public static String page(final RunReport report)
    {
        final StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
            .append(Markup.escape(report.title())).append("</title>\n<style>\n")
            .append("body{font-family:sans-serif;margin:24px;max-width:1000px;color:#222}")
            .append("table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td{white-space:nowrap}")
            .append("th{background:#f3f3f3}td.l,th.l{text-align:left;white-space:normal}.note{background:#fff8e0;padding:8px;border:1px solid #eed}")
            .append(".met{color:#080}.missed{color:#b00;font-weight:bold}svg.plot{border:1px solid #ddd;margin:4px 0 16px}")
            .append("code{background:#f4f4f4;padding:1px 3px}\n</style>\n</head>\n<body>\n");
        html.append("<h1>").append(Markup.escape(report.title())).append("</h1>\n");
        html.append("<p>").append(Markup.escape(report.startedAt().toString())).append(" &middot; git <code>")
            .append(Markup.escape(report.machine().gitCommit())).append("</code> &middot; <a href=\"../index.html\">all runs</a></p>\n");
        if (!report.note().isEmpty())
        {
            html.append("<p class=\"note\">").append(Markup.escape(report.note())).append("</p>\n");
        }
        final List<String> targets = targetLines(report);
        if (!targets.isEmpty())
        {
            html.append("<h2>Targets (RingWatch in memory at this run's rate and watchers; persistent runs against the in-memory run of this invocation)</h2>\n<ul>\n");
            for (final String t : targets)
            {
                final String verdict = t.endsWith(": met") ? "met" : t.endsWith(": MISSED") ? "missed" : "other";
                html.append("<li class=\"").append(verdict).append("\">").append(Markup.escape(t)).append("</li>\n");
            }
            html.append("</ul>\n");
        }
        final List<PercentilePlot.Series> delivery = new ArrayList<>();
        final List<PercentilePlot.Series> ack = new ArrayList<>();
        for (int i = 0; i < report.results().size(); i++)
        {
            final PeerResult r = report.results().get(i);
            final String colour = PeerStyle.colour(r.peer(), i);
            delivery.add(new PercentilePlot.Series(r.peer(), colour, PeerStyle.isFloor(r.peer()), r.deliveryLatency()));
            ack.add(new PercentilePlot.Series(r.peer(), colour, PeerStyle.isFloor(r.peer()), r.ackLatency()));
        }
        html.append("<h2>Write-to-listener latency</h2>\n<p>Listener receive time minus the write's intended send time " +
            "(coordinated-omission correct), every event of the measured phase, all watchers merged.</p>\n");
        if (report.results().stream().anyMatch(r -> PeerStyle.isFloor(r.peer())))
        {
            html.append("<p>The dashed line, <b>").append(PeerStyle.FLOOR).append("</b>, is the floor: a bare Disruptor ring ")
                .append("and one handler thread, driven by the same producers in the same run: what this machine, this JVM and ")
                .append("one hand-over between threads cost at this load. Read the other lines by their distance above it.</p>\n");
        }
        html.append(PercentilePlot.svg("Write-to-listener latency by percentile", delivery, List.of(
            new PercentilePlot.Target(99, TARGET_P99_MICROS, "target p99 50 µs"),
            new PercentilePlot.Target(99.99, TARGET_P9999_MICROS, "target p99.99 1 ms"))));
        html.append("<h2>Latency over time</h2>\n<p>Each second of the measured phase: the p99 and the max of the " +
            "write-to-listener latencies recorded in that second, per peer (peers ran one after another; each line starts at " +
            "its own measured phase). The ticks under the plot are that peer's stop-the-world GC pauses, at their length; " +
            "a stall shows as a spike, and a tick under it says whether the collector caused it.</p>\n");
        html.append(TimelinePlot.svg(report.results()));
        html.append("<h2>Write-ack latency</h2>\n<p>Acknowledgement time minus intended send time.</p>\n");
        html.append(PercentilePlot.svg("Write-ack latency by percentile", ack, List.of()));
        html.append("<h2>Throughput</h2>\n").append(ThroughputChart.svg(report.results()));
        html.append("<h2>Percentiles</h2>\n");
        percentileTable(html, report, true);
        percentileTable(html, report, false);
        if (!report.repeats().isEmpty())
        {
            spreadTable(html, report);
        }
        jvmTable(html, report);
        html.append("<h2>Counts</h2>\n<table>\n<tr><th class=\"l\">peer</th><th>target/s</th><th>sent/s</th><th>acked/s</th>")
            .append("<th>events/s</th><th>writes (measured)</th><th>watchers (per write)</th><th>events delivered / expected</th>")
            .append("<th>cancelled watches</th><th>failed writes</th><th>drained</th></tr>\n");
        for (final PeerResult r : report.results())
        {
            html.append("<tr><td class=\"l\">").append(Markup.escape(r.peer())).append("</td><td>")
                .append(Markup.rate(r.targetRate())).append("</td><td>").append(Markup.rate(r.sendRate())).append("</td><td>")
                .append(Markup.rate(r.ackRate())).append("</td><td>").append(Markup.rate(r.deliveryRate())).append("</td><td>")
                .append(r.writes()).append(" (").append(r.measuredWrites()).append(")</td><td>").append(r.watchers())
                .append(" (").append(r.watchersPerWrite()).append(")</td><td>").append(r.deliveries()).append(" / ")
                .append(r.expectedDeliveries()).append("</td><td>").append(Markup.escape(r.cancellations().toString()))
                .append("</td><td>").append(r.failedWrites()).append("</td><td>").append(r.drained() ? "yes" : "NO")
                .append("</td></tr>\n");
        }
        html.append("</table>\n<h2>Peers</h2>\n<ul>\n");
        for (final PeerResult r : report.results())
        {
            html.append("<li><b>").append(Markup.escape(r.peer())).append("</b>: ").append(Markup.escape(r.description()))
                .append("; send lag p99 ").append(Markup.latency(PeerResult.micros(r.sendLag(), 99))).append(", max ")
                .append(Markup.latency(PeerResult.micros(r.sendLag(), 100)));
            for (final String note : r.notes())
            {
                html.append("<br><i>").append(Markup.escape(note)).append("</i>");
            }
            html.append("</li>\n");
        }
        html.append("</ul>\n<h2>Machine</h2>\n<table>\n");
        row(html, "hardware", report.machine().hardware());
        row(html, "OS", report.machine().os());
        row(html, "JDK", report.machine().jdk());
        row(html, "JVM arguments", String.join(" ", report.machine().jvmArguments()));
        row(html, "git commit", report.machine().gitCommit());
        row(html, "load average at start", String.format(Locale.ROOT, "%.2f", report.machine().loadAverage()));
        html.append("</table>\n<h2>Options</h2>\n<table>\n");
        for (final Map.Entry<String, String> option : report.options().entrySet())
        {
            row(html, option.getKey(), option.getValue());
        }
        html.append("</table>\n<h2>Files</h2>\n<ul>\n<li><a href=\"").append(SUMMARY).append("\">").append(SUMMARY).append("</a></li>\n");
        for (final PeerResult r : report.results())
        {
            for (final String kind : List.of("write-to-listener", "write-ack", "send-lag"))
            {
                final String file = r.peer() + "-" + kind + ".hgrm";
                html.append("<li><a href=\"").append(Markup.escape(file)).append("\">").append(Markup.escape(file)).append("</a></li>\n");
            }
        }
        html.append("</ul>\n<p>.hgrm values are in microseconds (HdrHistogram percentile distribution, scaling ratio 1000).</p>\n")
            .append("</body>\n</html>\n");
        return html.toString();
    }

    private static void spreadTable(final StringBuilder html, final RunReport report)
    {
        html.append("<h2>Spread over repeated runs</h2>\n<p>Write-to-listener percentiles over every run of each peer: ")
            .append("the lowest, the median and the highest value of each. The plots and the tables above show the run ")
            .append("whose p99 is the median (the lower of the middle two for an even count).</p>\n<table>\n")
            .append("<tr><th class=\"l\">peer</th><th>runs</th><th class=\"l\">over the runs</th>");
        for (final String name : PERCENTILE_NAMES)
        {
            html.append("<th>").append(name).append("</th>");
        }
        html.append("</tr>\n");
        final String[] rows = {"min", "median", "max"};
        for (final Map.Entry<String, List<PeerResult>> peer : report.repeats().entrySet())
        {
            for (int row = 0; row < rows.length; row++)
            {
                html.append("<tr>");
                if (row == 0)
                {
                    html.append("<td class=\"l\" rowspan=\"3\">").append(Markup.escape(peer.getKey()))
                        .append("</td><td rowspan=\"3\">").append(peer.getValue().size()).append("</td>");
                }
                html.append("<td class=\"l\">").append(rows[row]).append("</td>");
                for (final double p : PERCENTILES)
                {
                    final String value = Markup.escape(Markup.latency(Spread.of(peer.getValue(), p)[row]));
                    html.append("<td>").append(row == 1 ? "<b>" + value + "</b>" : value).append("</td>");
                }
                html.append("</tr>\n");
            }
        }
        html.append("</table>\n");
    }

    private static void jvmTable(final StringBuilder html, final RunReport report)
    {
        html.append("<h2>JVM during each run</h2>\n<p>Process CPU time (every thread, the harness's own included) and ")
            .append("garbage collections from the collectors' MXBean notifications, from the peer's start to its drain.</p>\n")
            .append("<table>\n<tr><th class=\"l\">peer</th><th>CPU</th><th>wall</th><th>cores busy</th>")
            .append("<th class=\"l\">collectors</th><th>GC pauses</th><th>paused in all</th><th>longest pause</th>")
            .append("<th>concurrent cycles</th></tr>\n");
        for (final PeerResult r : report.results())
        {
            final RunActivity a = r.activity();
            html.append("<tr><td class=\"l\">").append(Markup.escape(r.peer())).append("</td>");
            if (a.wallSeconds() <= 0)
            {
                html.append("<td colspan=\"8\" class=\"l\">not recorded</td></tr>\n");
                continue;
            }
            html.append("<td>").append(String.format(Locale.ROOT, "%.1f s", a.cpuSeconds())).append("</td><td>")
                .append(String.format(Locale.ROOT, "%.1f s", a.wallSeconds())).append("</td><td>")
                .append(String.format(Locale.ROOT, "%.2f of %d", a.coresBusy(), a.processors())).append("</td><td class=\"l\">")
                .append(Markup.escape(String.join(", ", a.collectors()))).append("</td><td>").append(a.pauses().size())
                .append("</td><td>").append(a.pauses().isEmpty() ? "-" : Markup.escape(Markup.latency(a.pauseMillis() * 1000)))
                .append("</td><td>").append(a.pauses().isEmpty() ? "-" : Markup.escape(Markup.latency(a.maxPauseMillis() * 1000)))
                .append("</td><td>")
                .append(a.collections().size() - a.pauses().size()).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void percentileTable(final StringBuilder html, final RunReport report, final boolean delivery)
    {
        html.append("<table>\n<tr><th class=\"l\">").append(delivery ? "write-to-listener" : "write-ack")
            .append("</th><th>count</th>");
        for (final String name : PERCENTILE_NAMES)
        {
            html.append("<th>").append(name).append("</th>");
        }
        html.append("</tr>\n");
        for (final PeerResult r : report.results())
        {
            final Histogram h = delivery ? r.deliveryLatency() : r.ackLatency();
            html.append("<tr><td class=\"l\">").append(Markup.escape(r.peer())).append("</td><td>").append(h.getTotalCount()).append("</td>");
            for (final double p : PERCENTILES)
            {
                html.append("<td>").append(Markup.escape(Markup.latency(PeerResult.micros(h, p)))).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    private static void row(final StringBuilder html, final String name, final String value)
    {
        html.append("<tr><th class=\"l\">").append(Markup.escape(name)).append("</th><td class=\"l\">")
            .append(Markup.escape(value)).append("</td></tr>\n");
    }

    private static Path writeHgrm(final Path file, final Histogram histogram) throws IOException
    {
        try (OutputStream stream = Files.newOutputStream(file);
             PrintStream out = new PrintStream(stream, false, StandardCharsets.UTF_8))
        {
            if (histogram.getTotalCount() > 0)
            {
                histogram.outputPercentileDistribution(out, 1000.0);
            }
        }
        return file;
    }

    private static Path writeText(final Path file, final String text) throws IOException
    {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static Path writeProperties(final Path file, final RunReport report) throws IOException
    {
        final Properties properties = new Properties();
        properties.setProperty("title", report.title());
        properties.setProperty("note", report.note());
        properties.setProperty("startedAt", report.startedAt().toString());
        properties.setProperty("commit", report.machine().gitCommit());
        properties.setProperty("machine", report.machine().hardware());
        final List<String> peers = new ArrayList<>();
        for (final PeerResult r : report.results())
        {
            peers.add(r.peer());
            properties.setProperty(r.peer() + ".targetRate", Long.toString(r.targetRate()));
            properties.setProperty(r.peer() + ".ackRate", String.format(Locale.ROOT, "%.0f", r.ackRate()));
            properties.setProperty(r.peer() + ".watchers", Integer.toString(r.watchers()));
            properties.setProperty(r.peer() + ".drained", Boolean.toString(r.drained()));
            if (r.activity().wallSeconds() > 0)
            {
                properties.setProperty(r.peer() + ".cpuSeconds", String.format(Locale.ROOT, "%.2f", r.activity().cpuSeconds()));
                properties.setProperty(r.peer() + ".gcPauses", Integer.toString(r.activity().pauses().size()));
                properties.setProperty(r.peer() + ".gcMaxPauseMillis", String.format(Locale.ROOT, "%.1f", r.activity().maxPauseMillis()));
            }
            for (int i = 0; i < PERCENTILES.length; i++)
            {
                properties.setProperty(r.peer() + "." + PERCENTILE_NAMES[i],
                    String.format(Locale.ROOT, "%.1f", r.deliveryMicros(PERCENTILES[i])));
            }
        }
        properties.setProperty("peers", String.join(",", peers));
        try (OutputStream out = Files.newOutputStream(file))
        {
            properties.store(out, "RingWatch perf run: write-to-listener percentiles in microseconds");
        }
        return file;
    }
}
