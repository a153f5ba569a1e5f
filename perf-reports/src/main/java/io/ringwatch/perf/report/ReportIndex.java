package io.ringwatch.perf.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Writes {@code index.html} in a reports directory: one row per run directory that holds a
 * {@code run.properties}, newest first, linking to each run's page. Stateless; any thread.
 */
public final class ReportIndex
{
    private static final String[] COLUMNS = {"p50", "p99", "p99.9", "p99.99"};

    private ReportIndex()
    {
    }

    /**
     * @param reportsDir the directory holding one subdirectory per run.
     * @return the index page written.
     * @throws IOException if the directory cannot be read or the page written.
     */
    public static Path write(final Path reportsDir) throws IOException
    {
        Files.createDirectories(reportsDir);
        final List<Path> runs = new ArrayList<>();
        try (Stream<Path> children = Files.list(reportsDir))
        {
            children.filter(dir -> Files.isRegularFile(dir.resolve(ReportWriter.PROPERTIES)))
                .sorted(Comparator.comparing((Path dir) -> dir.getFileName().toString()).reversed())
                .forEach(runs::add);
        }
        final StringBuilder html = new StringBuilder(8192);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>RingWatch perf runs</title>\n")
            .append("<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse}")
            .append("td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}td{white-space:nowrap}")
            .append("td.l,th.l{text-align:left;white-space:normal}")
            .append("th{background:#f3f3f3}</style>\n</head>\n<body>\n<h1>RingWatch perf runs</h1>\n")
            .append("<p>Write-to-listener latency (coordinated-omission correct) and acknowledged write rate per peer. ")
            .append("Newest first.</p>\n<table>\n<tr><th class=\"l\">run</th><th class=\"l\">started</th><th class=\"l\">peer</th>")
            .append("<th>target/s</th><th>acked/s</th><th>watchers</th>");
        for (final String column : COLUMNS)
        {
            html.append("<th>").append(column).append("</th>");
        }
        html.append("<th class=\"l\">commit</th></tr>\n");
        for (final Path run : runs)
        {
            appendRun(html, run);
        }
        html.append("</table>\n</body>\n</html>\n");
        final Path page = reportsDir.resolve(ReportWriter.PAGE);
        Files.writeString(page, html.toString(), StandardCharsets.UTF_8);
        return page;
    }

    /**
     * A latency the properties hold in microseconds, in the unit that reads best.
     *
     * @param micros the property's text, or null.
     * @return for example {@code 49.59 ms}; {@code -} when absent or not a number.
     */
    static String latency(final String micros)
    {
        try
        {
            return micros == null ? "-" : Markup.latency(Double.parseDouble(micros));
        }
        catch (final NumberFormatException ex)
        {
            return micros;
        }
    }

    /**
     * A count or rate with thousands separators.
     *
     * @param value the property's text, or null.
     * @return for example {@code 199,993}; {@code -} when absent; the text itself when not a number.
     */
    static String rate(final String value)
    {
        try
        {
            return value == null ? "-" : Markup.rate(Double.parseDouble(value));
        }
        catch (final NumberFormatException ex)
        {
            return value;
        }
    }

    private static void appendRun(final StringBuilder html, final Path run) throws IOException
    {
        final Properties p = new Properties();
        try (InputStream in = Files.newInputStream(run.resolve(ReportWriter.PROPERTIES)))
        {
            p.load(in);
        }
        final String name = run.getFileName().toString();
        final String[] peers = p.getProperty("peers", "").split(",");
        final String commit = p.getProperty("commit", "unknown");
        boolean first = true;
        for (final String peer : peers)
        {
            html.append("<tr>");
            if (first)
            {
                html.append("<td class=\"l\" rowspan=\"").append(peers.length).append("\"><a href=\"")
                    .append(Markup.escape(name)).append('/').append(ReportWriter.PAGE).append("\">").append(Markup.escape(name))
                    .append("</a><br>").append(Markup.escape(p.getProperty("title", ""))).append("</td><td class=\"l\" rowspan=\"")
                    .append(peers.length).append("\">").append(Markup.escape(p.getProperty("startedAt", ""))).append("</td>");
            }
            html.append("<td class=\"l\">").append(Markup.escape(peer)).append("</td>");
            for (final String key : List.of("targetRate", "ackRate", "watchers"))
            {
                html.append("<td>").append(Markup.escape(rate(p.getProperty(peer + "." + key)))).append("</td>");
            }
            for (final String column : COLUMNS)
            {
                html.append("<td>").append(Markup.escape(latency(p.getProperty(peer + "." + column)))).append("</td>");
            }
            if (first)
            {
                html.append("<td class=\"l\" rowspan=\"").append(peers.length).append("\"><code>")
                    .append(Markup.escape(commit.length() > 12 ? commit.substring(0, 12) : commit)).append("</code></td>");
            }
            html.append("</tr>\n");
            first = false;
        }
    }
}
