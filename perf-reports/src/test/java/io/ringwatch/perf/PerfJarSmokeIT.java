package io.ringwatch.perf;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build's smoke run: the shaded jar, started as a user starts it, drives RingWatch, the
 * Disruptor floor and the j.u.c. baseline briefly and writes a report with every file. Counts and files only; nothing
 * here depends on speed (the time limit only stops a hung run).
 */
class PerfJarSmokeIT
{
    @Test
    void theJarRunsEveryInProcessPeerAndWritesACompleteReport() throws IOException, InterruptedException
    {
        final Path reports = Path.of(System.getProperty("perf.smoke.dir"));
        final List<String> command = new ArrayList<>();
        command.add(System.getProperty("perf.java"));
        Arrays.stream(System.getProperty("perf.jvm.flags").trim().split("\\s+")).filter(f -> !f.isEmpty()).forEach(command::add);
        command.addAll(List.of("-jar", System.getProperty("perf.jar"),
            "--engine", "ringwatch,disruptor,juc", "--rate", "2000", "--warmup", "500ms", "--duration", "1s",
            "--watchers", "20", "--fanout", "2", "--keys", "100", "--reports-dir", reports.toString(), "--name", "smoke",
            "--note", "build smoke run: tiny rate and duration, not a measurement"));
        final File log = reports.resolveSibling("smoke-run.log").toFile();
        Files.createDirectories(reports);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();

        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the smoke run hung; see " + log);
        final String output = Files.readString(log.toPath(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);

        final Path run;
        try (Stream<Path> runs = Files.list(reports))
        {
            run = runs.filter(p -> p.getFileName().toString().endsWith("-smoke")).max(Path::compareTo).orElseThrow();
        }
        for (final String name : List.of("index.html", "summary.txt", "run.properties",
            "ringwatch-write-to-listener.hgrm", "ringwatch-write-ack.hgrm", "ringwatch-send-lag.hgrm",
            "disruptor-write-to-listener.hgrm", "disruptor-write-ack.hgrm", "disruptor-send-lag.hgrm",
            "juc-write-to-listener.hgrm", "juc-write-ack.hgrm", "juc-send-lag.hgrm"))
        {
            assertTrue(Files.size(run.resolve(name)) > 0, name + " in " + run);
        }
        final String page = Files.readString(run.resolve("index.html"));
        for (final String peer : List.of("ringwatch", "disruptor", "juc"))
        {
            assertTrue(page.contains("data-series=\"" + peer + "\""), peer + " plotted");
            assertTrue(page.contains("<polyline class=\"p99\" data-series=\"" + peer + "\""), peer + " latency over time");
        }
        assertTrue(page.contains("<h2>JVM during each run</h2>"), "GC and CPU figures");
        final String summary = Files.readString(run.resolve("summary.txt"));
        assertEquals(3, summary.split("6000 of 6000 events delivered", -1).length - 1, summary);
        assertTrue(Files.readString(reports.resolve("index.html")).contains(run.getFileName() + "/index.html"));
    }
}
